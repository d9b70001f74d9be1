import { mkdirSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueClientLink } from '../../server/domain/client-links';
import { manualClock } from '../../server/lib/clock';
import { expectOk, expectStatus, okBody } from '../helpers/api-responses';
import { JPEG_IMAGE, pngImage } from '../helpers/images';
import { embeddedImages, pdfPages } from '../helpers/pdf-text';
import { startTestServer, type TestAccount, type TestServer } from '../helpers/server';

let server: TestServer;
let shop: TestAccount;

async function fetchPdf(account: TestAccount, path: string) {
  const response = await fetch(`${server.url}/api/portal/${account.clientId}${path}`, {
    headers: { authorization: `Bearer ${account.portalKey}` },
  });
  return { response, bytes: await response.arrayBuffer() };
}

const invoiceBody = {
  customer_name: 'Łukasz Nowak',
  customer_email: 'lukasz@example.com',
  items: [
    { description: 'Furnace service', quantity: 1, unit_price: 189 },
    { description: 'Filter replacement', quantity: 2, unit_price: 24.5 },
  ],
  taxes: [
    { name: 'GST', rate: 0.05 },
    { name: 'QST', rate: 0.09975 },
  ],
  due_days: 30,
};

beforeAll(async () => {
  server = await startTestServer({ clock: manualClock('2026-11-22T15:00:00Z') });
  shop = await server.createAccount({ business: 'Warm Homes Heating' });
  await shop.portal('PUT', '/config', {
    body: { business_email: 'office@warmhomes.ca', business_phone: '514-555-0142' },
  });
});
afterAll(() => server.stop());

describe('GET /invoices/{number}/pdf', () => {
  it('serves a real invoice with its lines, taxes, payments and balance', async () => {
    const invoice = okBody(await shop.portal('POST', '/invoices/create', { body: invoiceBody }));
    await shop.portal('POST', `/invoices/${invoice.number}/payment`, {
      body: { amount: 100, method: 'Interac', paid_at: '2026-11-22T14:00:00Z' },
    });
    const { response, bytes } = await fetchPdf(shop, `/invoices/${invoice.number}/pdf`);
    expectStatus(response, 200);
    expect(response.headers.get('content-type')).toBe('application/pdf');
    expect(response.headers.get('content-disposition')).toBe('inline; filename="INV-0001.pdf"');
    expect(Buffer.from(bytes).subarray(0, 5).toString()).toBe('%PDF-');

    const [page] = await pdfPages(bytes);
    // Subtotal 238.00; GST 11.90; QST 23.7405 → 23.74; total 273.64; paid 100.00.
    for (const expected of [
      'Warm Homes Heating',
      'office@warmhomes.ca',
      'INVOICE',
      'INV-0001',
      'Łukasz Nowak',
      'lukasz@example.com',
      'Furnace service',
      'Filter replacement',
      'Subtotal $238.00',
      'GST (5%) $11.90',
      'QST (9.975%) $23.74',
      'Tax total $35.64',
      'Total $273.64',
      'Amount paid $100.00',
      'Balance due $173.64',
      'Nov 22, 2026 Interac $100.00',
      'Due date Dec 22, 2026',
    ]) {
      expect(page, expected).toContain(expected);
    }
    expect(page).not.toContain('PAID ');
  });

  it("prints the business's registration number of each tax the invoice charges", async () => {
    const registered = await server.createAccount({ business: 'Registered Heating' });
    const saved = await registered.portal('PUT', '/config', {
      body: {
        tax_registrations: [
          { tax_name: 'GST', number: '123456789 RT0001' },
          { tax_name: 'QST', number: '1234567890 TQ0001' },
          { tax_name: 'PST', number: 'PST-1234-5678' },
        ],
      },
    });
    expectStatus(saved, 200);
    const invoice = okBody(await registered.portal('POST', '/invoices/create', { body: invoiceBody }));
    const [page] = await pdfPages((await fetchPdf(registered, `/invoices/${invoice.number}/pdf`)).bytes);
    expect(page).toContain('GST reg. no. 123456789 RT0001');
    expect(page).toContain('QST reg. no. 1234567890 TQ0001');
    // PST is not on this invoice, so its number is not either.
    expect(page).not.toContain('PST-1234-5678');
    const repeated = await registered.portal('PUT', '/config', {
      body: {
        tax_registrations: [
          { tax_name: 'GST', number: '1' },
          { tax_name: 'gst', number: '2' },
        ],
      },
    });
    expectStatus(repeated, 400);
    expect(repeated.body.error).toMatchObject({ code: 'validation_failed', param: 'tax_registrations' });
  });

  it('stamps paid and void invoices', async () => {
    const paid = okBody(await shop.portal('POST', '/invoices/create', { body: invoiceBody }));
    await shop.portal('POST', `/invoices/${paid.number}/paid`);
    const [paidPage] = await pdfPages((await fetchPdf(shop, `/invoices/${paid.number}/pdf`)).bytes);
    expect(paidPage).toContain('PAID');
    expect(paidPage).toContain('Balance due $0.00');
    expect(paidPage).toContain('Paid in full');

    const voided = okBody(await shop.portal('POST', '/invoices/create', { body: invoiceBody }));
    await shop.portal('POST', `/invoices/${voided.number}/void`);
    const [voidPage] = await pdfPages((await fetchPdf(shop, `/invoices/${voided.number}/pdf`)).bytes);
    expect(voidPage).toContain('VOID');
    expect(voidPage).toContain('not payable');
  });

  it('formats money in the account locale and breaks long invoices into numbered pages', async () => {
    const quebec = await server.createAccount({ business: 'Plomberie Tremblay' });
    await quebec.portal('PUT', '/config', { body: { locale: 'fr-CA' } });
    const items = Array.from({ length: 45 }, (_, i) => ({
      description: `Pièce ${i + 1}`,
      quantity: 1,
      unit_price: 1234.5,
    }));
    const invoice = okBody(
      await quebec.portal('POST', '/invoices/create', {
        body: { customer_email: 'client@example.com', items, taxes: [] },
      }),
    );
    const pages = await pdfPages((await fetchPdf(quebec, `/invoices/${invoice.number}/pdf`)).bytes);
    expect(pages.length).toBeGreaterThan(1);
    expect(pages.at(-1)).toContain(`Page ${pages.length} of ${pages.length}`);
    const all = pages.join(' ');
    expect(all).toContain('Pièce 45');
    expect(all).toMatch(/1\s234,50\s\$/);
    expect(all).toMatch(/55\s552,50\s\$/);
  });

  it('prints names and lines in Vietnamese, Polish and Greek as written, not approximated', async () => {
    const created = expectOk(
      await shop.portal('POST', '/invoices/create', {
        body: {
          customer_name: 'Nguyễn Thị Hương',
          customer_email: 'huong@example.com',
          items: [{ description: 'Vệ sinh — Σοφία’s flat, Łódź', quantity: 1, unit_price: 80 }],
          taxes: [],
        },
      }),
    );
    const { bytes } = await fetchPdf(shop, `/invoices/${created.body.number}/pdf`);
    const [page] = await pdfPages(bytes);
    expect(page).toContain('Nguyễn Thị Hương');
    expect(page).toContain('Vệ sinh — Σοφία’s flat, Łódź');
  });

  it('prints Chinese, Japanese and Korean names and lines, and stays small', async () => {
    const created = expectOk(
      await shop.portal('POST', '/invoices/create', {
        body: {
          customer_name: '王小明',
          customer_email: 'wang@example.com',
          items: [
            { description: 'Deep clean for 山田 花子 (ひらがな, カタカナ)', quantity: 1, unit_price: 80 },
            { description: '김민준 office, 陳大文 flat', quantity: 2, unit_price: 45 },
          ],
          notes: '谢谢 · 감사합니다 · ありがとう',
          taxes: [],
        },
      }),
    );
    const { bytes } = await fetchPdf(shop, `/invoices/${created.body.number}/pdf`);
    // pdf.js takes the bytes over (detaches them): keep a copy for the size and the artifact.
    const file = Buffer.from(bytes.slice(0));
    const [page] = await pdfPages(bytes);
    for (const expected of [
      '王小明',
      '山田 花子',
      'ひらがな',
      'カタカナ',
      '김민준',
      '陳大文',
      '谢谢',
      '감사합니다',
      'ありがとう',
    ]) {
      expect(page, expected).toContain(expected);
    }
    expect(page).toContain('Deep clean for');
    mkdirSync('test-artifacts', { recursive: true });
    writeFileSync('test-artifacts/invoice-cjk.pdf', file);
    // Only the glyphs used are embedded: the CJK fonts are megabytes, the document is not.
    expect(file.byteLength).toBeLessThan(200_000);
  });

  it('answers 404 for an unknown invoice', async () => {
    const missing = await shop.portal('GET', '/invoices/INV-4040/pdf');
    expectStatus(missing, 404);
    expect(missing.body.error.code).toBe('not_found');
  });
});

describe('GET /quotes/{number}/pdf', () => {
  it('serves the quote with its validity and totals', async () => {
    const { due_days: _d, ...rest } = invoiceBody;
    const quote = okBody(await shop.portal('POST', '/quotes/create', { body: { ...rest, valid_days: 20 } }));
    const { response, bytes } = await fetchPdf(shop, `/quotes/${quote.number}/pdf`);
    expect(response.headers.get('content-disposition')).toBe(`inline; filename="${quote.number}.pdf"`);
    const [page] = await pdfPages(bytes);
    for (const expected of [
      'QUOTE',
      quote.number,
      'Łukasz Nowak',
      'Valid until Dec 12, 2026',
      'GST (5%) $11.90',
      'QST (9.975%) $23.74',
      'Total $273.64',
    ]) {
      expect(page, expected).toContain(expected);
    }
    expect(page).not.toContain('Balance due');
  });

  it("prints who approved it on the client hub, when and from where; not the owner's acceptance", async () => {
    const hub = await server.createAccount({ business: 'Coastal Cleaning' });
    await hub.portal('PUT', '/config', {
      body: { client_hub_url: server.url, serve_client_hub: true, timezone: 'America/Halifax' },
    });
    const { due_days: _d, ...rest } = invoiceBody;
    const create = async () => {
      const quote = okBody(await hub.portal('POST', '/quotes/create', { body: rest }));
      await hub.portal('POST', `/quotes/${quote.number}/mark-sent`);
      return quote;
    };
    const approved = await create();
    const link = await server.ctx.db
      .transaction()
      .execute((tx) => issueClientLink(tx, server.ctx, hub.clientId, approved.customer.id));
    const quotePage = `${server.url}/c/${link.token}/quotes/${approved.id}`;
    const form = await (await fetch(quotePage)).text();
    const token = /name="form_token" value="([^"]+)"/.exec(form)![1]!;
    const posted = await fetch(`${quotePage}/approve`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.url },
      body: new URLSearchParams({ form_token: token, name: 'Łukasz Nowak' }).toString(),
    });
    expectStatus(posted, 303);
    expect(okBody(await hub.portal('GET', `/quotes/${approved.number}`)).status).toBe('accepted');
    const [page] = await pdfPages((await fetchPdf(hub, `/quotes/${approved.number}/pdf`)).bytes);
    expect(page).toContain('ACCEPTED');
    // 15:00 UTC is 11:00 in Halifax, the business's zone (locale en-CA).
    expect(page).toMatch(/Approved by Łukasz Nowak on Nov 22, 2026, 11:00 a\.m\. \(from 127\.0\.0\.1\)\./);
    // The owner's quote page shows the same record.
    const record = expectOk(await hub.portal('GET', `/quotes/${approved.number}/approval`));
    expect(record.body).toEqual({
      approval: { name: 'Łukasz Nowak', at: '2026-11-22T15:00:00.000Z', ip: '127.0.0.1' },
    });
    expect((await hub.portal('GET', `/quotes/${approved.number}/approval`, { key: hub.v1Key })).status).toBe(
      403,
    );
    expect((await hub.portal('GET', `/quotes/${approved.number}/approval`, { key: null })).status).toBe(401);

    const byOwner = await create();
    expect((await hub.portal('POST', `/quotes/${byOwner.number}/accept`)).status).toBe(200);
    const [ownerPage] = await pdfPages((await fetchPdf(hub, `/quotes/${byOwner.number}/pdf`)).bytes);
    expect(ownerPage).toContain('ACCEPTED');
    expect(ownerPage).not.toContain('Approved by');
    expect(okBody(await hub.portal('GET', `/quotes/${byOwner.number}/approval`))).toEqual({ approval: null });
  });
});

describe('the business logo on PDFs', () => {
  it('embeds the logo in invoices and quotes, and leaves it out once removed', async () => {
    const shopWithLogo = await server.createAccount({ business: 'Logo Landscaping' });
    const invoice = okBody(await shopWithLogo.portal('POST', '/invoices/create', { body: invoiceBody }));
    const quote = okBody(
      await shopWithLogo.portal('POST', '/quotes/create', {
        body: { customer_id: invoice.customer.id, items: invoiceBody.items },
      }),
    );
    const pdfs = async () => [
      (await fetchPdf(shopWithLogo, `/invoices/${invoice.number}/pdf`)).bytes,
      (await fetchPdf(shopWithLogo, `/quotes/${quote.number}/pdf`)).bytes,
    ];
    for (const bytes of await pdfs()) expect(embeddedImages(bytes)).toEqual([]);

    const png = await shopWithLogo.portal('PUT', '/logo', {
      body: { data: pngImage(64, 32).toString('base64') },
    });
    expectStatus(png, 200);
    for (const bytes of await pdfs()) {
      expect(embeddedImages(bytes)).toEqual(['64x32']);
      const [page] = await pdfPages(bytes);
      expect(page).toContain('Logo Landscaping');
    }
    await shopWithLogo.portal('PUT', '/logo', { body: { data: JPEG_IMAGE.toString('base64') } });
    for (const bytes of await pdfs()) expect(embeddedImages(bytes)).toEqual(['24x12']);

    expect((await shopWithLogo.portal('DELETE', '/logo')).status).toBe(204);
    for (const bytes of await pdfs()) expect(embeddedImages(bytes)).toEqual([]);
  });
});
