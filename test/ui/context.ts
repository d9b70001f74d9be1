import type { Browser, Page } from 'playwright-core';
import { expect } from 'vitest';
import type { TestAccount, TestServer } from '../helpers/server';

/**
 * What every UI flow shares: one server, one browser and one signed-in page (portal-session.ts).
 * Each flow module runs from a test file of its own (documents.test.ts, pdf.test.ts, …).
 */
export interface UiContext {
  server: TestServer;
  browser: Browser;
  shop: TestAccount;
  page: Page;
}

export const money = (amount: number) =>
  new Intl.NumberFormat('en-CA', { style: 'currency', currency: 'CAD' }).format(amount);

/**
 * The portal API through the page's own session cookie, as the UI calls it. Checks go this way
 * rather than through the portal key, whose 100 requests a minute the seeding already spends.
 */
export async function portalCall<T = unknown>(
  ui: UiContext,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: T; contentType: string }> {
  const response = await ui.page.request.fetch(`${ui.server.url}/api/portal/${ui.shop.clientId}${path}`, {
    method,
    ...(body === undefined ? {} : { data: body, headers: { 'content-type': 'application/json' } }),
  });
  const contentType = response.headers()['content-type'] ?? '';
  const parsed = contentType.includes('json') ? await response.json() : await response.body();
  return { status: response.status(), body: parsed as T, contentType };
}

/** A call that must succeed (setup steps and the server's side of a check). */
export async function portalOk<T = unknown>(
  ui: UiContext,
  method: string,
  path: string,
  body?: unknown,
): Promise<T> {
  const response = await portalCall<T>(ui, method, path, body);
  expect(response.status, `${method} ${path}: ${JSON.stringify(response.body)}`).toBeLessThan(300);
  return response.body;
}
