import { assertHealthy, type BenchCase, load, type Row } from '../harness';

/** Q1 2026: a full quarter of the data set (about 40,000 invoices and their payments). */
const QUARTER = 'from=2026-01-01&to=2026-03-31';

/** p50 latency of the sales-tax report for a quarter, on each basis, one request at a time (issue 24: ≤ 0.3 s). */
const salesTax: BenchCase = async ({ server, account, seconds }) => {
  const rows: Row[] = [];
  for (const basis of ['accrual', 'cash']) {
    const path = `/reports/sales-tax?${QUARTER}&basis=${basis}`;
    const result = await load({
      url: `${server.url}/api/portal/${account.id}${path}`,
      headers: { authorization: `Bearer ${account.portalKey}` },
      connections: 1,
      seconds,
    });
    assertHealthy(path, result);
    rows.push({
      case: `GET /reports/sales-tax (${basis}, one quarter) p50`,
      figure: `${result.p50} ms (p99 ${result.p99} ms)`,
      target: '≤ 300 ms',
      pass: result.p50 <= 300,
    });
  }
  return rows;
};
export default salesTax;
