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
 * Flags that cut the test browser's own work, not what a page does (issue 25, BENCHMARKS.md "The
 * ui test project's CPU"); the UI benchmark's Chromium (launchChromium) keeps the plain flags.
 * The pages are the tests' own servers on 127.0.0.1 (or localhost), and the one framed page is of
 * the same site, so site isolation would only add renderer processes (and a spare one kept warm
 * per context); one raster thread per renderer, as the ui project keeps several renderers busy on
 * two cores; a scroll into view jumps instead of animating over frames.
 */
const TEST_BROWSER_ARGS = [
  '--disable-site-isolation-trials',
  '--num-raster-threads=1',
  '--disable-smooth-scrolling',
];

/**
 * Global set-up of the ui project: one Chromium for the whole run instead of one per test file (a
 * start costs seconds on a loaded machine). Files connect to it and open their own contexts, which
 * share no cookies or storage, so a file that fails leaves nothing behind for the next.
 */
export default async function setup(project: TestProject) {
  const args = [...(CHROMIUM.args ?? []), ...TEST_BROWSER_ARGS];
  const server = await chromium.launchServer({ ...CHROMIUM, args });
  project.provide('chromiumEndpoint', server.wsEndpoint());
  return () => server.close();
}
