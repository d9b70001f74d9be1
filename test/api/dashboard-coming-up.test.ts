import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../server/lib/clock';
import { expectStatus, okBody } from '../helpers/api-responses';
import { startTestServer, type TestAccount, type TestServer } from '../helpers/server';

/** The dashboard's "Coming up this week" lists work still to do, in the business's days. */

// 8:40 p.m. on 23 November in Vancouver (UTC-7 all year from November 2026), already 24 November in UTC.
const clock = manualClock('2026-11-24T03:40:00Z');
let server: TestServer;
let shop: TestAccount;

async function job(title: string, start: string) {
  const created = await shop.portal('POST', '/jobs/create', {
    body: {
      customer_email: 'strata@example.com',
      customer_name: 'Harbour Strata',
      title,
      scheduled_start: start,
      scheduled_end: new Date(Date.parse(start) + 2 * 3_600_000).toISOString().replace('.000Z', 'Z'),
    },
  });
  expectStatus(created, 201);
  return created.body.job_number as string;
}

beforeAll(async () => {
  server = await startTestServer({ clock });
  shop = await server.createAccount();
  expect((await shop.portal('PUT', '/config', { body: { timezone: 'America/Vancouver' } })).status).toBe(200);
});
afterAll(() => server.stop());

describe('GET /dashboard, coming up', () => {
  it('leaves out a job finished ahead of its day, keeps one in progress, and counts days in Vancouver', async () => {
    // Tomorrow (24 Nov) in Vancouver, 09:00 local.
    const early = await job('Lobby windows', '2026-11-24T16:00:00Z');
    const started = await job('Parkade sweep', '2026-11-25T16:00:00Z');
    const waiting = await job('Gutter clean', '2026-11-26T16:00:00Z');
    // 23 Nov 23:00 in Vancouver: still today there, though 24 Nov in UTC.
    const tonight = await job('Night clean', '2026-11-24T06:00:00Z');
    expect((await shop.portal('POST', `/jobs/${early}/complete`)).status).toBe(200);
    expect((await shop.portal('POST', `/jobs/${started}/start`)).status).toBe(200);

    const dashboard = okBody(await shop.portal('GET', '/dashboard'));
    expect(dashboard.today).toBe('2026-11-23');
    const numbers = (list: Array<{ job_number: string }>) => list.map((j) => j.job_number);
    expect(numbers(dashboard.jobs_today)).toEqual([tonight]);
    expect(numbers(dashboard.jobs_upcoming)).toEqual([started, waiting]);
  });
});
