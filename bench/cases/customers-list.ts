import { assertHealthy, type BenchCase, fmt, load } from '../harness';

/** GET /customers (a page of 25) through every layer, against the bare floor running the same SQL. */
const customersList: BenchCase = async ({ server, account, bareFloor, seconds }) => {
  const real = await load({
    url: `${server.url}/api/portal/${account.id}/customers?limit=25`,
    headers: { authorization: `Bearer ${account.portalKey}` },
    seconds,
  });
  assertHealthy('GET /customers', real);
  const floor = await load({ url: `${bareFloor.url}/customers`, seconds });
  assertHealthy('bare /customers', floor);
  const throughput = real.requestsPerSecond / floor.requestsPerSecond;
  const tail = floor.p99 / real.p99;
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
      case: 'GET /customers req/s ÷ floor',
      figure: fmt(throughput, 2),
      target: '≥ 0.5',
      pass: throughput >= 0.5,
    },
    { case: 'GET /customers floor p99 ÷ p99', figure: fmt(tail, 2), target: '≥ 0.5', pass: tail >= 0.5 },
  ];
};
export default customersList;
