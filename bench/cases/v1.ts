import { encodeCursor } from '../../server/domain/pagination';
import { assertHealthy, type BenchCase, fmt, load } from '../harness';

const PAGE = 100;
const GUARD_ITERATIONS = 5_000;

/**
 * v1 on 100,000 clients: a page of 100 and a page near the end, each against the floor; and what
 * the v1 guard (key lookup, plan, both rate-limit windows, scope) costs as a share of a request,
 * timed in isolation over many calls.
 */
const v1: BenchCase = async ({ server, account, bareFloor, seconds, log }) => {
  const key = await server.call('createKey', account.id, 'v1', 'bench');
  const headers = { authorization: `Bearer ${key}` };
  const near = { id: await server.call('customerIdAt', account.id, PAGE + 1) };
  const firstUrl = `${server.url}/api/v1/clients?limit=${PAGE}`;
  const deepUrl = `${firstUrl}&cursor=${encodeCursor(near.id)}`;

  log('  v1 first page…');
  const first = await load({ url: firstUrl, headers, seconds });
  assertHealthy('GET /api/v1/clients', first);
  // The floor's page of 100: the statement listCustomers runs for one page (bench/floor.ts).
  const floorFirst = await load({ url: `${bareFloor.url}/customers?limit=${PAGE}`, seconds });
  assertHealthy('floor first page', floorFirst);
  log('  v1 deep page…');
  const deep = await load({ url: deepUrl, headers, seconds });
  assertHealthy('GET /api/v1/clients deep', deep);
  const floorDeep = await load({
    url: `${bareFloor.url}/customers?limit=${PAGE}&before=${near.id}`,
    seconds,
  });
  assertHealthy('floor deep page', floorDeep);

  log('  v1 guard in isolation…');
  const guardMs = await server.call('timeV1Guard', key, GUARD_ITERATIONS);
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
};
export default v1;
