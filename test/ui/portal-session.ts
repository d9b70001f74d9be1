import type { BrowserContextOptions } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { type Method, okBody } from '../helpers/api-responses';
import { startTestServer, type TestAccount } from '../helpers/server';
import { DESKTOP, signedInPage } from './browser';
import type { UiContext } from './context';
import { runBrowser } from './run-browser';

/**
 * The set-up every portal UI test file shares: a server, a business seeded with customers, jobs,
 * invoices and reviews, a browser, and a page signed in as its owner, in a context of `device`'s
 * kind (a desktop window unless told). Each file gets its own, so a flow that times out leaves
 * the next file a fresh server and browser contexts.
 */
export function startPortalSession(device: BrowserContextOptions = { viewport: DESKTOP }): UiContext {
  const ui = {} as UiContext;
  beforeAll(async () => {
    const server = await startTestServer();
    const shop = await server.createAccount({ business: 'Sparkle Cleaning' });
    Object.assign(ui, { server, shop });
    await seed(shop);
    const browser = await runBrowser();
    const context = await browser.newContext(device);
    Object.assign(ui, { browser, page: await signedInPage(context, server, shop.clientId) });
  });
  afterAll(async () => {
    await ui.browser?.close();
    await ui.server?.stop();
  });
  return ui;
}

async function seed(account: TestAccount) {
  const ok = async <M extends Method, P extends string>(method: M, path: P, body?: unknown) =>
    okBody(await account.portal(method, path, { body }));
  await ok('PUT', '/config', {
    business_name: 'Sparkle Cleaning',
    default_taxes: [
      { name: 'GST', rate: 0.05 },
      { name: 'PST', rate: 0.07 },
    ],
  });
  const today = new Date();
  const at = (days: number, hour: number) => {
    const d = new Date(
      Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() + days, hour + 5),
    );
    return d.toISOString().replace(/\.\d{3}Z$/, 'Z');
  };
  const people = [
    ['Maya Chen', 'maya@example.com', 'Move-out deep clean', 'Sam'],
    ['Oliver Grant', 'oliver@example.com', 'Window cleaning', 'Alex'],
    ['Priya Patel', 'priya@example.com', 'Weekly clean', 'Sam'],
    ['Lucas Martin', 'lucas@example.com', 'Carpet shampoo', 'Jordan'],
  ] as const;
  for (const [index, [name, email, title, who]] of people.entries()) {
    await ok('POST', '/customers', {
      name,
      email,
      phone: `+1 416 555 01${index}0`,
      tags: index % 2 ? ['vip'] : [],
    });
    await ok('POST', '/jobs/create', {
      customer_email: email,
      title,
      scheduled_start: at(index - 1, 9 + index),
      scheduled_end: at(index - 1, 11 + index),
      assignees: [who],
      price: 120 + index * 40,
    });
    const invoice = await ok('POST', '/invoices/create', {
      customer_email: email,
      items: [{ description: title, quantity: 1, unit_price: 120 + index * 40 }],
    });
    if (index < 2) await ok('POST', `/invoices/${invoice.number}/paid`, {});
    await ok('POST', '/reviews', {
      rating: 5 - (index % 3),
      comment: index === 2 ? 'Good, but they were a bit late.' : 'Spotless, and so friendly!',
      customer_email: email,
      source: index % 2 ? 'google' : 'website',
    });
  }
}
