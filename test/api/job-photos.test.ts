import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openMemberSession } from '../../server/domain/member-sessions';
import type { MemberRole } from '../../shared/schemas/team';
import { expectOk, expectStatus } from '../helpers/api-responses';
import { JPEG_IMAGE } from '../helpers/images';
import { startTestServer, type TestAccount, type TestServer } from '../helpers/server';

/** The crew's photos on the owner's job page (docs/crew.md, "The phone"): who may list and see them. */
let server: TestServer;
let shop: TestAccount;
let other: TestAccount;
let samJob: string;
let leeJob: string;

async function memberId(account: TestAccount, name: string): Promise<string> {
  const row = await server.ctx.db
    .selectFrom('team_members')
    .select('id')
    .where('account_id', '=', account.clientId)
    .where('name', '=', name)
    .executeTakeFirstOrThrow();
  return row.id;
}

async function signedIn(account: TestAccount, name: string, role: MemberRole): Promise<string> {
  const id = await memberId(account, name);
  await server.ctx.db.updateTable('team_members').set({ role }).where('id', '=', id).execute();
  const { token } = await server.ctx.db
    .transaction()
    .execute((tx) => openMemberSession(tx, server.ctx.clock, account.clientId, id, 'test'));
  return `${server.app.sessionCookie}=${token}`;
}

async function job(account: TestAccount, assignee: string): Promise<string> {
  const created = await account.portal('POST', '/jobs/create', {
    body: {
      customer_email: `${assignee.toLowerCase()}-visit@example.com`,
      title: 'Window clean',
      scheduled_start: '2026-11-20T09:00:00Z',
      assignees: [assignee],
    },
  });
  expectStatus(created, 201);
  return created.body.id;
}

async function photo(account: TestAccount, jobId: string, id: string, takenBy: string, at: string) {
  await server.ctx.db
    .insertInto('job_photos')
    .values({
      id,
      account_id: account.clientId,
      job_id: jobId,
      member_id: await memberId(account, takenBy),
      content_type: 'image/jpeg',
      size_bytes: JPEG_IMAGE.length,
      data: JPEG_IMAGE.toString('base64'),
      created_at: at,
    })
    .execute();
}

const image = (account: TestAccount, path: string, headers: Record<string, string>) =>
  fetch(`${server.url}/api/portal/${account.clientId}${path}`, { headers });

beforeAll(async () => {
  server = await startTestServer();
  shop = await server.createAccount({ business: 'Bright Panes' });
  other = await server.createAccount({ business: 'Other Co' });
  samJob = await job(shop, 'Sam');
  leeJob = await job(shop, 'Lee');
  await photo(shop, samJob, 'jph_01jz0000000000000000000002', 'Sam', '2026-11-20T10:05:00Z');
  await photo(shop, samJob, 'jph_01jz0000000000000000000001', 'Sam', '2026-11-20T09:30:00Z');
  await photo(shop, leeJob, 'jph_01jz0000000000000000000003', 'Lee', '2026-11-20T09:40:00Z');
}, 120_000);
afterAll(() => server.stop());

describe("a job's photos on the portal", { timeout: 60_000 }, () => {
  it('lists them oldest first, with who took them, and serves their bytes privately', async () => {
    const listed = await shop.portal('GET', `/jobs/${samJob}/photos`);
    expectStatus(listed, 200);
    const sam = await memberId(shop, 'Sam');
    expect(listed.body.data).toEqual([
      {
        id: 'jph_01jz0000000000000000000001',
        job_id: samJob,
        taken_at: '2026-11-20T09:30:00Z',
        member: { id: sam, name: 'Sam' },
        size_bytes: JPEG_IMAGE.length,
        content_type: 'image/jpeg',
      },
      expect.objectContaining({ id: 'jph_01jz0000000000000000000002', taken_at: '2026-11-20T10:05:00Z' }),
    ]);
    const byNumber = expectOk(await shop.portal('GET', '/jobs/J-0001/photos'));
    expect(byNumber.body.data).toHaveLength(2);

    const bytes = await image(shop, `/jobs/${samJob}/photos/jph_01jz0000000000000000000001`, {
      authorization: `Bearer ${shop.portalKey}`,
    });
    expectStatus(bytes, 200);
    expect(bytes.headers.get('content-type')).toBe('image/jpeg');
    expect(bytes.headers.get('cache-control')).toMatch(/^private/);
    expect(Buffer.from(await bytes.arrayBuffer()).equals(JPEG_IMAGE)).toBe(true);
  });

  it("answers 404 for a photo of another job and for another account's job", async () => {
    const elsewhere = await image(shop, `/jobs/${samJob}/photos/jph_01jz0000000000000000000003`, {
      authorization: `Bearer ${shop.portalKey}`,
    });
    expectStatus(elsewhere, 404);
    const theirJob = await job(other, 'Kim');
    expect((await other.portal('GET', `/jobs/${samJob}/photos`)).status).toBe(404);
    expect((await shop.portal('GET', `/jobs/${theirJob}/photos`)).status).toBe(404);
    const theirs = await image(other, `/jobs/${samJob}/photos/jph_01jz0000000000000000000001`, {
      authorization: `Bearer ${other.portalKey}`,
    });
    expectStatus(theirs, 404);
  });

  it('is refused to a v1 key, to no credentials and to another business’s key', async () => {
    const path = `/jobs/${samJob}/photos`;
    expect((await shop.portal('GET', path, { key: shop.v1Key })).status).toBe(403);
    expect((await shop.portal('GET', path, { key: null })).status).toBe(401);
    expect((await shop.portal('GET', path, { key: other.portalKey })).status).toBe(403);
    const bytes = `${path}/jph_01jz0000000000000000000001`;
    expect((await shop.portal('GET', bytes, { key: shop.v1Key })).status).toBe(403);
    expect((await shop.portal('GET', bytes, { key: null })).status).toBe(401);
  });

  it("shows a crew member their own visit's photos and no one else's; the office sees all", async () => {
    const samCookie = await signedIn(shop, 'Sam', 'crew');
    const own = await image(shop, `/jobs/${samJob}/photos`, { cookie: samCookie });
    expectStatus(own, 200);
    expect(((await own.json()) as { data: unknown[] }).data).toHaveLength(2);
    const lees = await image(shop, `/jobs/${leeJob}/photos`, { cookie: samCookie });
    expectStatus(lees, 404);
    const leesBytes = await image(shop, `/jobs/${leeJob}/photos/jph_01jz0000000000000000000003`, {
      cookie: samCookie,
    });
    expectStatus(leesBytes, 404);

    const officeCookie = await signedIn(shop, 'Lee', 'office');
    const office = await image(shop, `/jobs/${samJob}/photos`, { cookie: officeCookie });
    expectStatus(office, 200);
  });
});
