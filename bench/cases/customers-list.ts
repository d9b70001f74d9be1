import { assertHealthy, type BenchCase, fmt, load } from '../harness';

/**
 * GET /customers (a page of 25) through every layer, against the bare floor running the same SQL
 * and against a bare keyset page of the customers' own rows (what no list can go below).
 */
const customersList: BenchCase = async ({ server, account, bareFloor, seconds }) => {
  const real = await load({
    url: `${server.url}/api/portal/${account.id}/customers?limit=25`,
    headers: { authorization: `Bearer ${account.portalKey}` },
    seconds,
  });
  assertHealthy('GET /customers', real);
  const floor = await load({ url: `${bareFloor.url}/customers`, seconds });
  assertHealthy('bare /customers', floor);
  const bare = await load({ url: `${bareFloor.url}/customers/bare`, seconds });
  assertHealthy('bare keyset page', bare);
  const throughput = real.requestsPerSecond / floor.requestsPerSecond;
  const tail = floor.p99 / real.p99;
  const toBare = real.requestsPerSecond / bare.requestsPerSecond;
  return [
    {
      case: 'GET /customers',
      figure: `${fmt(real.requestsPerSecond, 0)} req/s, p99 ${real.p99} ms`,
      target: '',
      pass: null,
    },
    {
      case: 'bare floor, same SQL',
      figure: `${fmt(floor.requestsPerSecond, 0)} req/s, p99 ${floor.p99} ms`,
      target: '',
      pass: null,
    },
    {
      case: 'bare 25-row keyset page',
      figure: `${fmt(bare.requestsPerSecond, 0)} req/s, p99 ${bare.p99} ms`,
      target: '',
      pass: null,
    },
    {
      case: 'GET /customers req/s ÷ floor',
      figure: fmt(throughput, 2),
      target: '≥ 0.6',
      pass: throughput >= 0.6,
    },
    {
      case: 'GET /customers req/s ÷ bare keyset page',
      figure: fmt(toBare, 2),
      target: '≥ 0.4',
      pass: toBare >= 0.4,
    },
    { case: 'GET /customers floor p99 ÷ p99', figure: fmt(tail, 2), target: '≥ 0.5', pass: tail >= 0.5 },
  ];
};
export default customersList;
