import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openMemberSession } from '../../server/domain/member-sessions';
import { newId } from '../../server/lib/ids';
import { type HostedHub, startHostedHub } from '../../server/sync/hub/hosted';
import { migratePgHub } from '../../server/sync/hub/pg-schema';
import { pgHubStorage } from '../../server/sync/hub/pg-storage';
import { expectOk, expectStatus } from '../helpers/api-responses';
import { laterToday } from '../helpers/later-today';
import { startPostgresForSuite } from '../helpers/postgres';
import { startTestServer, type TestServer } from '../helpers/server';

/**
 * The crew's phone on a hosted hub on PostgreSQL while the owner's computer is off (docs/crew.md,
 * "The phone"): the hub answers from its rows and keeps the actions; when the computer syncs it
 * applies them once, in the order they were done.
 */
const databaseUrl = startPostgresForSuite();
const pools: pg.Pool[] = [];
let office: TestServer;
let hosted: HostedHub;

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

async function call(path: string, cookie: string | null, body?: unknown) {
  const response = await fetch(`${hosted.url}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { ...(cookie && { cookie }), ...(body !== undefined && { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as any };
}

describe('the crew phone on the hosted hub', { timeout: 120_000 }, () => {
  it("keeps the phone's actions in its rows; the office applies them once when it syncs", async () => {
    const account = await office.createAccount({ business: 'Sparkle Windows' });
    expect((await account.portal('POST', '/sync/pair')).status).toBe(200);
    const customer = expectOk(
      await account.portal('POST', '/customers', {
        body: { name: 'Maya Chen', email: 'maya@example.com' },
      }),
    );
    const job = expectOk(
      await account.portal('POST', '/jobs/create', {
        body: {
          customer_id: customer.body.id,
          title: 'Windows',
          scheduled_start: laterToday().toISOString(),
          assignees: ['Sam Rivera'],
          price: 120,
        },
      }),
    );
    const other = expectOk(
      await account.portal('POST', '/jobs/create', {
        body: { customer_id: customer.body.id, title: 'Gutters', assignees: ['Lee Park'] },
      }),
    );
    expect(job.status, JSON.stringify(job.body)).toBe(201);
    const sam = await office.ctx.db
      .selectFrom('team_members')
      .select('id')
      .where('name', '=', 'Sam Rivera')
      .where('account_id', '=', account.clientId)
      .executeTakeFirstOrThrow();
    const session = await office.ctx.db
      .transaction()
      .execute((tx) => openMemberSession(tx, office.ctx.clock, account.clientId, sam.id, 'phone'));
    const revoked = await office.ctx.db
      .transaction()
      .execute((tx) => openMemberSession(tx, office.ctx.clock, account.clientId, sam.id, 'old phone'));
    await office.ctx.db
      .updateTable('member_sessions')
      .set({ revoked_at: new Date().toISOString() })
      .where('id', '=', revoked.token.split('.')[0]!)
      .execute();
    await office.ctx.sync!.syncNow(account.clientId);
    // The hub answers the phone from its own rows: the office's part begins at its next sync.
    const cookie = `sd_member=${encodeURIComponent(session.token)}`;

    for (const outsider of [null, `sd_member=${encodeURIComponent(revoked.token)}`])
      expect((await call('/crew/api/week', outsider)).status).toBe(401);
    const week = await call('/crew/api/week', cookie);
    expectStatus(week, 200);
    expect(week.body.visits.map((v: { id: string }) => v.id)).toEqual([job.body.id]);

    const t = Date.now() - 60 * 60_000;
    const at = (minutes: number) => new Date(t + minutes * 60_000).toISOString();
    const action = (kind: string, jobId: string | null, minutes: number, payload: unknown = {}) => ({
      id: newId('cra', t + minutes * 60_000),
      kind,
      job_id: jobId,
      done_at: at(minutes),
      payload,
    });
    const photo = {
      id: newId('jph'),
      job_id: job.body.id,
      content_type: 'image/jpeg',
      data: Buffer.concat([Buffer.from([0xff, 0xd8, 0xff]), Buffer.alloc(2000, 1)]).toString('base64'),
    };
    expect((await call('/crew/api/photos', cookie, photo)).status).toBe(201);
    const start = action('start', job.body.id, 20);
    const complete = action('complete', job.body.id, 50, { note: 'Done', photo_ids: [photo.id] });
    // The phone sends in the order done, and resends what it heard no answer to.
    for (const sent of [
      action('clock_in', null, 0),
      start,
      complete,
      complete,
      action('clock_out', null, 55),
    ]) {
      const answer = await call('/crew/api/actions', cookie, sent);
      expectStatus(answer, 202);
      expect(answer.body.id).toBe(sent.id);
    }
    expect((await call('/crew/api/actions', cookie, action('start', other.body.id, 21))).status).toBe(403);
    const kept = await hosted.hub.storage.readRows(account.clientId, 'crew_actions', 'account_id', [
      account.clientId,
    ]);
    expect(kept).toHaveLength(5);

    await office.ctx.sync!.syncNow(account.clientId);
    await office.ctx.sync!.syncNow(account.clientId);
    const done = expectOk(await account.portal('GET', `/jobs/${job.body.id}`));
    expect(done.body).toMatchObject({ status: 'completed', started_at: at(20), completed_at: at(50) });
    expect(await account.events('job.completed')).toHaveLength(1);
    const hours = expectOk(await account.portal('GET', `/time-entries?member_id=${sam.id}`));
    expect(hours.body.data).toMatchObject([{ started_at: at(0), ended_at: at(55), minutes: 55 }]);
    const photos = await office.ctx.db.selectFrom('job_photos').select(['id', 'size_bytes']).execute();
    expect(photos).toEqual([{ id: photo.id, size_bytes: 2003 }]);
    const statuses = await office.ctx.db
      .selectFrom('crew_actions')
      .select(['kind', 'status'])
      .orderBy('done_at')
      .execute();
    expect(statuses.map((s) => s.status)).toEqual(['applied', 'applied', 'refused', 'applied', 'applied']);
    // The answers go back to the hub, so the phone hears how each ended.
    const after = expectOk(await call('/crew/api/actions', cookie, complete));
    expect(after.body).toMatchObject({ status: 'applied', outcome: 'Completed.' });
  });
});
