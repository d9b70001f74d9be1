import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueClientLink } from '../../server/domain/client-links';
import { applyCrewActions } from '../../server/domain/crew-actions';
import { openMemberSession } from '../../server/domain/member-sessions';
import { newId } from '../../server/lib/ids';
import { expectError, expectOk, expectStatus, okBody } from '../helpers/api-responses';
import { laterToday } from '../helpers/later-today';
import { startTestServer, type TestAccount, type TestServer } from '../helpers/server';
import { decodedText, type SmtpSink, startSmtpSink } from '../helpers/smtp-sink';

/**
 * The crew's phone API on an install serving its client hub (docs/crew.md, "The phone"): who may
 * call it, actions recorded and applied once in the member's order, refusals, photos.
 */
let server: TestServer;
let smtp: SmtpSink;

beforeAll(async () => {
  [server, smtp] = await Promise.all([startTestServer(), startSmtpSink()]);
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await smtp?.close();
});

/** A tiny real JPEG header followed by bytes: the server checks the magic number and the size. */
const jpeg = (bytes: number) =>
  Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(bytes - 4, 7)]);

interface Shop {
  account: TestAccount;
  customerId: string;
  samJob: string;
  leeJob: string;
  sam: string;
  lee: string;
  samCookie: string;
  leeCookie: string;
}

async function shop(business: string, serve = true): Promise<Shop> {
  const account = await server.createAccount({ business });
  await account.portal('PUT', '/config', {
    body: {
      smtp: { host: '127.0.0.1', port: smtp.port, secure: false, from: 'office@example.com' },
      crew_on_my_way_email: true,
      ...(serve && { client_hub_url: server.url, serve_client_hub: true }),
    },
  });
  const customer = expectOk(
    await account.portal('POST', '/customers', {
      body: { name: 'Maya Chen', email: `maya-${account.clientId}@example.com`, phone: '555-0100' },
    }),
  );
  const soon = laterToday().toISOString();
  const job = async (who: string, notes: string) => {
    const created = expectOk(
      await account.portal('POST', '/jobs/create', {
        body: {
          customer_id: customer.body.id,
          title: `Windows for ${who}`,
          scheduled_start: soon,
          assignees: [who],
          price: 120,
          notes,
        },
      }),
    );
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return created.body.id as string;
  };
  const samJob = await job('Sam Rivera', '- Front windows\n- Back door');
  const leeJob = await job('Lee Park', 'Gutters');
  const team = await server.ctx.db
    .selectFrom('team_members')
    .select(['id', 'name'])
    .where('account_id', '=', account.clientId)
    .execute();
  const idOf = (name: string) => team.find((m) => m.name === name)!.id;
  const session = (memberId: string) =>
    server.ctx.db
      .transaction()
      .execute((tx) => openMemberSession(tx, server.ctx.clock, account.clientId, memberId, 'test'));
  const cookie = (token: string) => `${server.app.sessionCookie}=${encodeURIComponent(token)}`;
  const [samSession, leeSession] = [await session(idOf('Sam Rivera')), await session(idOf('Lee Park'))];
  return {
    account,
    customerId: customer.body.id,
    samJob,
    leeJob,
    sam: idOf('Sam Rivera'),
    lee: idOf('Lee Park'),
    samCookie: cookie(samSession.token),
    leeCookie: cookie(leeSession.token),
  };
}

async function call(path: string, cookie: string | null, body?: unknown) {
  const response = await fetch(`${server.url}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { ...(cookie && { cookie }), ...(body !== undefined && { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as any };
}

const action = (kind: string, jobId: string | null, payload: unknown = {}, doneAt = new Date()) => ({
  id: newId('cra', doneAt.getTime()),
  kind,
  job_id: jobId,
  done_at: doneAt.toISOString(),
  payload,
});

describe('the crew phone API', { timeout: 90_000 }, () => {
  it('answers only a signed-in member, about their own visits', async () => {
    const s = await shop('Sparkle Windows');
    const week = await call('/crew/api/week', s.samCookie);
    expectStatus(week, 200);
    expect(week.body.visits.map((v: { id: string }) => v.id)).toEqual([s.samJob]);
    expect(week.body.visits[0]).toMatchObject({
      customer: { name: 'Maya Chen', phone: '555-0100' },
      checklist: ['Front windows', 'Back door'],
      price_cents: null,
    });

    const link = await server.ctx.db
      .transaction()
      .execute((tx) => issueClientLink(tx, server.ctx, s.account.clientId, s.customerId));
    const revoked = await server.ctx.db
      .transaction()
      .execute((tx) => openMemberSession(tx, server.ctx.clock, s.account.clientId, s.sam, 'test'));
    await server.ctx.db
      .updateTable('member_sessions')
      .set({ revoked_at: new Date().toISOString() })
      .where('id', '=', revoked.token.split('.')[0]!)
      .execute();
    const outsiders = [
      null,
      `${server.app.sessionCookie}=${encodeURIComponent(revoked.token)}`,
      `${server.app.sessionCookie}=${encodeURIComponent(link.token)}`,
      `sd_member=${encodeURIComponent(link.token)}`,
    ];
    for (const cookie of outsiders) {
      for (const [path, body] of [
        ['/crew/api/week', undefined],
        ['/crew/api/actions', action('start', s.samJob)],
        [
          '/crew/api/photos',
          {
            id: newId('jph'),
            job_id: s.samJob,
            content_type: 'image/jpeg',
            data: jpeg(10).toString('base64'),
          },
        ],
      ] as const) {
        const answer = expectError(await call(path, cookie, body));
        expect(answer.status, `${path} with ${cookie}`).toBe(401);
        expect(answer.body.error.code).toBe('unauthorized');
      }
    }

    // Another member's visit: refused, and kept as refused so the office sees it was tried.
    const tried = action('start', s.samJob);
    const refused = await call('/crew/api/actions', s.leeCookie, tried);
    expectStatus(refused, 403);
    expect((await call('/crew/api/actions', s.leeCookie, tried)).status).toBe(403);
    const row = await server.ctx.db
      .selectFrom('crew_actions')
      .selectAll()
      .where('id', '=', tried.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'refused', member_id: s.lee });
    const job = expectOk(await s.account.portal('GET', `/jobs/${s.samJob}`));
    expect(job.body.status).toBe('scheduled');
    // Sam's id is not Lee's to reuse, nor Lee's photo of Sam's visit.
    expect((await call('/crew/api/actions', s.samCookie, tried)).status).toBe(409);
    const photo = {
      id: newId('jph'),
      job_id: s.samJob,
      content_type: 'image/jpeg',
      data: jpeg(100).toString('base64'),
    };
    expect((await call('/crew/api/photos', s.leeCookie, photo)).status).toBe(403);
  });

  it('is not served for a business whose install does not serve its client hub', async () => {
    const s = await shop('Quiet Gutters', false);
    expect((await call('/crew/api/week', s.samCookie)).status).toBe(401);
  });

  it('applies a visit once, in the order it was done, however often the phone resends', async () => {
    const s = await shop('Bright Panes');
    const t = Date.now() - 60 * 60_000;
    const at = (minutes: number) => new Date(t + minutes * 60_000);
    const photo = {
      id: newId('jph'),
      job_id: s.samJob,
      content_type: 'image/jpeg',
      data: jpeg(5000).toString('base64'),
    };
    const sent = await call('/crew/api/photos', s.samCookie, photo);
    expect(sent).toMatchObject({ status: 201, body: { id: photo.id, size_bytes: 5000 } });
    expect((await call('/crew/api/photos', s.samCookie, photo)).status).toBe(201);

    const actions = [
      action('clock_in', null, {}, at(0)),
      action('on_my_way', s.samJob, { eta_minutes: 20 }, at(1)),
      action('start', s.samJob, {}, at(20)),
      action(
        'complete',
        s.samJob,
        {
          checklist: [{ item: 'Front windows', done: true }],
          note: 'Gate was open',
          photo_ids: [photo.id],
          signed_by: 'Maya Chen',
        },
        at(50),
      ),
      action('clock_out', null, {}, at(55)),
    ];
    for (const sentAction of actions) {
      const first = await call('/crew/api/actions', s.samCookie, sentAction);
      expectStatus(first, 202);
      expect(first.body).toMatchObject({ id: sentAction.id, status: 'applied' });
      // The answer lost on the way: the phone sends it again and hears the same.
      expect(await call('/crew/api/actions', s.samCookie, sentAction)).toEqual(first);
    }
    const job = expectOk(await s.account.portal('GET', `/jobs/${s.samJob}`));
    expect(job.body).toMatchObject({
      status: 'completed',
      started_at: at(20).toISOString(),
      completed_at: at(50).toISOString(),
    });
    expect(await s.account.events('job.completed')).toHaveLength(1);
    const hours = expectOk(await s.account.portal('GET', `/time-entries?member_id=${s.sam}`));
    expect(hours.body.data).toMatchObject([
      { started_at: at(0).toISOString(), ended_at: at(55).toISOString(), minutes: 55, source: 'clock' },
    ]);
    const photos = await server.ctx.db
      .selectFrom('job_photos')
      .selectAll()
      .where('job_id', '=', s.samJob)
      .execute();
    expect(photos.map((p) => p.id)).toEqual([photo.id]);

    await server.outbound.mail.runDue();
    const told = smtp.messages.filter((m) => m.to.some((to) => to.includes(`maya-${s.account.clientId}`)));
    expect(told).toHaveLength(1);
    expect(decodedText(told[0]!.raw)).toContain('Sam Rivera is on the way');

    // Clocking out again has nothing to close: refused, answered as such every time.
    const again = action('clock_out', null, {}, at(56));
    expect(okBody(await call('/crew/api/actions', s.samCookie, again))).toMatchObject({
      status: 'refused',
      outcome: 'You were not clocked in.',
    });
  });

  it('refuses a photo past 2 MB, and anything but a JPEG', async () => {
    const s = await shop('Clear View');
    const big = {
      id: newId('jph'),
      job_id: s.samJob,
      content_type: 'image/jpeg',
      data: jpeg(2 * 1024 * 1024 + 1).toString('base64'),
    };
    const tooLarge = await call('/crew/api/photos', s.samCookie, big);
    expectStatus(tooLarge, 413);
    expect(tooLarge.body.error.code).toBe('photo_too_large');
    const png = { ...big, id: newId('jph'), data: Buffer.from('\x89PNG\r\n').toString('base64') };
    expect((await call('/crew/api/photos', s.samCookie, png)).status).toBe(400);
    const count = await server.ctx.db
      .selectFrom('job_photos')
      .select('id')
      .where('job_id', '=', s.samJob)
      .execute();
    expect(count).toEqual([]);
  });
  it("applies a member's actions in the order they were done, whatever order they arrived in", async () => {
    const s = await shop('Late Signal');
    const t = Date.now() - 30 * 60_000;
    const row = (kind: 'start' | 'complete', minutes: number) => ({
      id: newId('cra', t + minutes * 60_000),
      account_id: s.account.clientId,
      member_id: s.sam,
      session_id: 'mss_01kdz8y0000000000000000000',
      kind,
      job_id: s.samJob,
      payload: '{}',
      done_at: new Date(t + minutes * 60_000).toISOString(),
      created_at: new Date().toISOString(),
      status: 'pending' as const,
      outcome: null,
      applied_at: null,
    });
    // Synced in from the hub with the later action first: the applier still starts before completing.
    await server.ctx.db
      .insertInto('crew_actions')
      .values([row('complete', 20), row('start', 5)])
      .execute();
    expect(await applyCrewActions(server.ctx, s.account.clientId)).toBe(2);
    const job = expectOk(await s.account.portal('GET', `/jobs/${s.samJob}`));
    expect(job.body).toMatchObject({
      status: 'completed',
      started_at: new Date(t + 5 * 60_000).toISOString(),
      completed_at: new Date(t + 20 * 60_000).toISOString(),
    });
    const outcomes = await server.ctx.db
      .selectFrom('crew_actions')
      .select('outcome')
      .where('job_id', '=', s.samJob)
      .orderBy('done_at')
      .execute();
    expect(outcomes.map((o) => o.outcome)).toEqual(['Started.', 'Completed.']);
    expect(await applyCrewActions(server.ctx, s.account.clientId)).toBe(0);
  });
  it('serves the app shell, its service worker and manifest to anyone: they hold no data', async () => {
    for (const [path, type] of [
      ['/crew/', 'text/html'],
      ['/crew/app.js', 'text/javascript'],
      ['/crew/sw.js', 'text/javascript'],
      ['/crew/manifest.webmanifest', 'application/manifest+json'],
    ] as const) {
      const response = await fetch(`${server.url}${path}`);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('content-type')).toContain(type);
      expect(response.headers.get('content-security-policy')).toContain("script-src 'self'");
      expect(await response.text()).not.toMatch(/Maya|Sam Rivera/);
    }
  });
});
