import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../server/lib/clock';
import { expectStatus, okBody } from '../helpers/api-responses';
import { startTestServer, type TestAccount, type TestServer } from '../helpers/server';

/**
 * A hand-worked quarter (Q3 2026, Toronto), every figure worked out in cents by hand:
 *   A 07-10: 1 × 1,000.00, GST 5 % 50.00 + PST 7 % 70.00 = 1,120.00; paid 400.00 on 07-20 and 720.00 in Q4.
 *   B 08-15: 2 × 33.33 = 66.66 and 1 × 10.01; subtotal 76.67, GST 3.8335 → 3.83, PST 5.3669 → 5.37,
 *            tax 9.20 spread 8.00 (920 × 6666 / 7667 = 799.9 → 800) and 1.20; paid 85.87 on 09-01.
 *   C 09-30: 1 × 200.00, no tax.   D: a draft, E: a void invoice (neither counts).
 *   F 06-30 (Q2): 1 × 100.00 + GST 5.00, paid 105.00 on 07-02 (a Q3 payment).
 * Q3 invoices: sales 1,276.67, tax 129.20. Q3 payments: 400.00 + 85.87 + 105.00 = 590.87.
 */
const clock = manualClock('2026-10-10T15:00:00Z');
let server: TestServer;
let account: TestAccount;
const GST = { name: 'GST', rate: 0.05 };
const PST = { name: 'PST', rate: 0.07 };
const numbers: Record<string, string> = {};

async function invoice(
  issueDate: string,
  items: Array<{ description: string; quantity: number; unit_price: number }>,
  taxes: Array<{ name: string; rate: number }>,
  state: 'draft' | 'sent' | 'void' = 'sent',
) {
  const created = await account.portal('POST', '/invoices/create', {
    body: {
      customer_email: 'ada@example.com',
      customer_name: 'Ada Lovelace',
      issue_date: issueDate,
      items,
      taxes,
    },
  });
  expectStatus(created, 201);
  const number = created.body.number as string;
  if (state !== 'draft')
    expect((await account.portal('POST', `/invoices/${number}/mark-sent`)).status).toBe(200);
  if (state === 'void') expect((await account.portal('POST', `/invoices/${number}/void`)).status).toBe(200);
  return number;
}

async function pay(number: string, amount: number, paidAt: string) {
  const paid = await account.portal('POST', `/invoices/${number}/payment`, {
    body: { amount, paid_at: paidAt, method: 'card' },
  });
  expectStatus(paid, 200);
}

async function download(query: string) {
  const response = await account.portal(
    'GET',
    `/reports/accounting-export?from=2026-07-01&to=2026-09-30&${query}`,
  );
  expectStatus(response, 200);
  expect(response.headers.get('content-type')).toMatch(/^text\/csv/);
  return parse(response.text) as string[][];
}

const cents = (value: string) => Math.round(Number(value) * 100);
const sum = (rows: string[][], column: number) => rows.reduce((total, row) => total + cents(row[column]!), 0);

beforeAll(async () => {
  server = await startTestServer({ clock });
  account = await server.createAccount();
  await account.portal('PUT', '/config', { body: { timezone: 'America/Toronto' } });
  numbers.A = await invoice(
    '2026-07-10',
    [{ description: 'Deep clean', quantity: 1, unit_price: 1000 }],
    [GST, PST],
  );
  await pay(numbers.A, 400, '2026-07-20T15:00:00Z');
  await pay(numbers.A, 720, '2026-10-05T15:00:00Z');
  numbers.B = await invoice(
    '2026-08-15',
    [
      { description: 'Windows', quantity: 2, unit_price: 33.33 },
      { description: 'Supplies', quantity: 1, unit_price: 10.01 },
    ],
    [GST, PST],
  );
  await pay(numbers.B, 85.87, '2026-09-01T15:00:00Z');
  numbers.C = await invoice('2026-09-30', [{ description: 'Yard', quantity: 1, unit_price: 200 }], []);
  numbers.D = await invoice(
    '2026-08-01',
    [{ description: 'Draft', quantity: 1, unit_price: 500 }],
    [GST],
    'draft',
  );
  numbers.E = await invoice(
    '2026-08-02',
    [{ description: 'Void', quantity: 1, unit_price: 300 }],
    [GST],
    'void',
  );
  numbers.F = await invoice('2026-06-30', [{ description: 'June', quantity: 1, unit_price: 100 }], [GST]);
  await pay(numbers.F, 105, '2026-07-02T15:00:00Z');
});
afterAll(() => server.stop());

describe('export to the accountant', () => {
  it('ties out to the cent with the sales-tax report and the hand-worked quarter', async () => {
    const accrual = okBody(await account.portal('GET', '/reports/sales-tax?from=2026-07-01&to=2026-09-30'));
    const cash = okBody(
      await account.portal('GET', '/reports/sales-tax?from=2026-07-01&to=2026-09-30&basis=cash'),
    );
    expect(accrual.totals).toMatchObject({ sales: 1276.67, tax: 129.2 });
    expect(cash.totals.total).toBe(590.87);
    // Xero's file has no line amount: it is Quantity × UnitAmount, put in a column of its own here.
    const withAmount = (rows: string[][]) =>
      rows.map((row) => [...row, (Number(row[17]) * Number(row[18])).toFixed(2)]);
    for (const [format, amount, tax] of [
      ['quickbooks', 11, 13],
      ['xero', 29, 22],
      ['plain', 10, 11],
    ] as const) {
      const [, ...file] = await download(`format=${format}&records=invoices`);
      const lines = format === 'xero' ? withAmount(file) : file;
      expect(lines).toHaveLength(4);
      expect(sum(lines, amount)).toBe(127667);
      expect(sum(lines, tax)).toBe(12920);
      expect(sum(lines, amount)).toBe(cents(String(accrual.totals.sales)));
      expect(sum(lines, tax)).toBe(cents(String(accrual.totals.tax)));
    }
    for (const [format, amount] of [
      ['quickbooks', 2],
      ['xero', 1],
      ['plain', 6],
    ] as const) {
      const [, ...received] = await download(`format=${format}&records=payments`);
      expect(received).toHaveLength(3);
      expect(sum(received, amount)).toBe(59087);
      expect(sum(received, amount)).toBe(cents(String(cash.totals.total)));
    }
  });

  it("writes QuickBooks Online's invoice import columns, column by column", async () => {
    const [headers, ...rows] = await download('format=quickbooks&records=invoices');
    // QuickBooks Online's invoice import sample file (docs/import-export.md).
    expect(headers).toEqual([
      'InvoiceNo',
      'Customer',
      'InvoiceDate',
      'DueDate',
      'Terms',
      'Location',
      'Memo',
      'Item(Product/Service)',
      'ItemDescription',
      'ItemQuantity',
      'ItemRate',
      'ItemAmount',
      'ItemTaxCode',
      'ItemTaxAmount',
      'Currency',
      'Service Date',
    ]);
    const b = rows.filter((row) => row[0] === numbers.B);
    expect(b).toEqual([
      [
        numbers.B,
        'Ada Lovelace',
        '08/15/2026',
        '09/14/2026',
        '',
        '',
        '',
        'Services',
        'Windows',
        '2',
        '33.33',
        '66.66',
        'GST 5% + PST 7%',
        '8.00',
        'CAD',
        '',
      ],
      [
        numbers.B,
        'Ada Lovelace',
        '08/15/2026',
        '09/14/2026',
        '',
        '',
        '',
        'Services',
        'Supplies',
        '1',
        '10.01',
        '10.01',
        'GST 5% + PST 7%',
        '1.20',
        'CAD',
        '',
      ],
    ]);
    expect(rows.find((row) => row[0] === numbers.C)?.[12]).toBe('Exempt');
    const [payHeaders, first] = await download('format=quickbooks&records=payments');
    expect(payHeaders).toEqual(['Date', 'Description', 'Amount']);
    expect(first).toEqual(['07/02/2026', `Payment for ${numbers.F} (card), Ada Lovelace`, '105.00']);
  });

  it("writes Xero's sales invoice import columns, column by column", async () => {
    const [headers, ...rows] = await download('format=xero&records=invoices&account_code=4000');
    // Xero's sales invoice import template (docs/import-export.md).
    expect(headers).toEqual([
      '*ContactName',
      'EmailAddress',
      'POAddressLine1',
      'POAddressLine2',
      'POAddressLine3',
      'POAddressLine4',
      'POCity',
      'PORegion',
      'POPostalCode',
      'POCountry',
      '*InvoiceNumber',
      'Reference',
      '*InvoiceDate',
      '*DueDate',
      'Total',
      'InventoryItemCode',
      '*Description',
      '*Quantity',
      '*UnitAmount',
      'Discount',
      '*AccountCode',
      '*TaxType',
      'TaxAmount',
      'TrackingName1',
      'TrackingOption1',
      'TrackingName2',
      'TrackingOption2',
      'Currency',
      'BrandingTheme',
    ]);
    const a = rows.find((row) => row[10] === numbers.A)!;
    expect(a).toEqual([
      'Ada Lovelace',
      'ada@example.com',
      '',
      '',
      '',
      '',
      '',
      '',
      '',
      '',
      numbers.A,
      '',
      '10/07/2026',
      '09/08/2026',
      '',
      '',
      'Deep clean',
      '1',
      '1000',
      '',
      '4000',
      'GST 5% + PST 7%',
      '120.00',
      '',
      '',
      '',
      '',
      'CAD',
      '',
    ]);
    // Every required column is filled on every row.
    for (const row of rows) {
      headers!.forEach((header, i) => {
        if (header.startsWith('*')) expect(row[i], header).not.toBe('');
      });
    }
    const [payHeaders, ...received] = await download('format=xero&records=payments');
    expect(payHeaders).toEqual(['*Date', '*Amount', 'Payee', 'Description', 'Reference', 'Cheque Number']);
    expect(received[1]).toEqual([
      '20/07/2026',
      '400.00',
      'Ada Lovelace',
      `Payment for ${numbers.A} (card)`,
      numbers.A,
      '',
    ]);
  });

  it('is for the account: not a v1 key, another account or no one; a bad period is a 400', async () => {
    const other = await server.createAccount();
    const path = '/reports/accounting-export?from=2026-07-01&to=2026-09-30&format=plain&records=invoices';
    expect((await other.portal('GET', path, { key: account.portalKey })).status).toBe(403);
    expect((await account.portal('GET', path, { key: account.v1Key })).status).toBe(403);
    expect((await account.portal('GET', path, { key: null })).status).toBe(401);
    const backwards = await account.portal(
      'GET',
      '/reports/accounting-export?from=2026-09-30&to=2026-07-01&format=plain&records=invoices',
    );
    expectStatus(backwards, 400);
    const long = await account.portal(
      'GET',
      '/reports/accounting-export?from=2025-01-01&to=2026-09-30&format=xero&records=payments',
    );
    expectStatus(long, 400);
  });
});
