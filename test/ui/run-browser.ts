import { type Browser, chromium } from 'playwright-core';
import { inject } from 'vitest';

/**
 * The run's Chromium (started once by test/ui/chromium-server.ts), reached from a test file. Each
 * file works in contexts of its own; closing what this returns closes them and leaves the browser
 * to the other files. Its contexts ask for reduced motion unless a file says otherwise: a spinning
 * or shimmering placeholder repaints every frame while a screen loads, and a button's hover fade
 * after each click, all of it Chromium's time on the two cores the test files share (about a
 * tenth of Chromium's CPU in three ui files).
 */
export async function runBrowser(): Promise<Browser> {
  const browser = await chromium.connect(inject('chromiumEndpoint'));
  const newContext = browser.newContext.bind(browser);
  browser.newContext = (options) => newContext({ reducedMotion: 'reduce', ...options });
  return browser;
}
