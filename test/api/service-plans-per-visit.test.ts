import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../server/lib/clock';
import { expectOk, expectStatus, okBody } from '../helpers/api-responses';
import { startTestServer, type TestAccount, type TestServer } from '../helpers/server';
import { planVisits } from './service-plan-fixtures';

/** Service plans billed per visit (docs/recurring-work.md): an invoice per completed visit. */

const clock = manualClock('2026-11-23T15:00:00Z'); // Monday 23 Nov 2026, 10:00 in Toronto
let server: TestServer;
let shop: TestAccount;

beforeAll(async () => {
  server = await startTestServer({ clock });
  shop = await server.createAccount({ business: 'Green Thumb' });
});
afterAll(() => server.stop());

const visits = (planId: string, when?: string) => planVisits(shop, planId, when);

describe('per-visit billing', () => {
  it('completing a visit makes its invoice; "send" queues the e-mail and the invoice stays unsent until it goes', async () => {
    clock.set('2027-02-01T15:00:00Z');
    const created = await shop.portal('POST', '/service-plans/create', {
      body: {
        customer_email: 'bo@example.com',
        title: 'Pool service',
        frequency: 'monthly',
        month_day: -1,
        start_date: '2027-02-01',
        start_time: '08:00',
        end_time: '09:00',
        price: 120,
        billing: 'per_visit',
        invoice_delivery: 'send',
        horizon_weeks: 4,
      },
    });
    expectStatus(created, 201);
    expect(created.body.summary).toBe('Every month on the last day, 8:00–9:00');
    const [visit] = await visits(created.body.id);
    expect(visit).toMatchObject({ occurrence_date: '2027-02-28', scheduled_start: '2027-02-28T13:00:00Z' });
    clock.set('2027-02-28T15:00:00Z');
    const done = await shop.portal('POST', `/jobs/${visit!.id}/complete`);
    expectStatus(done, 200);
    const invoices = okBody(await shop.portal('GET', '/invoices?customer_email=bo@example.com')).data;
    expect(invoices).toHaveLength(1);
    expect(invoices[0]).toMatchObject({
      job_id: visit!.id,
      status: 'draft',
      sent_at: null,
      total: 120,
      items: [{ description: 'Pool service, 28 Feb 2027', unit_price: 120 }],
    });
    const mail = await server.ctx.db
      .selectFrom('mail_messages')
      .selectAll()
      .where('document_id', '=', invoices[0]!.id)
      .execute();
    expect(mail).toHaveLength(1);
    expect(mail[0]).toMatchObject({ kind: 'invoice', status: 'queued', to_address: 'bo@example.com' });
  });

  it('a draft-delivery plan drafts, and a job outside any plan bills nothing', async () => {
    const plan = await shop.portal('POST', '/service-plans/create', {
      body: {
        customer_email: 'cy@example.com',
        title: 'Window wash',
        frequency: 'daily',
        interval: 7,
        start_date: '2027-03-01',
        start_time: '07:00',
        end_time: '08:00',
        price: 40,
        billing: 'per_visit',
        count: 2,
      },
    });
    expectStatus(plan, 201);
    const [first] = await visits(plan.body.id);
    await shop.portal('POST', `/jobs/${first!.id}/complete`);
    const plain = expectOk(
      await shop.portal('POST', '/jobs/create', {
        body: { customer_email: 'cy@example.com', title: 'Extra' },
      }),
    );
    await shop.portal('POST', `/jobs/${plain.body.job_number}/complete`);
    const invoices = okBody(await shop.portal('GET', '/invoices?customer_email=cy@example.com')).data;
    expect(invoices).toHaveLength(1);
    expect(invoices[0]).toMatchObject({ status: 'draft', job_id: first!.id, total: 40 });
    expect(
      await server.ctx.db
        .selectFrom('mail_messages')
        .select('id')
        .where('document_id', '=', invoices[0]!.id)
        .execute(),
    ).toEqual([]);
    // count 2: the series stops after two visits however far the horizon reaches.
    expect((await visits(plan.body.id)).map((j) => j.occurrence_date)).toEqual(['2027-03-01', '2027-03-08']);
  });
});
