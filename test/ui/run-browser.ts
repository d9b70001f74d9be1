import { type Browser, chromium } from 'playwright-core';
import { inject } from 'vitest';

/**
 * The run's Chromium (started once by test/ui/chromium-server.ts), reached from a test file. Each
 * file works in contexts of its own; closing what this returns closes them and leaves the browser
 * to the other files.
 */
export function runBrowser(): Promise<Browser> {
  return chromium.connect(inject('chromiumEndpoint'));
}
