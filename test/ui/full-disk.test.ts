import { sql } from 'kysely';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server';
import { screenshot, signedInPage } from './browser';
import { runBrowser } from './run-browser';

let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  server = await startTestServer();
  browser = await runBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

it('shows the full-disk answer in words where the owner tried to save', async () => {
  const shop = await server.createAccount();
  const page = await signedInPage(browser, server, shop.clientId);
  await page.goto(`${server.url}/#/customers`);
  await page.getByRole('button', { name: 'New customer' }).first().click();

  // The file may not grow by another page; fill what is left until customers no longer fit.
  const { rows } = await sql<{ page_count: number }>`PRAGMA page_count`.execute(server.ctx.db);
  await sql.raw(`PRAGMA max_page_count = ${rows[0]!.page_count}`).execute(server.ctx.db);
  let refusedInARow = 0;
  for (let i = 0; refusedInARow < 3 && i < 2000; i++) {
    const response = await shop.portal('POST', '/customers', {
      body: { name: `Filler ${i}`, email: `filler-${i}@example.com` },
    });
    refusedInARow = (response.status as number) === 507 ? refusedInARow + 1 : 0;
  }
  expect(refusedInARow).toBe(3);

  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Name').fill('Ada Lovelace');
  await dialog.getByLabel('E-mail').fill('ada@example.com');
  await dialog.getByRole('button', { name: 'Add customer' }).click();
  const alert = dialog.getByRole('alert');
  await alert.waitFor();
  expect(await alert.textContent()).toContain('is full, so this change was not saved');
  await screenshot(page, 'full-disk');
});
