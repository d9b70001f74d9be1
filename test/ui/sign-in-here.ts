import type { Page } from 'playwright-core';
import { createSignInToken } from '../../server/domain/sessions';
import type { TestAccount, TestServer } from '../helpers/server';
import { type FreshShops, freshBusiness, freshShop } from './fresh-shops';

/**
 * Signs a page already open in to another business through a new one-time link, the way an owner
 * opens a second link in the same tab. The link replaces the page's document and its context's
 * session, as a new page of that context would (signedInPage in browser.ts), without the new page:
 * about half of that page's Chromium time. Only for a flow that needs the page's old session no more.
 */
export async function signInHere(page: Page, server: TestServer, clientId: string): Promise<void> {
  const token = await createSignInToken(server.ctx, clientId);
  await page.goto(`${server.url}/sign-in?token=${token}`);
}

/**
 * freshShop (fresh-shops.ts) for a file whose flows share one page: the first flow opens it, each
 * later one signs it in to a new business of its own. Each flow starts on the link's full page
 * load, so none sees what the one before left on screen; a form that one left half-written (a
 * flow that failed) does not get to ask before the page is left, which would hold up the next.
 */
export function freshShopsOnOnePage(
  shops: FreshShops,
): (config?: Record<string, unknown>) => Promise<{ shop: TestAccount; page: Page }> {
  let page: Page | undefined;
  return async (config) => {
    if (!page || page.isClosed()) {
      const fresh = await freshShop(shops, config);
      page = fresh.page;
      return fresh;
    }
    const shop = await freshBusiness(shops, config);
    await page.evaluate(() =>
      window.addEventListener('beforeunload', (event) => event.stopImmediatePropagation(), true),
    );
    await signInHere(page, shops.server, shop.clientId);
    return { shop, page };
  };
}
