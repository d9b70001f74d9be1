import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueClientLink, revokeClientLink } from '../../server/domain/client-links';
import { contentSecurityPolicy } from '../../server/http/ui';
import { formToken } from '../../server/lib/client-token';
import { type HostedHub, startHostedHub } from '../../server/sync/hub/hosted';
import { migratePgHub } from '../../server/sync/hub/pg-schema';
import { pgHubStorage } from '../../server/sync/hub/pg-storage';
import { expectOk, expectStatus, okBody } from '../helpers/api-responses';
import { pngImage } from '../helpers/images';
import { embeddedImages, pdfPages } from '../helpers/pdf-text';
import { startPostgresForSuite } from '../helpers/postgres';
import { startTestServer, type TestAccount, type TestServer } from '../helpers/server';

/**
 * Who may call the client hub's routes (docs/client-hub.md, "Serving"), on a hosted hub on
 * PostgreSQL holding two businesses: only the holder of a valid link, for that one customer.
 */
const databaseUrl = startPostgresForSuite();
const pools: pg.Pool[] = [];
let office: TestServer;
let hosted: HostedHub;

interface Holder {
  account: TestAccount;
  token: string;
  linkId: string;
  quoteId: string;
  quoteNumber: string;
  name: string;
}

beforeAll(async () => {
  const officePool = new pg.Pool({ connectionString: databaseUrl(), max: 4 });
  const hubPool = new pg.Pool({ connectionString: databaseUrl(), max: 4 });
  pools.push(officePool, hubPool);
  await migratePgHub(officePool);
  office = await startTestServer({ hubStorage: pgHubStorage(officePool) });
  hosted = await startHostedHub({ pool: hubPool, port: 0 });
}, 120_000);

afterAll(async () => {
  await hosted?.close();
  await office?.stop();
  await Promise.all(pools.map((p) => p.end()));
});

async function holder(account: TestAccount, name: string, email: string): Promise<Holder> {
  const customer = expectOk(await account.portal('POST', '/customers', { body: { name, email } }));
  const quote = expectOk(
    await account.portal('POST', '/quotes/create', {
      body: {
        customer_id: customer.body.id,
        items: [{ description: `Work for ${name}`, quantity: 1, unit_price: 100 }],
      },
    }),
  );
  await account.portal('POST', `/quotes/${quote.body.number}/mark-sent`);
  const link = await office.ctx.db
    .transaction()
    .execute((tx) => issueClientLink(tx, office.ctx, account.clientId, customer.body.id));
  return {
    account,
    token: link.token,
    linkId: link.id,
    quoteId: quote.body.id,
    quoteNumber: quote.body.number,
    name,
  };
}

async function page(path: string, init: RequestInit = {}) {
  const response = await fetch(`${hosted.url}${path}`, { redirect: 'manual', ...init });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

function post(path: string, fields: Record<string, string>, origin: string | null = hosted.url) {
  return page(path, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      ...(origin ? { origin } : {}),
    },
    body: new URLSearchParams(fields).toString(),
  });
}

async function actionCount(accountId: string): Promise<number> {
  return (await hosted.hub.storage.readRows(accountId, 'client_actions', 'account_id', [accountId])).length;
}

describe('client hub: who may see and post what', () => {
  let maya: Holder;
  let omar: Holder;
  let other: Holder;

  beforeAll(async () => {
    const sparkle = await office.createAccount({ business: 'Sparkle Cleaning' });
    const shine = await office.createAccount({ business: 'Shine Windows' });
    for (const account of [sparkle, shine])
      expect((await account.portal('POST', '/sync/pair')).status).toBe(200);
    maya = await holder(sparkle, 'Maya Chen', 'maya@example.com');
    omar = await holder(sparkle, 'Omar Haddad', 'omar@example.com');
    other = await holder(shine, 'Lena Park', 'lena@example.com');
    for (const account of [sparkle, shine]) await office.ctx.sync!.syncNow(account.clientId);
  }, 120_000);

  it("shows a link's own customer only, with the strict CSP", async () => {
    const own = await page(`/c/${maya.token}`);
    expectStatus(own, 200);
    expect(own.text).toContain(maya.quoteNumber);
    expect(own.text).toContain('Maya Chen');
    expect(own.text).not.toContain('Omar');
    expect(own.text).not.toContain('Lena');
    expect(own.text).not.toContain('<script');
    expect(own.headers.get('content-security-policy')).toBe(contentSecurityPolicy("'self'"));
    expect(own.headers.get('x-content-type-options')).toBe('nosniff');
    expect(own.headers.get('cache-control')).toBe('no-store');
    // Another customer's quote, of this business or another, is not on this link.
    expect((await page(`/c/${maya.token}/quotes/${omar.quoteId}`)).status).toBe(404);
    expect((await page(`/c/${maya.token}/quotes/${other.quoteId}`)).status).toBe(404);
    const token = formToken(maya.linkId, await hashOf(maya));
    const stolen = await post(`/c/${maya.token}/quotes/${omar.quoteId}/approve`, {
      form_token: token,
      name: 'X',
    });
    expectStatus(stolen, 404);
    expect(await actionCount(maya.account.clientId)).toBe(0);
  });

  it('answers a wrong secret, an unknown link and a malformed one alike', async () => {
    const wrong = `${maya.linkId}.${'A'.repeat(43)}`;
    const pages = await Promise.all([
      page(`/c/${wrong}`),
      page(`/c/lnk_01kdz8y0000000000000000000.${'B'.repeat(43)}`),
      page('/c/nonsense'),
    ]);
    for (const p of pages) {
      expectStatus(p, 404);
      expect(p.text).toContain('This link no longer works');
      expect(p.text).not.toContain('Sparkle');
    }
  });

  it('refuses a form without its page token or from another origin (CSRF)', async () => {
    const quote = `/c/${maya.token}/quotes/${maya.quoteId}/approve`;
    const token = formToken(maya.linkId, await hashOf(maya));
    expect((await post(quote, { form_token: token, name: 'Maya' }, null)).status).toBe(403);
    expect((await post(quote, { form_token: token, name: 'Maya' }, 'https://evil.example')).status).toBe(403);
    expect((await post(quote, { form_token: 'forged', name: 'Maya' })).status).toBe(403);
    // A page token of another link (another business's) does not open this one.
    const foreign = formToken(other.linkId, await hashOf(other));
    expect((await post(quote, { form_token: foreign, name: 'Maya' })).status).toBe(403);
    expect(await actionCount(maya.account.clientId)).toBe(0);
    const empty = await post(quote, { form_token: token, name: '' });
    expectStatus(empty, 400);
    expect(await actionCount(maya.account.clientId)).toBe(0);
    const sent = await post(quote, { form_token: token, name: 'Maya Chen' });
    expectStatus(sent, 303);
    expect(await actionCount(maya.account.clientId)).toBe(1);
    // A second click records nothing more.
    expect((await post(quote, { form_token: token, name: 'Maya Chen' })).status).toBe(303);
    expect(await actionCount(maya.account.clientId)).toBe(1);
  });

  it('closes revoked and expired links; an expired one may ask for a new link, answered alike', async () => {
    await revokeClientLink(office.ctx, omar.account.clientId, omar.linkId);
    await office.ctx.db
      .updateTable('client_links')
      .set({ expires_at: '2020-01-01T00:00:00.000Z' })
      .where('id', '=', other.linkId)
      .execute();
    await office.ctx.sync!.syncNow(omar.account.clientId);
    await office.ctx.sync!.syncNow(other.account.clientId);
    expect((await page(`/c/${omar.token}`)).status).toBe(404);
    const expired = await page(`/c/${other.token}`);
    expectStatus(expired, 404);
    expect(expired.text).toContain('Send me a new link');

    const renewed = await post(`/c/${other.token}/renew`, { contact: 'lena@example.com' });
    const unknown = await post(`/c/lnk_01kdz8y0000000000000000000.${'B'.repeat(43)}/renew`, {
      contact: 'lena@example.com',
    });
    expectStatus(renewed, 200);
    expectStatus(unknown, 200);
    expect(renewed.text).toBe(unknown.text.replace(/lnk_01kdz8y0+\.B+/g, other.token));
    const held = await hosted.hub.storage.readRows(other.account.clientId, 'client_actions', 'kind', [
      'link.renew',
    ]);
    expect(held).toHaveLength(1);
    expect(await actionCount(omar.account.clientId)).toBe(1);
  });

  it('shows the logo and serves invoice PDFs from the rows it holds, for the link’s customer only', async () => {
    const sparkle = maya.account;
    const png = pngImage(48, 24);
    expect((await sparkle.portal('PUT', '/logo', { body: { data: png.toString('base64') } })).status).toBe(
      200,
    );
    const bookingPage = await sparkle.portal('PUT', '/booking-page', {
      body: {
        enabled: true,
        services: [{ name: 'Window cleaning', duration_minutes: 60, price: 90 }],
        hours: [{ weekday: 1, from: '08:00', to: '12:00' }],
      },
    });
    expectStatus(bookingPage, 200);
    const invoiceFor = async (h: Holder) => {
      const customer = okBody(await h.account.portal('GET', `/quotes/${h.quoteNumber}`)).customer;
      const created = expectOk(
        await h.account.portal('POST', '/invoices/create', {
          body: {
            customer_id: customer.id,
            items: [{ description: `Windows for ${h.name}`, quantity: 3, unit_price: 40 }],
            taxes: [{ name: 'GST', rate: 0.05 }],
          },
        }),
      );
      await h.account.portal('POST', `/invoices/${created.body.number}/mark-sent`);
      return created.body as { id: string; number: string };
    };
    const mine = await invoiceFor(maya);
    const omars = await invoiceFor(omar);
    const foreign = await invoiceFor(other);
    await sparkle.portal('POST', `/invoices/${mine.number}/payment`, { body: { amount: 26 } });
    for (const account of [sparkle, other.account]) await office.ctx.sync!.syncNow(account.clientId);

    const home = await page(`/c/${maya.token}`);
    const src = /<img class="logo" src="([^"]+)" alt="Sparkle Cleaning logo">/.exec(home.text)?.[1];
    expect(src).toMatch(new RegExp(`^/c/${maya.token}/logo/[0-9a-z]+$`));
    const logo = await fetch(`${hosted.url}${src}`);
    expectStatus(logo, 200);
    expect(logo.headers.get('content-type')).toBe('image/png');
    expect(logo.headers.get('cache-control')).toBe('private, max-age=31536000, immutable');
    expect(logo.headers.get('content-security-policy')).toBe(contentSecurityPolicy("'self'"));
    expect(Buffer.from(await logo.arrayBuffer()).equals(png)).toBe(true);
    expect((await page(`/c/${maya.token}/logo/0`)).status).toBe(404);
    expect((await page(`/c/${other.token}${src!.slice(src!.indexOf('/logo/'))}`)).status).toBe(404);

    const book = await page(`/book/${sparkle.clientId}`);
    const bookSrc = /<img class="logo" src="([^"]+)"/.exec(book.text)?.[1];
    expect(bookSrc).toBe(`/book/${sparkle.clientId}${src!.slice(src!.indexOf('/logo/'))}`);
    const bookLogo = await fetch(`${hosted.url}${bookSrc}`);
    expect(bookLogo.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(Buffer.from(await bookLogo.arrayBuffer()).equals(png)).toBe(true);

    // The hub's PDF is the install's: the same text, the same logo, from the rows it holds.
    const pdf = await fetch(`${hosted.url}/c/${maya.token}/invoices/${mine.id}/pdf`);
    expectStatus(pdf, 200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    const hubBytes = await pdf.arrayBuffer();
    const installPdf = await fetch(
      `${office.url}/api/portal/${sparkle.clientId}/invoices/${mine.number}/pdf`,
      {
        headers: { authorization: `Bearer ${sparkle.portalKey}` },
      },
    );
    const installBytes = await installPdf.arrayBuffer();
    const [hubText] = await pdfPages(hubBytes);
    expect(hubText).toContain(mine.number);
    expect(hubText).toContain('Windows for Maya Chen');
    expect(hubText).toMatch(/Balance due \$100\.00/);
    expect(await pdfPages(hubBytes)).toEqual(await pdfPages(installBytes));
    expect(embeddedImages(hubBytes)).toEqual(['48x24']);
    expect((await page(`/c/${maya.token}/invoices/${omars.id}/pdf`)).status).toBe(404);
    expect((await page(`/c/${maya.token}/invoices/${foreign.id}/pdf`)).status).toBe(404);

    expect((await sparkle.portal('DELETE', '/logo')).status).toBe(204);
    await office.ctx.sync!.syncNow(sparkle.clientId);
    expect((await page(`/c/${maya.token}`)).text).not.toContain('class="logo"');
    expect((await page(src!)).status).toBe(404);
  });

  it('limits requests per link', async () => {
    let last = 0;
    let retryAfter: string | null = null;
    for (let i = 0; i < 61; i++) {
      const response = await page(`/c/${omar.token}`);
      last = response.status;
      retryAfter = response.headers.get('retry-after');
    }
    expect(last).toBe(429);
    expect(Number(retryAfter)).toBeGreaterThan(0);
  });
});

async function hashOf(h: Holder): Promise<string> {
  const row = await office.ctx.db
    .selectFrom('client_links')
    .select('token_hash')
    .where('id', '=', h.linkId)
    .executeTakeFirstOrThrow();
  return row.token_hash;
}
