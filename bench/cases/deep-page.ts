import { encodeCursor } from '../../server/domain/pagination';
import { assertHealthy, type BenchCase, fmt, load } from '../harness';

/** A page near the end of 100,000 customers costs what the first page costs (keyset pagination). */
const deepPage: BenchCase = async ({ server, account, seconds }) => {
  const near = { id: await server.call('customerIdAt', account.id, 100) };
  const base = `${server.url}/api/portal/${account.id}/customers?limit=25`;
  const headers = { authorization: `Bearer ${account.portalKey}` };
  const first = await load({ url: base, headers, connections: 1, seconds });
  assertHealthy('first page', first);
  const deep = await load({
    url: `${base}&cursor=${encodeCursor(near.id)}`,
    headers,
    connections: 1,
    seconds,
  });
  assertHealthy('deep page', deep);
  // One connection, so each rate is the inverse of one request's full cost. (autocannon's latency
  // histogram counts whole milliseconds, too coarse for sub-millisecond pages.)
  const ratio = first.requestsPerSecond / deep.requestsPerSecond;
  const perRequest = (rate: number) =>
    `${fmt(1000 / rate, 2)} ms a request (${fmt(rate, 0)} req/s, 1 connection)`;
  return [
    {
      case: 'GET /customers first page',
      figure: perRequest(first.requestsPerSecond),
      target: '',
      pass: null,
    },
    {
      case: 'GET /customers page ~4,000 of 4,000',
      figure: perRequest(deep.requestsPerSecond),
      target: '',
      pass: null,
    },
    { case: 'deep page ÷ first page', figure: `${fmt(ratio, 2)}×`, target: '≤ 1.5×', pass: ratio <= 1.5 },
  ];
};
export default deepPage;
