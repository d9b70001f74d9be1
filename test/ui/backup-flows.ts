import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectOk, okBody } from '../helpers/api-responses';
import { startTestServer } from '../helpers/server';
import { DESKTOP, STEP_TIMEOUT_MS, screenshot } from './browser';
import { runBrowser } from './run-browser';
import { signInHere } from './sign-in-here';

/**
 * Settings > Backups and the dashboard's warning, each flow on a server of its own: a restore rolls
 * a server's data back, and the portal restores only a server that holds one business.
 */
export function backupFlows() {
  describe('backups', () => {
    let browser: Browser;
    /**
     * One page for both flows, each signing in on it: their servers are on other data folders, so
     * each sign-in sets a session cookie of its own name (server/http/session.ts) beside the other's,
     * and the sign-in link is a new document, not a hash change of the last flow's screen.
     */
    let page: Page;
    beforeAll(async () => {
      browser = await runBrowser();
      page = await (await browser.newContext({ viewport: DESKTOP })).newPage();
      page.setDefaultTimeout(STEP_TIMEOUT_MS);
    });
    afterAll(() => browser?.close());

    it('warns on the dashboard until a backup exists, then backs up and restores from Settings', async () => {
      const server = await startTestServer();
      try {
        const shop = await server.createAccount();
        await signInHere(page, server, shop.clientId);
        await page.goto(`${server.url}/#/`);
        await page.getByTestId('backup-alert').getByText('There is no backup of your data yet.').waitFor();

        await page.goto(`${server.url}/#/settings/backups`);
        await page.getByRole('button', { name: 'Back up now' }).click();
        const row = page.getByRole('row', { name: /By hand/ });
        await row.getByText('verified').waitFor();
        await screenshot(page, 'settings-backups');

        await shop.portal('POST', '/customers', {
          body: { name: 'Added Later', email: 'later@example.com' },
        });
        await row.getByRole('button', { name: 'Restore…' }).click();
        await page.getByRole('dialog').getByRole('button', { name: 'Restore' }).click();
        await page.getByText(/Restored the backup of/).waitFor();
        await page.getByRole('row', { name: /Before a restore/ }).waitFor();
        const customers = expectOk(await shop.portal('GET', '/customers'));
        expect(customers.body.data).toEqual([]);

        await page.goto(`${server.url}/#/`);
        await page.getByTestId('dashboard-loaded').waitFor();
        expect(await page.getByTestId('backup-alert').count()).toBe(0);
        // The dashboard says the data was restored, when, and how old it now is.
        const { last_restore } = okBody(
          await shop.portal('GET', '/backups', { key: null, headers: { cookie: await shop.signIn() } }),
        ).status;
        const notice = page.getByTestId('restore-notice');
        await notice.getByText('Restored from a backup.').waitFor();
        const shown = (iso: string) =>
          page.evaluate(
            (at) =>
              new Intl.DateTimeFormat('en-CA', {
                timeZone: 'America/Toronto',
                dateStyle: 'medium',
                timeStyle: 'short',
              }).format(new Date(at)),
            iso,
          );
        expect(await notice.textContent()).toContain(
          `On ${await shown(last_restore!.restored_at)} your data was put back as it was on ${await shown(last_restore!.backup_created_at)};`,
        );
        await screenshot(page, 'dashboard-restored');
      } finally {
        await server.stop();
      }
    });

    it('tells the owner of one business among several that backups are the operator’s', async () => {
      const server = await startTestServer();
      try {
        const shop = await server.createAccount();
        await server.createAccount({ business: 'Neighbour' });
        await signInHere(page, server, shop.clientId);
        await page.goto(`${server.url}/#/settings/backups`);
        await page
          .getByTestId('backups-operator')
          .getByText(/command line \(shopdesk backup\)/)
          .waitFor();
        await page.getByText('Backups folder').waitFor();
        expect(await page.getByRole('button', { name: 'Back up now' }).count()).toBe(0);
        expect(await page.getByRole('button', { name: 'Use this folder' }).count()).toBe(0);
        await screenshot(page, 'settings-backups-operator');
      } finally {
        await server.stop();
      }
    });
  });
}
