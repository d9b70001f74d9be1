import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSignInToken } from '../../server/domain/sessions';
import { sessionCookieName } from '../../server/http/session';
import { startTestServer, type TestAccount, type TestServer } from '../helpers/server';
import { runBrowser } from './run-browser';

let browser: Browser;
let first: TestServer;
let second: TestServer;

beforeAll(async () => {
  browser = await runBrowser();
  first = await startTestServer();
  second = await startTestServer();
});
afterAll(async () => {
  await browser?.close();
  await first?.stop();
  await second?.stop();
});

/** Records every Content-Security-Policy violation the page reports, from its first script on. */
async function recordViolations(page: Page): Promise<() => Promise<string[]>> {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (event) =>
      seen.push(`${event.violatedDirective} ${event.blockedURI}`),
    );
  });
  return () => page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations);
}

describe('/docs', () => {
  /**
   * One page for both, each opening its own address: /docs is public and the framing page another
   * origin, so no cookie matters.
   */
  let page: Page;
  beforeAll(async () => {
    page = await (await browser.newContext()).newPage();
    // Swagger UI lays out the whole document before showing it: slow on a loaded machine.
    page.setDefaultTimeout(150_000);
  });

  it('renders Swagger UI under its Content-Security-Policy, with no violation', async () => {
    const violations = await recordViolations(page);
    const response = await page.goto(`${first.url}/docs`);
    expect(response?.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
    await expect(page.locator('.swagger-ui .info .title').textContent()).resolves.toContain('Shopdesk API');
    // The operations list is virtual: only the first few are in the page.
    await page.locator('.opblock').first().waitFor();
    expect(await page.locator('.opblock-tag').count()).toBeGreaterThan(0);
    expect(await violations()).toEqual([]);
  }, 180_000);

  it('cannot be framed by another page', async () => {
    let framing: Server | undefined;
    try {
      framing = createServer((_request, response) => {
        response.setHeader('content-type', 'text/html');
        response.end(`<!doctype html><iframe id="docs" src="${first.url}/docs"></iframe>`);
      });
      await new Promise<void>((resolve) => framing!.listen(0, '127.0.0.1', resolve));
      const refused = page.waitForEvent('console', (message) => message.text().includes('frame-ancestors'));
      await page.goto(`http://127.0.0.1:${(framing.address() as AddressInfo).port}/`);
      await refused;
      const frame = page.frames().find((candidate) => candidate !== page.mainFrame());
      expect(await frame?.locator('.swagger-ui').count()).toBe(0);
    } finally {
      framing?.close();
    }
  });
});

describe('the session cookie', () => {
  const signInLink = async (server: TestServer, account: TestAccount) =>
    `${server.url}/sign-in?token=${await createSignInToken(server.ctx, account.clientId)}`;
  const signIn = async (context: BrowserContext, server: TestServer, account: TestAccount) => {
    const page = await context.newPage();
    await page.goto(await signInLink(server, account));
    return page;
  };
  /**
   * The same link followed by the context's own request client, whose cookies are the browser
   * context's: what is under test is the cookie the server names and sets, and a page would only
   * add loading the whole app to it.
   */
  const signInWithoutPage = async (context: BrowserContext, server: TestServer, account: TestAccount) => {
    const response = await context.request.get(await signInLink(server, account), { maxRedirects: 0 });
    expect(response.status()).toBe(303);
  };
  const whoIs = async (context: BrowserContext, server: TestServer) => {
    const response = await context.request.get(`${server.url}/api/session`);
    return response.status() === 200 ? ((await response.json()) as { client_id: string }).client_id : null;
  };

  it('is one per data folder, so two installs on 127.0.0.1 keep their own sign-in and sign-out', async () => {
    const shopA = await first.createAccount({ business: 'First install' });
    const shopB = await second.createAccount({ business: 'Second install' });
    expect(sessionCookieName(first.dataDir)).not.toBe(sessionCookieName(second.dataDir));
    const context = await browser.newContext();
    try {
      await signInWithoutPage(context, first, shopA);
      const pageB = await signIn(context, second, shopB);
      const names = (await context.cookies()).map((cookie) => `${cookie.domain} ${cookie.name}`).sort();
      expect(names).toEqual(
        [
          `127.0.0.1 ${sessionCookieName(first.dataDir)}`,
          `127.0.0.1 ${sessionCookieName(second.dataDir)}`,
        ].sort(),
      );
      expect(await whoIs(context, first)).toBe(shopA.clientId);
      expect(await whoIs(context, second)).toBe(shopB.clientId);

      // Signing out the way the UI does, from the second install's own page.
      const signedOut = await pageB.evaluate(async () => {
        const response = await fetch('/api/session/sign-out', { method: 'POST' });
        return response.status;
      });
      expect(signedOut).toBe(204);
      expect(await whoIs(context, second)).toBeNull();
      expect(await whoIs(context, first)).toBe(shopA.clientId);
    } finally {
      await context.close();
    }
  });

  it('stays the same across a restart on the same folder', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'shopdesk-test-'));
    const context = await browser.newContext();
    let running: TestServer | undefined;
    try {
      running = await startTestServer({ dataDir });
      await signInWithoutPage(context, running, await running.createAccount());
      await running.stop();
      running = await startTestServer({ dataDir });
      expect((await context.request.get(`${running.url}/api/session`)).status()).toBe(200);
    } finally {
      await context.close();
      await running?.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
