import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../server/lib/clock';
import { expectStatus, okBody } from '../helpers/api-responses';
import { startTestServer, type TestAccount, type TestServer } from '../helpers/server';

/**
 * A hand-worked quarter (Q3 2026, Toronto) with GST 5 %, PST 7 %, HST 13 % and QST 9.975 %, partial
 * payments across quarters, an untaxed sale, a draft and a void invoice. Every expected figure below
 * was worked out by hand in cents (docs/reminders-and-tax.md, "A worked example").
 */

const clock = manualClock('2026-10-10T15:00:00Z');
let server: TestServer;
let account: TestAccount;
const GST = { name: 'GST', rate: 0.05 };
const PST = { name: 'PST', rate: 0.07 };

async function invoice(
  issueDate: string,
  items: Array<{ quantity: number; unit_price: number }>,
  taxes: Array<{ name: string; rate: number }>,
  state: 'draft' | 'sent' | 'void' = 'sent',
): Promise<string> {
  const created = await account.portal('POST', '/invoices/create', {
    body: {
      customer_email: 'ada@example.com',
      customer_name: 'Ada Lovelace',
      issue_date: issueDate,
      items: items.map((item) => ({ description: 'Cleaning', ...item })),
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
  return paid.body;
}

async function report(query: string) {
  const response = await account.portal('GET', `/reports/sales-tax?${query}`);
  expectStatus(response, 200);
  return response.body;
}

const Q3 = 'from=2026-07-01&to=2026-09-30';
let numbers: Record<string, string>;

beforeAll(async () => {
  server = await startTestServer({ clock });
  account = await server.createAccount();
  expect(
    (
      await account.portal('PUT', '/config', {
        body: {
          timezone: 'America/Toronto',
          tax_registrations: [
            { tax_name: 'GST', number: '123456789 RT0001' },
            { tax_name: 'QST', number: '=1234567890 TQ0001' },
          ],
        },
      })
    ).status,
  ).toBe(200);
  // A: 1,000.00 + GST 50.00 + PST 70.00 = 1,120.00; 400.00 in Q3, 720.00 in Q4.
  const a = await invoice('2026-07-10', [{ quantity: 1, unit_price: 1000 }], [GST, PST]);
  await pay(a, 400, '2026-07-20T15:00:00Z');
  await pay(a, 720, '2026-10-05T15:00:00Z');
  // B: 3 × 33.33 = 99.99; GST 4.9995 → 5.00, PST 6.9993 → 7.00; 111.99 paid 50.00 + 61.99.
  const b = await invoice('2026-08-15', [{ quantity: 3, unit_price: 33.33 }], [GST, PST]);
  await pay(b, 50, '2026-08-20T15:00:00Z');
  await pay(b, 61.99, '2026-09-01T15:00:00Z');
  // C: 200.00 + HST 26.00, unpaid, issued on the quarter's last day.
  const c = await invoice('2026-09-30', [{ quantity: 1, unit_price: 200 }], [{ name: 'HST', rate: 0.13 }]);
  // D: issued in Q2 (500.00 + GST 25.00 + PST 35.00), paid in full in Q3.
  const d = await invoice('2026-06-28', [{ quantity: 1, unit_price: 500 }], [GST, PST]);
  await pay(d, 560, '2026-07-02T15:00:00Z');
  // E: 80.00 with no tax, paid at 23:30 on 30 September in Toronto (already 1 October in UTC).
  const e = await invoice('2026-08-01', [{ quantity: 1, unit_price: 80 }], []);
  await pay(e, 80, '2026-10-01T03:30:00Z');
  // H: 150.00 + QST 14.9625 → 14.96 + GST 7.50 = 172.46, 100.00 paid.
  const h = await invoice(
    '2026-09-12',
    [{ quantity: 1, unit_price: 150 }],
    [{ name: 'QST', rate: 0.09975 }, GST],
  );
  await pay(h, 100, '2026-09-15T15:00:00Z');
  // Neither a draft nor a void invoice is a sale.
  await invoice('2026-08-03', [{ quantity: 1, unit_price: 999 }], [GST, PST], 'draft');
  await invoice('2026-08-04', [{ quantity: 1, unit_price: 777 }], [GST, PST], 'void');
  numbers = { a, b, c, d, e, h };
});
afterAll(() => server.stop());

describe('sales-tax report', () => {
  it('accrual: invoices issued in the quarter, each tax by rate, tying out with the invoices to the cent', async () => {
    const body = await report(`${Q3}&basis=accrual`);
    expect(body).toMatchObject({
      object: 'sales_tax_report',
      currency: 'CAD',
      basis: 'accrual',
      from: '2026-07-01',
    });
    expect(body.taxes).toEqual([
      {
        name: 'GST',
        rate: 0.05,
        registration_number: '123456789 RT0001',
        taxable_sales: 1249.99,
        tax: 62.5,
        invoices: 3,
      },
      { name: 'HST', rate: 0.13, registration_number: null, taxable_sales: 200, tax: 26, invoices: 1 },
      { name: 'PST', rate: 0.07, registration_number: null, taxable_sales: 1099.99, tax: 77, invoices: 2 },
      {
        name: 'QST',
        rate: 0.09975,
        registration_number: '=1234567890 TQ0001',
        taxable_sales: 150,
        tax: 14.96,
        invoices: 1,
      },
    ]);
    expect(body.totals).toEqual({
      sales: 1529.99,
      untaxed_sales: 80,
      tax: 180.46,
      total: 1710.45,
      invoices: 5,
      payments: 0,
    });
    // The tie-out: the same five invoices, as their own API shows them.
    const totals = await Promise.all(
      [numbers.a, numbers.b, numbers.c, numbers.e, numbers.h].map(async (n) =>
        okBody(await account.portal('GET', `/invoices/${n}`)),
      ),
    );
    const cents = (field: 'subtotal' | 'tax_total' | 'total') =>
      totals.reduce((sum, i) => sum + Math.round(i[field] * 100), 0);
    expect(cents('subtotal')).toBe(152999);
    expect(cents('tax_total')).toBe(18046);
    expect(cents('total')).toBe(171045);
  });

  it('cash: payments received in the quarter carry their share of each tax', async () => {
    const body = await report(`${Q3}&basis=cash`);
    expect(body.taxes).toEqual([
      // A 35,714 / 17.86 + B 99.99 / 5.00 + D 500.00 / 25.00 + H 86.98 / 4.35
      {
        name: 'GST',
        rate: 0.05,
        registration_number: '123456789 RT0001',
        taxable_sales: 1044.11,
        tax: 52.21,
        invoices: 4,
      },
      // A 357.14 / 25.00 + B 99.99 / 7.00 + D 500.00 / 35.00
      { name: 'PST', rate: 0.07, registration_number: null, taxable_sales: 957.13, tax: 67, invoices: 3 },
      {
        name: 'QST',
        rate: 0.09975,
        registration_number: '=1234567890 TQ0001',
        taxable_sales: 86.98,
        tax: 8.67,
        invoices: 1,
      },
    ]);
    expect(body.totals).toEqual({
      sales: 1124.11,
      untaxed_sales: 80,
      tax: 127.88,
      total: 1251.99,
      invoices: 5,
      payments: 6,
    });
    // Every payment received in the quarter is in the total, to the cent.
    expect(400 + 50 + 61.99 + 560 + 80 + 100).toBeCloseTo(body.totals.total, 10);
  });

  it("cash: an invoice's payments across quarters add up to its tax exactly", async () => {
    const q4 = await report('from=2026-10-01&to=2026-12-31&basis=cash');
    // A's second payment: GST 50.00 − 17.86, PST 70.00 − 25.00; the rest of 1,000.00 in sales.
    expect(q4.taxes).toEqual([
      {
        name: 'GST',
        rate: 0.05,
        registration_number: '123456789 RT0001',
        taxable_sales: 642.86,
        tax: 32.14,
        invoices: 1,
      },
      { name: 'PST', rate: 0.07, registration_number: null, taxable_sales: 642.86, tax: 45, invoices: 1 },
    ]);
    expect(q4.totals).toMatchObject({ sales: 642.86, tax: 77.14, total: 720, payments: 1 });
  });

  it('defaults to this quarter, and downloads the same table as CSV', async () => {
    const fallback = await report('basis=accrual');
    expect(fallback).toMatchObject({ from: '2026-10-01', to: '2026-12-31' });

    const csv = await account.portal('GET', `/reports/sales-tax?${Q3}&basis=accrual&format=csv`);
    expectStatus(csv, 200);
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(csv.headers.get('content-disposition')).toContain(
      'sales-tax-2026-07-01-to-2026-09-30-accrual.csv',
    );
    expect(csv.text.split('\r\n')).toEqual([
      'tax,rate_percent,registration_number,taxable_sales,tax,invoices,currency',
      'GST,5,123456789 RT0001,1249.99,62.50,3,CAD',
      'HST,13,,200.00,26.00,1,CAD',
      'PST,7,,1099.99,77.00,2,CAD',
      // A registration number that starts like a formula opens as text in a spreadsheet.
      "QST,9.975,'=1234567890 TQ0001,150.00,14.96,1,CAD",
      'Untaxed sales,,,80.00,0.00,,CAD',
      'Total,,,1529.99,180.46,5,CAD',
      '',
      // The accountant's detail: each invoice issued in the quarter, adding up to the totals above.
      'invoice,issue_date,customer,sales_before_tax,GST 5%,HST 13%,PST 7%,QST 9.975%,total,currency',
      `${numbers.a},2026-07-10,Ada Lovelace,1000.00,50.00,0.00,70.00,0.00,1120.00,CAD`,
      `${numbers.e},2026-08-01,Ada Lovelace,80.00,0.00,0.00,0.00,0.00,80.00,CAD`,
      `${numbers.b},2026-08-15,Ada Lovelace,99.99,5.00,0.00,7.00,0.00,111.99,CAD`,
      `${numbers.h},2026-09-12,Ada Lovelace,150.00,7.50,0.00,0.00,14.96,172.46,CAD`,
      `${numbers.c},2026-09-30,Ada Lovelace,200.00,0.00,26.00,0.00,0.00,226.00,CAD`,
      '',
    ]);
  });

  it("cash CSV: one detail row per payment received, in the business's days, adding up to the totals", async () => {
    const csv = await account.portal('GET', `/reports/sales-tax?${Q3}&basis=cash&format=csv`);
    expectStatus(csv, 200);
    const lines = csv.text.split('\r\n');
    const header = lines.indexOf(
      'invoice,paid_on,customer,sales_before_tax,GST 5%,PST 7%,QST 9.975%,received,currency',
    );
    expect(header).toBeGreaterThan(0);
    expect(lines[header - 1]).toBe('');
    expect(lines.slice(header + 1)).toEqual([
      // D paid in full: all of its sales and tax.
      `${numbers.d},2026-07-02,Ada Lovelace,500.00,25.00,35.00,0.00,560.00,CAD`,
      // A's first 400.00 of 1,120.00: GST 17.86, PST 25.00 (shareOf, rounded half away from zero).
      `${numbers.a},2026-07-20,Ada Lovelace,357.14,17.86,25.00,0.00,400.00,CAD`,
      `${numbers.b},2026-08-20,Ada Lovelace,44.64,2.23,3.13,0.00,50.00,CAD`,
      `${numbers.b},2026-09-01,Ada Lovelace,55.35,2.77,3.87,0.00,61.99,CAD`,
      `${numbers.h},2026-09-15,Ada Lovelace,86.98,4.35,0.00,8.67,100.00,CAD`,
      // 03:30 UTC on 1 October is 23:30 on 30 September in Toronto.
      `${numbers.e},2026-09-30,Ada Lovelace,80.00,0.00,0.00,0.00,80.00,CAD`,
      '',
    ]);
    const cents = (column: number) =>
      lines
        .slice(header + 1, -1)
        .reduce((sum, line) => sum + Math.round(Number(line.split(',')[column]) * 100), 0);
    expect([cents(3), cents(4) + cents(5) + cents(6), cents(7)]).toEqual([112411, 12788, 125199]);
  });

  it('is on v1 too, and refuses a period that runs backwards', async () => {
    const v1 = await account.v1('GET', `/reports/sales-tax?${Q3}&basis=cash`);
    expectStatus(v1, 200);
    expect(v1.body.totals.tax).toBe(127.88);
    const backwards = await account.portal('GET', '/reports/sales-tax?from=2026-09-30&to=2026-07-01');
    expectStatus(backwards, 400);
    expect(backwards.body.error).toMatchObject({ code: 'validation_failed', param: 'to' });
  });
});
