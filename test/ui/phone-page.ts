import type { Browser, Page } from 'playwright-core';

/** A page at phone size (390×844), as customers open the client hub. */
export async function phonePage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  return page;
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
