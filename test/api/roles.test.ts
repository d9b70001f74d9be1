import Fastify, { type RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openMemberSession } from '../../server/domain/member-sessions';
import { registerOperationTable } from '../../server/http/portal/guard';
import {
  type OperationRule,
  operationKey,
  PORTAL_OPERATIONS,
  ruleOf,
  SESSION_OPERATIONS,
} from '../../server/http/portal/permissions';
import { mayUse, type Permission } from '../../shared/roles';
import type { MemberRole } from '../../shared/schemas/team';
import { expectOk, expectStatus } from '../helpers/api-responses';
import { startTestServer, type TestAccount, type TestServer } from '../helpers/server';

const PORTAL = '/api/portal/:client_id';
let server: TestServer;
let host: string;

beforeAll(async () => {
  server = await startTestServer();
  host = new URL(server.url).host;
  // The portal's routes are registered on its first request: the table is walked before any.
  await server.app.allRoutes();
});
afterAll(() => server.stop());

/** A team member of the account with this role, signed in on their own session: the cookie header. */
async function memberCookie(account: TestAccount, name: string, role: MemberRole, canSeePrices = false) {
  const added = await account.portal('POST', '/team', { body: { name } });
  expectStatus(added, 201);
  await server.ctx.db
    .updateTable('team_members')
    .set({ role, can_see_prices: canSeePrices ? 1 : 0 })
    .where('id', '=', added.body.id)
    .execute();
  const { token } = await server.ctx.db
    .transaction()
    .execute((tx) => openMemberSession(tx, server.ctx.clock, account.clientId, added.body.id, 'test'));
  return { id: added.body.id as string, cookie: `${server.app.sessionCookie}=${token}` };
}

async function call(cookie: string, method: string, url: string, body?: unknown) {
  const response = await server.app.inject({
    method: method as 'GET',
    url,
    headers: { host, cookie, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });
  return { status: response.statusCode, body: response.body ? safeJson(response.body) : undefined };
}

function safeJson(text: string): any {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The portal's and the session's routes as the server registered them, one entry per method but HEAD. */
function operations(): Array<{ method: string; url: string; rule: OperationRule }> {
  const seen: Array<{ method: string; url: string; rule: OperationRule }> = [];
  for (const route of server.app.routeTable as RouteOptions[]) {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      if (method === 'HEAD') continue;
      if (route.url.startsWith(`${PORTAL}/`)) {
        const entry = PORTAL_OPERATIONS[operationKey(method, route.url.slice(PORTAL.length))];
        expect(entry, `${method} ${route.url} has no permission entry`).toBeDefined();
        seen.push({ method, url: route.url, rule: ruleOf(entry!) });
      } else if (route.url.startsWith('/api/session')) {
        const entry = SESSION_OPERATIONS[operationKey(method, route.url)];
        expect(entry, `${method} ${route.url} has no permission entry`).toBeDefined();
        seen.push({ method, url: route.url, rule: ruleOf(entry!) });
      }
    }
  }
  return seen;
}

/** A path for the operation: this account, and a made-up id wherever the route names one. */
function concrete(url: string, clientId: string): string {
  return url
    .replace(':client_id', clientId)
    .replace(':email', 'nobody@example.com')
    .replace(/:[a-z_]+/g, 'x_unknown');
}

describe('roles on every portal operation', () => {
  it('has an entry for every registered route, and no entry for a route that does not exist', () => {
    const registered = new Set(operations().map((op) => `${op.method} ${op.url}`));
    const listed = [
      ...Object.keys(PORTAL_OPERATIONS).map((key) => key.replace(' ', ` ${PORTAL}`)),
      ...Object.keys(SESSION_OPERATIONS),
    ];
    expect(listed.filter((key) => !registered.has(key))).toEqual([]);
    expect(registered.size).toBe(listed.length);
  });

  it('lets each role call what its permissions allow and answers 403 role_forbidden to the rest', async () => {
    const account = await server.createAccount({ business: 'Walked Through Cleaning' });
    const cookies: Record<MemberRole, string> = {
      owner: (await account.signIn()).trim(),
      office: (await memberCookie(account, 'Olive Office', 'office')).cookie,
      crew: (await memberCookie(account, 'Cal Crew', 'crew')).cookie,
    };
    // Sign-out ends the session it is called with: walk it last.
    const walk = operations().sort(
      (a, b) => Number(a.url.endsWith('sign-out')) - Number(b.url.endsWith('sign-out')),
    );
    expect(walk.length).toBeGreaterThan(100);
    const wrong: string[] = [];
    for (const role of ['crew', 'office', 'owner'] as const) {
      for (const op of walk) {
        const body = op.method === 'GET' || op.method === 'DELETE' ? undefined : {};
        const response = await call(cookies[role], op.method, concrete(op.url, account.clientId), body);
        const allowed = mayUse(role, op.rule.needs);
        const label = `${role} ${op.method} ${op.url} needs ${op.rule.needs}: ${response.status}`;
        // Allowed means the role check let it through to an answer: never a refusal, never a 5xx.
        if (allowed && (response.status === 401 || response.status === 403 || response.status >= 500)) {
          wrong.push(`${label} ${JSON.stringify(response.body)}`);
        }
        if (!allowed && (response.status !== 403 || response.body?.error?.code !== 'role_forbidden')) {
          wrong.push(label);
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it('says in the refusal which role may, in the contract error shape', async () => {
    const account = await server.createAccount({ business: 'Refused Cleaning' });
    const office = await memberCookie(account, 'Otto Office', 'office');
    const response = await call(office.cookie, 'GET', `/api/portal/${account.clientId}/sync`);
    expectStatus(response, 403);
    expect(response.body.error).toMatchObject({
      type: 'permission_error',
      code: 'role_forbidden',
      message: 'Only the owner may do this; you are signed in as office.',
    });
  });

  it("keeps the owner's setting in the office's settings call to the owner", async () => {
    const account = await server.createAccount({ business: 'Settings Cleaning' });
    const office = await memberCookie(account, 'Ola Office', 'office');
    const path = `/api/portal/${account.clientId}/config`;
    const refused = await call(office.cookie, 'PUT', path, { allow_local_webhooks: true });
    expectStatus(refused, 403);
    expect(refused.body.error).toMatchObject({ code: 'role_forbidden', param: 'allow_local_webhooks' });
    expect((await call(office.cookie, 'PUT', path, { business_name: 'Renamed' })).status).toBe(200);
  });

  it('refuses to register a portal route that has no entry in the permission table', async () => {
    const start = async (routes: Array<'listed' | 'forgotten'>) => {
      const app = Fastify();
      await app.register(
        async (portal) => {
          registerOperationTable(portal, { 'GET /listed': 'read' satisfies Permission });
          for (const route of routes) portal.get(`/${route}`, () => ({}));
        },
        { prefix: PORTAL },
      );
      await app.ready();
      return app;
    };
    await (await start(['listed'])).close();
    await expect(start(['listed', 'forgotten'])).rejects.toThrow(/GET \/forgotten has no entry/);
  });
});

describe('the crew see their own records', () => {
  let account: TestAccount;
  let crew: { id: string; cookie: string };
  let pricedCrew: { id: string; cookie: string };
  let mine: string;
  let theirs: string;
  const portal = (cookie: string, method: string, path: string, body?: unknown) =>
    call(cookie, method, `/api/portal/${account.clientId}${path}`, body);

  beforeAll(async () => {
    account = await server.createAccount({ business: 'Own Visits Cleaning' });
    crew = await memberCookie(account, 'Cora Crew', 'crew');
    pricedCrew = await memberCookie(account, 'Pia Priced', 'crew', true);
    const job = async (assignees: string[]) => {
      const response = expectOk(
        await account.portal('POST', '/jobs/create', {
          body: {
            customer_email: 'ann@example.com',
            customer_name: 'Ann Lee',
            title: 'Deep clean',
            price: 120,
            scheduled_start: server.ctx.clock.now().toISOString(),
            assignees,
          },
        }),
      );
      expect(response.status, response.text).toBe(201);
      return response.body.job_number as string;
    };
    mine = await job(['Cora Crew', 'Pia Priced']);
    theirs = await job(['Someone Else']);
  });

  it('lists only their own jobs, without prices unless allowed, and hides the others (404)', async () => {
    const list = await portal(crew.cookie, 'GET', '/jobs');
    expectStatus(list, 200);
    expect(list.body.data.map((j: { job_number: string }) => j.job_number)).toEqual([mine]);
    expect(list.body.data[0].price).toBeNull();
    const one = await portal(crew.cookie, 'GET', `/jobs/${mine}`);
    expectStatus(one, 200);
    expect(one.body.price).toBeNull();
    expect((await portal(crew.cookie, 'GET', `/jobs/${theirs}`)).status).toBe(404);

    const priced = await portal(pricedCrew.cookie, 'GET', `/jobs/${mine}`);
    expect(priced.body.price).toBe(120);
    const owner = expectOk(await account.portal('GET', '/jobs'));
    expect(owner.body.data).toHaveLength(2);
  });

  it("shows only their own group on the schedule, not others' or unassigned jobs", async () => {
    const schedule = await portal(crew.cookie, 'GET', '/team/schedule');
    expectStatus(schedule, 200);
    expect(schedule.body.members.map((m: { member: { id: string } }) => m.member.id)).toEqual([crew.id]);
    expect(schedule.body.members[0].job_count).toBe(1);
    expect(schedule.body.unassigned.job_count).toBe(0);
  });

  it('clocks themselves in and out, not anyone else, and sees their own hours only', async () => {
    const refused = await portal(crew.cookie, 'POST', '/time-entries/clock-in', { member_id: pricedCrew.id });
    expectStatus(refused, 403);
    expect(refused.body.error.code).toBe('role_forbidden');
    const others = await portal(pricedCrew.cookie, 'POST', '/time-entries/clock-in', {
      member_id: pricedCrew.id,
    });
    expectStatus(others, 201);

    const clockedIn = await portal(crew.cookie, 'POST', '/time-entries/clock-in', { member_id: crew.id });
    expectStatus(clockedIn, 201);
    expect((await portal(crew.cookie, 'GET', `/time-entries/${others.body.id}`)).status).toBe(404);
    expect((await portal(crew.cookie, 'POST', `/time-entries/${others.body.id}/clock-out`)).status).toBe(404);
    const list = await portal(crew.cookie, 'GET', `/time-entries?member_id=${pricedCrew.id}`);
    expect(list.body.data.map((e: { id: string }) => e.id)).toEqual([clockedIn.body.id]);
    const sheet = await portal(crew.cookie, 'GET', '/timesheet');
    expect(sheet.body.people.map((p: { member: { id: string } }) => p.member.id)).toEqual([crew.id]);
    expect((await portal(crew.cookie, 'POST', `/time-entries/${clockedIn.body.id}/clock-out`)).status).toBe(
      200,
    );
  });

  it('tells the UI who is signed in, with role and price visibility', async () => {
    const response = await call(crew.cookie, 'GET', '/api/session');
    expectStatus(response, 200);
    expect(response.body.member).toEqual({
      id: crew.id,
      name: 'Cora Crew',
      role: 'crew',
      can_see_prices: false,
    });
    const owner = expectOk(await call((await account.signIn()).trim(), 'GET', '/api/session'));
    expect(owner.body.member).toEqual({ id: null, name: null, role: 'owner', can_see_prices: true });
  });
});
