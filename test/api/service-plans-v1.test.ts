import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { updateConfig } from '../../server/domain/accounts';
import { manualClock } from '../../server/lib/clock';
import { expectError, expectOk, expectStatus, type OpenApiDocument, okBody } from '../helpers/api-responses';
import { startTestServer, type TestAccount, type TestServer } from '../helpers/server';
import { every2ndTuesday, planVisits } from './service-plan-fixtures';

/**
 * Service plans at their edges: rules refused by field, a plan deleted with its untouched visits, a
 * synced device leaving horizons to its hub, and the v1 routes.
 */

const clock = manualClock('2027-02-28T15:00:00Z'); // Sunday 28 Feb 2027, 10:00 in Toronto
let server: TestServer;
let shop: TestAccount;

beforeAll(async () => {
  server = await startTestServer({ clock });
  shop = await server.createAccount({ business: 'Green Thumb' });
});
afterAll(() => server.stop());

const visits = (planId: string, when?: string) => planVisits(shop, planId, when);

describe('validation and other ends', () => {
  it('refuses rules that cannot work, naming the field', async () => {
    const bad = async (over: Record<string, unknown>, param: string) => {
      const response = expectError(
        await shop.portal('POST', '/service-plans/create', {
          body: { ...every2ndTuesday, ...over },
        }),
      );
      expect(response.status, JSON.stringify(over)).toBe(400);
      const details = response.body.error.details as Array<{ param: string }> | undefined;
      expect(response.body.error.param ?? details?.[0]?.param).toBe(param);
    };
    await bad({ end_time: '08:00' }, 'end_time');
    await bad({ count: 5 }, 'count');
    await bad({ frequency: 'monthly' }, 'weekdays');
    await bad({ price: null }, 'price');
    await bad({ month_day: 32, frequency: 'monthly', weekdays: [] }, 'month_day');
    await bad({ start_time: '9am' }, 'start_time');
  });

  it('deletes a plan made by mistake together with its untouched visits', async () => {
    const plan = expectOk(
      await shop.portal('POST', '/service-plans/create', {
        body: {
          ...every2ndTuesday,
          customer_email: 'di@example.com',
          start_date: '2027-04-06',
          until: null,
          billing: 'none',
        },
      }),
    );
    expect((await visits(plan.body.id)).length).toBeGreaterThan(0);
    const deleted = expectOk(await shop.portal('DELETE', `/service-plans/${plan.body.id}`));
    expect(deleted.body).toEqual({ id: plan.body.id, object: 'service_plan', deleted: true });
    expect(
      await server.ctx.db.selectFrom('jobs').select('id').where('plan_id', '=', plan.body.id).execute(),
    ).toEqual([]);
  });

  it('a device of a synced business leaves horizons to its hub', async () => {
    await server.ctx.db
      .insertInto('sync_settings')
      .values({
        account_id: shop.clientId,
        role: 'device',
        hub_url: 'https://hub.invalid',
        hub_fingerprint: null,
        device_id: 'dev_x',
        device_code: 'X',
        credential: null,
        cursor: 0,
        last_synced_at: null,
        last_attempt_at: null,
        last_error: null,
        created_at: '2027-03-01T00:00:00Z',
      })
      .execute();
    clock.set('2027-06-01T15:00:00Z');
    const report = await server.recurring.runNow();
    expect(report).toMatchObject({ plans: 0, visits_created: 0, invoices_created: 0 });
    await server.ctx.db.deleteFrom('sync_settings').where('account_id', '=', shop.clientId).execute();
  });
});

describe('v1 service plans', () => {
  it('creates by client_id, lists, reads, previews and lists visits; all in OpenAPI', async () => {
    const other = await server.createAccount({ business: 'Other' });
    await updateConfig(server.ctx, other.clientId, { timezone: 'Europe/London' });
    const client = await other.v1('POST', '/clients', { body: { email: 'zed@example.com', name: 'Zed' } });
    expectStatus(client, 201);
    const created = await other.v1('POST', '/service-plans', {
      body: {
        client_id: client.body.id,
        title: 'Office clean',
        frequency: 'weekly',
        weekdays: ['MO', 'TH'],
        start_date: '2027-06-03',
        start_time: '18:00',
        end_time: '20:00',
        horizon_weeks: 1,
      },
    });
    expectStatus(created, 201);
    expect(created.body).toMatchObject({
      time_zone: 'Europe/London',
      customer: { email: 'zed@example.com' },
    });
    const list = expectOk(await other.v1('GET', '/service-plans'));
    expect(list.body.data.map((p: { id: string }) => p.id)).toEqual([created.body.id]);
    expect(okBody(await other.v1('GET', `/service-plans/${created.body.id}`)).summary).toBe(
      'Every week on Monday and Thursday, 18:00–20:00',
    );
    const visitList = expectOk(await other.v1('GET', `/service-plans/${created.body.id}/visits`));
    // 1 June 2027 15:00Z is 16:00 BST: the horizon is 8 June; 18:00 BST is 17:00Z.
    expect(visitList.body.data.map((j) => j.scheduled_start)).toEqual([
      '2027-06-03T17:00:00Z',
      '2027-06-07T17:00:00Z',
    ]);
    const preview = expectOk(
      await other.v1('POST', '/service-plans/preview', {
        body: {
          frequency: 'monthly',
          month_day: 31,
          start_date: '2027-01-31',
          start_time: '08:00',
          end_time: '09:00',
          visits: 3,
        },
      }),
    );
    expect(preview.body.visits.map((v: { date: string }) => v.date)).toEqual([
      '2027-07-31',
      '2027-08-31',
      '2027-10-31',
    ]);

    const doc = okBody(await server.request<OpenApiDocument>('GET', '/openapi.json'));
    for (const path of [
      '/api/v1/service-plans',
      '/api/v1/service-plans/{id}',
      '/api/v1/service-plans/{id}/end',
      '/api/v1/service-plans/{id}/visits',
      '/api/portal/{client_id}/service-plans',
      '/api/portal/{client_id}/service-plans/create',
    ]) {
      expect(doc.paths[path], path).toBeDefined();
    }
  });
});
