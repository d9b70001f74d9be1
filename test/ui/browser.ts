import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import {
  type Browser,
  type BrowserContext,
  chromium,
  type LaunchOptions,
  type Locator,
  type Page,
} from 'playwright-core';
import { createSignInToken } from '../../server/domain/sessions';
import type { TestServer } from '../helpers/server';

const ROOT = path.resolve(import.meta.dirname, '../..');
const SCREENSHOT_DIR = path.join(ROOT, 'test-artifacts/screenshots');

/** Builds dist/renderer only when it is missing or older than its sources (a second run costs nothing). */
export function ensureRendererBuilt() {
  execFileSync(process.execPath, [path.join(ROOT, 'scripts/build-renderer-if-missing.mjs')], {
    cwd: ROOT,
    stdio: 'inherit',
  });
}

/** Debian's Chromium, the browser people use; its headless build is what the tests run. */
const FULL_CHROMIUM = '/usr/bin/chromium';
const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';

/** Both builds, driven by playwright-core (Playwright's own browser download is not used). */
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
];

/**
 * The ui tests' Chromium: Debian's `chromium-headless-shell` (the same engine and version as
 * `chromium`, without the browser's own interface) where installed, as scripts/ensure-test-deps.mjs
 * installs it. The full browser in headless mode still builds a window for every context, with a
 * renderer for its top bar, and keeps more renderers warm: the shell costs the ui files about half
 * the CPU (BENCHMARKS.md, "The ui test project's CPU"). `CHROMIUM_PATH` names another one.
 */
export const CHROMIUM: LaunchOptions = {
  executablePath: process.env.CHROMIUM_PATH ?? (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : FULL_CHROMIUM),
  args: ARGS,
};

/**
 * A Chromium of the caller's own (the UI benchmark): the full browser, so its timings are those
 * of the browser people open the portal in; the headless build where `npm test` installed only that
 * (the benchmark's byte counts are the same in both). The ui tests share one: test/ui/run-browser.ts.
 */
export function launchChromium(): Promise<Browser> {
  const executablePath =
    process.env.CHROMIUM_PATH ?? (existsSync(FULL_CHROMIUM) ? FULL_CHROMIUM : HEADLESS_SHELL);
  return chromium.launch({ executablePath, args: ARGS });
}

/**
 * How long one browser step (a click, a wait for a locator) may take before it fails with
 * playwright's message naming the locator. Generous: a first visit loads screen chunks, and CI's
 * two cores run other files beside it (a 10 s limit failed there on a page that did load); still
 * well inside the ui project's 90 s test timeout, so the message says which step hung.
 */
export const STEP_TIMEOUT_MS = 30_000;

/** The window size of an owner's browser in these tests. */
export const DESKTOP = { width: 1360, height: 900 };

/**
 * A page signed in through the one-time link, the way an owner signs in: in a fresh browser
 * context, or in one a file already has open, whose session the link replaces. A context that
 * loaded the renderer keeps its files cached, so its next page skips fetching and compiling them
 * again (about a second a page on a loaded machine).
 */
export async function signedInPage(
  from: Browser | BrowserContext,
  server: TestServer,
  clientId: string,
): Promise<Page> {
  const context = 'newContext' in from ? await from.newContext({ viewport: DESKTOP }) : from;
  const page = await context.newPage();
  page.setDefaultTimeout(STEP_TIMEOUT_MS);
  const token = await createSignInToken(server.ctx, clientId);
  await page.goto(`${server.url}/sign-in?token=${token}`);
  return page;
}

/**
 * Screenshots are for people to look at, and each full-page one costs the ui project seconds on a
 * loaded machine (rendering the whole page, encoding, sending the PNG over the browser's socket):
 * taken only with SCREENSHOTS=1, which CI (.ci/run) sets so its artifacts keep them.
 */
const SCREENSHOTS = process.env.SCREENSHOTS === '1';

/** The whole page by default; `fullPage: false` for what the viewport shows (a phone-sized one). */
export async function screenshot(page: Page, name: string, { fullPage = true } = {}) {
  if (!SCREENSHOTS) return;
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`), fullPage });
}

/** One element (the sync indicator), under the same rule. */
export async function screenshotOf(element: Locator, name: string) {
  if (!SCREENSHOTS) return;
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await element.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`) });
}
