import type { Browser, BrowserContext, Page } from 'playwright-core';
import { STEP_TIMEOUT_MS } from './browser';

/** A page at phone size (390×844), as customers open the client hub. */
export async function phonePage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true });
  const page = await context.newPage();
  page.setDefaultTimeout(STEP_TIMEOUT_MS);
  return page;
}

/**
 * A crew member's phone (390×844, touch) that collects the page's uncaught errors: the crew's
 * tests end by asserting there were none.
 */
export async function crewPhone(
  browser: Browser,
): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
  });
  const page = await context.newPage();
  page.setDefaultTimeout(STEP_TIMEOUT_MS);
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  return { context, page, errors };
}

/** Waits for a condition reached by another process (a sync, a delivery), polling it. */
export async function until(
  what: string,
  done: () => boolean | Promise<boolean>,
  ms = 60_000,
): Promise<void> {
  const started = Date.now();
  while (!(await done())) {
    if (Date.now() - started > ms) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
