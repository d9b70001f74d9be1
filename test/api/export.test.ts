import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import yauzl from 'yauzl';
import { manualClock } from '../../server/lib/clock';
import { csvField } from '../../server/lib/csv';
import { newId } from '../../server/lib/ids';
import { expectStatus } from '../helpers/api-responses';
import { startTestServer, type TestAccount, type TestServer } from '../helpers/server';

let server: TestServer;
let shop: TestAccount;
let other: TestAccount;

/** Customers through the API; an invoice with lines, taxes and a payment, and a job, straight into the tables. */
async function seed() {
  await shop.portal('PUT', '/config', {
    body: { smtp: { host: 'smtp.example.com', port: 587, user: 'me', password: 'hunter2' } },
  });
  await shop.portal('POST', '/customers', {
    body: { name: 'Smith, "Bob"', email: 'bob@example.com', tags: ['vip', 'weekly'] },
  });
  await shop.portal('POST', '/customers/bob%40example.com/notes', { body: { text: 'Line one\nline two' } });
  await shop.portal('POST', '/customers', { body: { name: 'Ada', email: 'ada@example.com' } });
  await other.portal('POST', '/customers', { body: { name: 'Not mine', email: 'x@example.com' } });

  const db = server.ctx.db;
  const bob = await db
    .selectFrom('customers')
    .select('id')
    .where('email_lower', '=', 'bob@example.com')
    .executeTakeFirstOrThrow();
  const invoiceId = newId('inv');
  const at = '2026-11-10T12:00:00Z';
  await db
    .insertInto('invoices')
    .values({
      id: invoiceId,
      account_id: shop.clientId,
      number: 'INV-0001',
      customer_id: bob.id,
      status: 'partially_paid',
      currency: 'CAD',
      issue_date: '2026-11-10',
      due_date: '2026-12-10',
      subtotal_cents: 11_757,
      tax_total_cents: 588,
      total_cents: 12_345,
      amount_paid_cents: 2_345,
      notes: null,
      quote_id: null,
      job_id: null,
      sent_at: at,
      paid_at: null,
      voided_at: null,
      created_at: at,
      updated_at: at,
    })
    .execute();
  await db
    .insertInto('document_lines')
    .values([
      {
        document_id: invoiceId,
        position: 0,
        description: 'Deep clean',
        quantity: '1',
        unit_price: '100',
        amount_cents: 10_000,
      },
      {
        document_id: invoiceId,
        position: 1,
        description: 'Windows',
        quantity: '1.5',
        unit_price: '11.714',
        amount_cents: 1_757,
      },
    ])
    .execute();
  await db
    .insertInto('document_taxes')
    .values({ document_id: invoiceId, position: 0, name: 'GST', rate: '0.05', amount_cents: 588 })
    .execute();
  await db
    .insertInto('payments')
    .values({
      id: newId('pay'),
      account_id: shop.clientId,
      invoice_id: invoiceId,
      amount_cents: 2_345,
      method: 'card',
      paid_at: at,
      created_at: at,
    })
    .execute();
  const member = {
    id: newId('tm'),
    account_id: shop.clientId,
    name: 'Maria',
    created_at: at,
    role: 'crew' as const,
    can_see_prices: 0,
  };
  await db.insertInto('team_members').values(member).execute();
  const jobId = newId('job');
  await db
    .insertInto('jobs')
    .values({
      id: jobId,
      account_id: shop.clientId,
      number: 'J-0001',
      customer_id: bob.id,
      title: 'Deep clean',
      status: 'scheduled',
      scheduled_start: '2026-11-20T14:00:00Z',
      scheduled_end: '2026-11-20T16:00:00Z',
      address: null,
      price_cents: 10_000,
      notes: null,
      quote_id: null,
      booking_id: null,
      started_at: null,
      completed_at: null,
      cancelled_at: null,
      created_at: at,
      updated_at: at,
    })
    .execute();
  await db.insertInto('job_assignees').values({ job_id: jobId, member_id: member.id }).execute();
}

beforeAll(async () => {
  server = await startTestServer({ clock: manualClock('2026-11-15T15:00:00Z') });
  shop = await server.createAccount();
  other = await server.createAccount({ business: 'Other' });
  await seed();
});
afterAll(() => server.stop());

async function download(path: string) {
  const response = await fetch(`${server.url}/api/portal/${shop.clientId}${path}`, {
    headers: { authorization: `Bearer ${shop.portalKey}` },
  });
  return { response, body: Buffer.from(await response.arrayBuffer()) };
}

function unzip(buffer: Buffer): Promise<Map<string, string>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(buffer, { lazyEntries: true }, (error, zip) => {
      if (error || !zip) return reject(error);
      const files = new Map<string, string>();
      zip.on('entry', (entry: yauzl.Entry) => {
        zip.openReadStream(entry, (err, stream) => {
          if (err || !stream) return reject(err);
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('end', () => {
            files.set(entry.fileName, Buffer.concat(chunks).toString('utf8'));
            zip.readEntry();
          });
        });
      });
      zip.on('end', () => resolve(files));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

/** RFC 4180 reader: quoted fields may hold commas, doubled quotes and line breaks. */
function parseCsv(text: string): Array<Record<string, string>> {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else field += c;
  }
  const [header, ...body] = rows;
  return body.map((r) => Object.fromEntries(header!.map((name, i) => [name, r[i] ?? ''])));
}

describe('GET /export', () => {
  it('streams the whole account as one JSON document, as an attachment', async () => {
    const { response, body } = await download('/export');
    expectStatus(response, 200);
    expect(response.headers.get('content-type')).toContain('application/json');
    expect(response.headers.get('content-disposition')).toBe(
      'attachment; filename="shopdesk-export-2026-11-15.json"',
    );
    const data = JSON.parse(body.toString('utf8'));
    expect(Object.keys(data)).toEqual([
      'object',
      'format_version',
      'exported_at',
      'account',
      'customers',
      'team_members',
      'jobs',
      'bookings',
      'quotes',
      'invoices',
      'payments',
      'reviews',
      'mail_messages',
      'events',
      'service_plans',
      'properties',
    ]);
    expect(data.account).toMatchObject({ client_id: shop.clientId, business_name: 'Sparkle Cleaning' });
    expect(data.account.smtp).toMatchObject({ host: 'smtp.example.com', password_set: true });
    expect(body.toString('utf8')).not.toContain('hunter2');

    expect(data.customers.map((c: { email: string }) => c.email)).toEqual([
      'bob@example.com',
      'ada@example.com',
    ]);
    expect(data.customers[0]).toMatchObject({
      name: 'Smith, "Bob"',
      tags: ['vip', 'weekly'],
      notes: [{ text: 'Line one\nline two' }],
    });
    expect(data.customers[1]).toMatchObject({ tags: [], notes: [] });
    expect(data.invoices).toHaveLength(1);
    expect(data.invoices[0]).toMatchObject({
      number: 'INV-0001',
      total: 123.45,
      amount_paid: 23.45,
      items: [
        { description: 'Deep clean', quantity: 1, unit_price: 100, amount: 100 },
        { description: 'Windows', quantity: 1.5, unit_price: 11.714, amount: 17.57 },
      ],
      taxes: [{ name: 'GST', rate: 0.05, amount: 5.88 }],
    });
    expect(data.invoices[0]).not.toHaveProperty('total_cents');
    expect(data.payments).toEqual([expect.objectContaining({ amount: 23.45, method: 'card' })]);
    expect(data.jobs[0]).toMatchObject({ number: 'J-0001', assignees: ['Maria'], price: 100 });
    expect(data.team_members).toEqual([expect.objectContaining({ name: 'Maria' })]);
    expect(data.events.map((e: { type: string }) => e.type)).toEqual([
      'customer.created',
      'customer.created',
    ]);
    expect(data.events[0].payload.data.object.email).toBe('bob@example.com');
  });

  it('zips one RFC 4180 CSV file per resource with money in major units', async () => {
    const { response, body } = await download('/export?format=csv');
    expectStatus(response, 200);
    expect(response.headers.get('content-type')).toBe('application/zip');
    expect(response.headers.get('content-disposition')).toBe(
      'attachment; filename="shopdesk-export-2026-11-15.zip"',
    );
    const files = await unzip(body);
    expect([...files.keys()].sort()).toEqual(
      [
        'account.csv',
        'bookings.csv',
        'customer_notes.csv',
        'customers.csv',
        'document_lines.csv',
        'document_taxes.csv',
        'events.csv',
        'invoices.csv',
        'jobs.csv',
        'mail_messages.csv',
        'payments.csv',
        'quotes.csv',
        'reviews.csv',
        'service_plans.csv',
        'properties.csv',
        'team_members.csv',
      ].sort(),
    );
    const customers = parseCsv(files.get('customers.csv')!);
    expect(customers).toHaveLength(2);
    expect(customers[0]).toMatchObject({
      name: 'Smith, "Bob"',
      email: 'bob@example.com',
      tags: 'vip;weekly',
    });
    expect(files.get('customers.csv')).toContain('"Smith, ""Bob"""');
    expect(parseCsv(files.get('customer_notes.csv')!)[0]!.text).toBe('Line one\nline two');
    const invoices = parseCsv(files.get('invoices.csv')!);
    expect(invoices).toEqual([
      expect.objectContaining({ number: 'INV-0001', total: '123.45', amount_paid: '23.45' }),
    ]);
    expect(parseCsv(files.get('document_lines.csv')!)).toHaveLength(2);
    expect(parseCsv(files.get('document_taxes.csv')!)[0]).toMatchObject({ name: 'GST', amount: '5.88' });
    expect(parseCsv(files.get('jobs.csv')!)[0]).toMatchObject({ assignees: 'Maria', price: '100' });
    expect(parseCsv(files.get('bookings.csv')!)).toHaveLength(0);
    expect(files.get('bookings.csv')!.startsWith('id,account_id,customer_id,service')).toBe(true);
    const account = Object.fromEntries(parseCsv(files.get('account.csv')!).map((r) => [r.field, r.value]));
    expect(account.business_name).toBe('Sparkle Cleaning');
    expect(files.get('account.csv')).not.toContain('hunter2');
  });

  it('neutralises cells a spreadsheet would run as formulas (OWASP CSV injection)', async () => {
    const formulas = ['=HYPERLINK("http://evil.example","x")', '+1+1', '-2+3', '@SUM(A1)'];
    for (const text of formulas) {
      await shop.portal('POST', '/customers/ada%40example.com/notes', { body: { text } });
    }
    const files = await unzip((await download('/export?format=csv')).body);
    const texts = parseCsv(files.get('customer_notes.csv')!).map((row) => row.text);
    for (const text of formulas) expect(texts).toContain(`'${text}`);
    expect(parseCsv(files.get('invoices.csv')!)[0]).toMatchObject({ total: '123.45' });
    expect(csvField('\tcmd')).toBe("'\tcmd");
    expect(csvField('\rcmd')).toBe('"\'\rcmd"');
    expect(csvField(-12.5)).toBe('-12.5');
  });

  it('refuses an unknown format with 400 on param format', async () => {
    const res = await shop.portal('GET', '/export?format=xml');
    expectStatus(res, 400);
    expect(res.body.error).toMatchObject({ code: 'validation_failed', param: 'format' });
  });

  it('needs the key of the account', async () => {
    const res = await shop.portal('GET', '/export', { key: other.portalKey });
    expectStatus(res, 403);
  });
});
