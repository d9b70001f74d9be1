import SQLite from 'better-sqlite3-multiple-ciphers';
import type { FastifyReply, FastifyRequest } from 'fastify';
import Fastify from 'fastify';
import { sql } from 'kysely';
import { createKey } from '../../server/domain/api-keys';
import { encodeCursor } from '../../server/domain/pagination';
import { RateLimiter } from '../../server/http/rate-limiter';
import { v1Guard } from '../../server/http/v1/guard';
import { customerPageStatements } from '../floor';
import { assertHealthy, type BenchCase, fmt, load } from '../harness';

const PAGE = 100;
const GUARD_ITERATIONS = 5_000;

/**
 * The floor for a page of 100 clients: the statement listCustomers runs for one page, prepared
 * once on a connection of its own, with no auth, limits, validation or serialisation. (The shared
 * floor in bench/floor.ts serves pages of 25.)
 */
async function startPageFloor(file: string, accountId: string) {
  const db = new SQLite(file, { readonly: true });
  const account = db.prepare('select * from accounts where id = ?');
  const pages = customerPageStatements(db);
  const app = Fastify({ logger: false });
  app.get('/clients', (request) => {
    const before = (request.query as { before?: string }).before;
    account.get(accountId);
    return before ? pages.before.all(accountId, before, PAGE + 1) : pages.first.all(accountId, PAGE + 1);
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      await app.close();
      db.close();
    },
  };
}

/**
 * v1 on 100,000 clients: a page of 100 and a page near the end, each against the floor; and what
 * the v1 guard (key lookup, plan, both rate-limit windows, scope) costs as a share of a request,
 * timed in isolation over many calls.
 */
const v1: BenchCase = async ({ server, account, seconds, log }) => {
  const { ctx } = server;
  const key = (await createKey(ctx, account.id, { kind: 'v1', name: 'bench' })).key;
  const headers = { authorization: `Bearer ${key}` };
  const [main] = (await sql<{ file: string }>`pragma database_list`.execute(ctx.db)).rows;
  const floor = await startPageFloor(main!.file, account.id);
  try {
    const near = await ctx.db
      .selectFrom('customers')
      .select('id')
      .where('account_id', '=', account.id)
      .orderBy('id', 'asc')
      .offset(PAGE + 1)
      .limit(1)
      .executeTakeFirstOrThrow();
    const firstUrl = `${server.url}/api/v1/clients?limit=${PAGE}`;
    const deepUrl = `${firstUrl}&cursor=${encodeCursor(near.id)}`;

    log('  v1 first page…');
    const first = await load({ url: firstUrl, headers, seconds });
    assertHealthy('GET /api/v1/clients', first);
    const floorFirst = await load({ url: `${floor.url}/clients`, seconds });
    assertHealthy('floor first page', floorFirst);
    log('  v1 deep page…');
    const deep = await load({ url: deepUrl, headers, seconds });
    assertHealthy('GET /api/v1/clients deep', deep);
    const floorDeep = await load({ url: `${floor.url}/clients?before=${near.id}`, seconds });
    assertHealthy('floor deep page', floorDeep);

    log('  v1 guard in isolation…');
    const guard = v1Guard(ctx, new RateLimiter());
    const request = { headers, method: 'GET' } as unknown as FastifyRequest;
    const reply = { header: () => reply } as unknown as FastifyReply;
    for (let i = 0; i < 200; i++) await guard(request, reply);
    const started = performance.now();
    for (let i = 0; i < GUARD_ITERATIONS; i++) await guard(request, reply);
    const guardMs = (performance.now() - started) / GUARD_ITERATIONS;
    // Server time per request: the load runs 10 connections against one event loop.
    const requestMs = 1000 / first.requestsPerSecond;
    const guardShare = guardMs / requestMs;

    const firstRatio = first.requestsPerSecond / floorFirst.requestsPerSecond;
    const deepRatio = deep.requestsPerSecond / floorDeep.requestsPerSecond;
    const deepOverFirst = deep.mean / first.mean;
    return [
      {
        case: `GET /api/v1/clients?limit=${PAGE}`,
        figure: `${fmt(first.requestsPerSecond, 0)} req/s, p99 ${first.p99} ms`,
        target: '',
        pass: null,
      },
      {
        case: 'v1 page of 100 req/s ÷ floor',
        figure: `${fmt(firstRatio, 2)} (floor ${fmt(floorFirst.requestsPerSecond, 0)} req/s)`,
        target: '≥ 0.5',
        pass: firstRatio >= 0.5,
      },
      {
        case: 'v1 deep page (100 from the end) req/s ÷ floor',
        figure: `${fmt(deepRatio, 2)} (${fmt(deep.requestsPerSecond, 0)} vs ${fmt(floorDeep.requestsPerSecond, 0)} req/s)`,
        target: '≥ 0.5',
        pass: deepRatio >= 0.5,
      },
      {
        case: 'v1 deep page ÷ first page (mean latency)',
        figure: `${fmt(deepOverFirst, 2)}×`,
        target: '≤ 1.5×',
        pass: deepOverFirst <= 1.5,
      },
      {
        case: 'v1 guard (key, plan, limits, scope) per request',
        figure: `${fmt(guardMs * 1000, 0)} µs = ${fmt(guardShare * 100, 1)} % of ${fmt(requestMs, 2)} ms`,
        target: '< 5 %',
        pass: guardShare < 0.05,
      },
    ];
  } finally {
    await floor.close();
  }
};
export default v1;
