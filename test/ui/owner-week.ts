import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { zonedToUtc } from '../../shared/time-zone';
import { startTestServer, type TestAccount, type TestServer } from '../helpers/server';
import { DESKTOP, signedInPage } from './browser';
import { runBrowser } from './run-browser';

export const VANCOUVER = 'America/Vancouver';

export const iso = (date: string, time: string, zone: string) =>
  zonedToUtc(date, time, zone)
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z');

/** A server and one browser context for the flows of issue 13; each flow makes a business of its own. */
export interface OwnerWeek {
  server: TestServer;
  browser: Browser;
  context: BrowserContext;
}

/**
 * The set-up of an owner's-week file: no seeded business and no page of its own (each flow signs
 * in to a new business, so a seeded one would only cost its requests and a page load). The pages
 * share one browser context, whose session each sign-in replaces: the flows run one after
 * another, and the renderer's files stay cached from one to the next.
 */
export function startOwnerWeek(): OwnerWeek {
  const week = {} as OwnerWeek;
  beforeAll(async () => {
    const [server, browser] = await Promise.all([startTestServer(), runBrowser()]);
    Object.assign(week, { server, browser, context: await browser.newContext({ viewport: DESKTOP }) });
  });
  afterAll(async () => {
    await week.browser?.close();
    await week.server?.stop();
  });
  return week;
}

/** A new business of its own, signed in on a page of its own, so its settings touch no other flow. */
export async function freshShop(
  week: OwnerWeek,
  config: Record<string, unknown>,
): Promise<{ shop: TestAccount; page: Page }> {
  const shop = await week.server.createAccount({ business: 'Coast Cleaning' });
  const configured = await shop.portal('PUT', '/config', { body: config });
  expect(configured.status, configured.text).toBe(200);
  return { shop, page: await signedInPage(week.context, week.server, shop.clientId) };
}
