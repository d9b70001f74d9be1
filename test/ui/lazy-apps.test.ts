import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server';

/**
 * The portal's and v1's routes live in apps built on first need (server/http/lazy-app.ts): a start
 * registers neither, the UI's page builds the portal's, and requests arriving meanwhile wait for
 * the build instead of meeting a 404. In the ui project: the page is the built renderer.
 */
const portalRoute = (server: TestServer) =>
  server.app.routeTable.some((route) => route.url.startsWith('/api/portal/:client_id/'));
const v1Route = (server: TestServer) =>
  server.app.routeTable.some((route) => route.url.startsWith('/api/v1/'));

describe('apps built on first need', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.stop());

  it('registers neither API at start; concurrent first v1 calls all wait for it', async () => {
    expect(portalRoute(server)).toBe(false);
    expect(v1Route(server)).toBe(false);
    const shop = await server.createAccount();
    const answers = await Promise.all(Array.from({ length: 5 }, () => shop.v1('GET', '/clients')));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200]);
    expect(v1Route(server)).toBe(true);
    expect(portalRoute(server)).toBe(false);
  });

  it("builds the portal's app once the UI's page has gone out, before the UI calls it", async () => {
    const page = await fetch(new URL('/', server.url));
    expect(page.status).toBe(200);
    await page.text();
    await expect.poll(() => portalRoute(server), { timeout: 20_000 }).toBe(true);
  });
});
