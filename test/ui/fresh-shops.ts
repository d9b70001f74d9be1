import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { startTestServer, type TestAccount, type TestServer } from '../helpers/server';
import { DESKTOP, signedInPage } from './browser';
import { runBrowser } from './run-browser';

/** A server and one browser context for flows that each sign in to a business of their own. */
export interface FreshShops {
  server: TestServer;
  browser: Browser;
  context: BrowserContext;
}

/**
 * The set-up of a file whose flows each make a new business: no seeded business and no page of
 * its own (portal-session.ts), which would only cost their requests and a page load. The pages
 * share one browser context, whose session each sign-in replaces: the flows run one after
 * another, and the renderer's files stay cached from one to the next.
 */
export function startFreshShops(): FreshShops {
  const shops = {} as FreshShops;
  beforeAll(async () => {
    const [server, browser] = await Promise.all([startTestServer(), runBrowser()]);
    Object.assign(shops, { server, browser, context: await browser.newContext({ viewport: DESKTOP }) });
  });
  afterAll(async () => {
    await shops.browser?.close();
    await shops.server?.stop();
  });
  return shops;
}

/** A new business, configured as `config` says if given, signed in on a page of its own. */
export async function freshShop(
  shops: FreshShops,
  config?: Record<string, unknown>,
): Promise<{ shop: TestAccount; page: Page }> {
  const shop = await freshBusiness(shops, config);
  return { shop, page: await signedInPage(shops.context, shops.server, shop.clientId) };
}

/** A new business on the file's server, with the settings a flow needs, not yet signed in to. */
export async function freshBusiness(
  shops: FreshShops,
  config?: Record<string, unknown>,
): Promise<TestAccount> {
  const shop = await shops.server.createAccount({ business: 'Coast Cleaning' });
  if (config) {
    const configured = await shop.portal('PUT', '/config', { body: config });
    expect(configured.status, configured.text).toBe(200);
  }
  return shop;
}
