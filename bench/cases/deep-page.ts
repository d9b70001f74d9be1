import { encodeCursor } from '../../server/domain/pagination';
import { assertHealthy, type BenchCase, fmt, load } from '../harness';

/** A page near the end of 100,000 customers costs what the first page costs (keyset pagination). */
const deepPage: BenchCase = async ({ server, account, seconds }) => {
  const near = await server.ctx.db
    .selectFrom('customers')
    .select('id')
    .where('account_id', '=', account.id)
    .orderBy('id', 'asc')
    .offset(100)
    .limit(1)
    .executeTakeFirstOrThrow();
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
  const ratio = deep.mean / first.mean;
  return [
    { case: 'GET /customers first page (mean)', figure: `${fmt(first.mean, 2)} ms`, target: '', pass: null },
    {
      case: 'GET /customers page ~4,000 of 4,000 (mean)',
      figure: `${fmt(deep.mean, 2)} ms`,
      target: '',
      pass: null,
    },
    { case: 'deep page ÷ first page', figure: `${fmt(ratio, 2)}×`, target: '≤ 1.5×', pass: ratio <= 1.5 },
  ];
};
export default deepPage;
