import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueClientLink } from '../../server/domain/client-links';
import { updateCustomer } from '../../server/domain/customers';
import { openMemberSession } from '../../server/domain/member-sessions';
import { memberActor, runAs } from '../../server/lib/actor';
import { newId } from '../../server/lib/ids';
import { startPeriodicJob } from '../../server/lib/periodic-job';
import type { Customer } from '../../shared/schemas/customer';
import type { HistoryEntry } from '../../shared/schemas/history';
import type { Job } from '../../shared/schemas/job';
import type { Quote } from '../../shared/schemas/quote';
import type { MemberRole, TeamMember } from '../../shared/schemas/team';
import { startTestServer, type TestAccount, type TestServer } from '../helpers/server';

/**
 * Every change names who made it (docs/crew-design.md, "Who made each change"): one install, each
 * kind of actor, and two actors writing at once through the one SQLite connection.
 */
let server: TestServer;
let shop: TestAccount;

beforeAll(async () => {
  server = await startTestServer();
  shop = await server.createAccount({ business: 'Sparkle Windows' });
  await shop.portal('PUT', '/config', { body: { client_hub_url: server.url, serve_client_hub: true } });
}, 120_000);
afterAll(() => server?.stop());

async function member(name: string, role: MemberRole) {
  const added = await shop.portal<TeamMember>('POST', '/team', { body: { name } });
  expect(added.status).toBe(201);
  await server.ctx.db.updateTable('team_members').set({ role }).where('id', '=', added.body.id).execute();
  const { token } = await server.ctx.db
    .transaction()
    .execute((tx) => openMemberSession(tx, server.ctx.clock, shop.clientId, added.body.id, 'test'));
  return { id: added.body.id, cookie: `${server.app.sessionCookie}=${encodeURIComponent(token)}` };
}

/** The portal as a signed-in browser would call it: the session cookie, no key. */
async function asSession(cookie: string, method: string, path: string, body?: unknown) {
  const response = await fetch(`${server.url}/api/portal/${shop.clientId}${path}`, {
    method,
    headers: { cookie, ...(body !== undefined && { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(response.status, await response.clone().text()).toBeLessThan(300);
  return response.json() as Promise<unknown>;
}

async function customer(name: string): Promise<string> {
  const created = await shop.portal<Customer>('POST', '/customers', {
    body: { name, email: `${name.toLowerCase().replace(/\W/g, '')}-${Date.now()}@example.com` },
  });
  expect(created.status).toBe(201);
  return created.body.id;
}

async function history(record: string): Promise<HistoryEntry[]> {
  const answer = await shop.portal<{ data: HistoryEntry[] }>('GET', `/history?record=${record}`);
  expect(answer.status).toBe(200);
  return answer.body.data;
}

describe('who made each change, on one install', { timeout: 90_000 }, () => {
  it('names the owner, a member, a portal key and a v1 key', async () => {
    const id = await customer('Ada');
    const owner = await shop.signIn();
    const dana = await member('Dana Office', 'office');
    await asSession(owner, 'PATCH', `/customers/${id}`, { phone: '555 0001' });
    await asSession(dana.cookie, 'PATCH', `/customers/${id}`, { phone: '555 0002' });
    expect(
      (await shop.portal<Customer>('PATCH', `/customers/${id}`, { body: { phone: '555 0003' } })).status,
    ).toBe(200);
    expect((await shop.v1<Customer>('PATCH', `/clients/${id}`, { body: { phone: '555 0004' } })).status).toBe(
      200,
    );

    const keys = await server.ctx.db
      .selectFrom('api_keys')
      .select(['id', 'kind', 'name', 'last4'])
      .where('account_id', '=', shop.clientId)
      .where('kind', 'in', ['portal', 'v1'])
      .execute();
    const key = (kind: string) => keys.find((k) => k.kind === kind)!;
    const keyName = (kind: string) => `API key ${key(kind).name ?? `…${key(kind).last4}`}`;
    const entries = (await history(`customers/${id}`)).filter((e) => e.field === 'phone').reverse();
    expect(entries.map((e) => [e.new_value, e.author, e.author_kind, e.author_name, e.device])).toEqual([
      ['555 0001', 'owner', 'owner', 'The owner', expect.objectContaining({ this_device: true, name: null })],
      [
        '555 0002',
        `member:${dana.id}`,
        'member',
        'Dana Office',
        expect.objectContaining({ this_device: true }),
      ],
      ['555 0003', `api_key:${key('portal').id}`, 'api_key', keyName('portal'), expect.anything()],
      ['555 0004', `api_key:${key('v1').id}`, 'api_key', keyName('v1'), expect.anything()],
    ]);
  });

  it('names the customer for a client hub action, and the member for a crew action, when applied', async () => {
    const customerId = await customer('Maya');
    const quote = await shop.portal<Quote>('POST', '/quotes/create', {
      body: { customer_id: customerId, items: [{ description: 'Deep clean', quantity: 1, unit_price: 80 }] },
    });
    await shop.portal<Quote>('POST', `/quotes/${quote.body.number}/mark-sent`);
    const link = await server.ctx.db
      .transaction()
      .execute((tx) => issueClientLink(tx, server.ctx, shop.clientId, customerId));
    const page = await (await fetch(`${server.url}/c/${link.token}/quotes/${quote.body.id}`)).text();
    const formToken = /name="form_token" value="([^"]+)"/.exec(page)![1]!;
    const approved = await fetch(`${server.url}/c/${link.token}/quotes/${quote.body.id}/approve`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.url },
      body: new URLSearchParams({ form_token: formToken, name: 'Maya' }).toString(),
    });
    expect(approved.status).toBe(303);
    const linkId = (
      await server.ctx.db
        .selectFrom('client_actions')
        .select('link_id')
        .where('account_id', '=', shop.clientId)
        .executeTakeFirstOrThrow()
    ).link_id;
    expect((await history(`quotes/${quote.body.id}`))[0]).toMatchObject({
      field: 'status',
      new_value: 'accepted',
      author: `client_link:${linkId}`,
      author_kind: 'client_link',
      author_name: 'Customer via the client hub',
    });

    const sam = await member('Sam Rivera', 'crew');
    const job = await shop.portal<Job>('POST', '/jobs/create', {
      body: {
        customer_id: customerId,
        title: 'Windows',
        scheduled_start: new Date(Date.now() + 3_600_000).toISOString(),
        assignees: ['Sam Rivera'],
      },
    });
    expect(job.status).toBe(201);
    const started = await fetch(`${server.url}/crew/api/actions`, {
      method: 'POST',
      headers: { cookie: sam.cookie, 'content-type': 'application/json' },
      body: JSON.stringify({
        id: newId('cra'),
        kind: 'start',
        job_id: job.body.id,
        done_at: new Date().toISOString(),
        payload: {},
      }),
    });
    expect(started.status, await started.clone().text()).toBeLessThan(300);
    expect((await history(`jobs/${job.body.id}`))[0]).toMatchObject({
      field: 'status',
      author: `member:${sam.id}`,
      author_name: 'Sam Rivera',
    });
  });

  it('names Shopdesk for work no one asked for, and for a scheduled pass a request woke', async () => {
    const id = await customer('Lin');
    await updateCustomer(server.ctx, shop.clientId, id, { phone: '555 0100' });
    const pass = startPeriodicJob(
      'test pass',
      () => updateCustomer(server.ctx, shop.clientId, id, { phone: '555 0101' }),
      { firstDelayMs: 3_600_000, intervalMs: 3_600_000 },
    );
    await runAs(memberActor('tmb_someone'), () => pass.runNow());
    await pass.stop();
    const entries = (await history(`customers/${id}`)).filter((e) => e.field === 'phone');
    expect(entries.map((e) => [e.new_value, e.author, e.author_name])).toEqual([
      ['555 0101', 'system', 'Shopdesk'],
      ['555 0100', 'system', 'Shopdesk'],
    ]);
  });

  it('keeps each actor apart when two write at once through the one connection', async () => {
    const id = await customer('Shared');
    const [alice, bob] = [await member('Alice', 'office'), await member('Bob', 'office')];
    // The connection is held until every request has arrived, so they all start together and
    // their reads and writes take turns on it.
    let arrived = 0;
    const count = () => {
      arrived++;
    };
    server.app.server.on('request', count);
    let release = () => {};
    const held = server.ctx.db
      .transaction()
      .execute(() => new Promise<void>((resolve) => (release = resolve)));
    const writes = Array.from({ length: 16 }, (_, i) => {
      const who = i % 2 === 0 ? alice : bob;
      const name = `${who === alice ? 'Alice' : 'Bob'} edit ${i}`;
      return asSession(who.cookie, 'PATCH', `/customers/${id}`, { name, phone: `555 ${1000 + i}` });
    });
    await expect.poll(() => arrived, { timeout: 60_000, interval: 5 }).toBe(16);
    server.app.server.off('request', count);
    release();
    await held;
    await Promise.all(writes);
    const entries = await history(`customers/${id}`);
    const names = entries.filter((e) => e.field === 'name' && String(e.new_value).includes(' edit '));
    expect(names).toHaveLength(16);
    for (const entry of names) {
      const by = String(entry.new_value).startsWith('Alice') ? alice : bob;
      expect(entry.author, String(entry.new_value)).toBe(`member:${by.id}`);
    }
    // Every phone entry sits beside the name entry of the same write, by the same actor.
    const phones = entries.filter((e) => e.field === 'phone');
    expect(phones).toHaveLength(16);
    for (const phone of phones) {
      const i = Number(String(phone.new_value).slice(4)) - 1000;
      expect(phone.author).toBe(`member:${(i % 2 === 0 ? alice : bob).id}`);
    }
  });
});
