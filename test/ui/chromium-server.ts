import { chromium } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { CHROMIUM } from './browser';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where the ui project's one Chromium listens for playwright-core (test/ui/run-browser.ts). */
    chromiumEndpoint: string;
  }
}

/**
 * Global set-up of the ui project: one Chromium for the whole run instead of one per test file (a
 * start costs seconds on a loaded machine). Files connect to it and open their own contexts, which
 * share no cookies or storage, so a file that fails leaves nothing behind for the next.
 */
export default async function setup(project: TestProject) {
  const server = await chromium.launchServer(CHROMIUM);
  project.provide('chromiumEndpoint', server.wsEndpoint());
  return () => server.close();
}
