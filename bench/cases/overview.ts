import { assertHealthy, type BenchCase, load, type Row } from '../harness';

const PATHS = ['/dashboard', '/report', '/analytics', '/analytics?interval=week', '/benchmark'];

/** p50 latency of the overview read models over the whole data set, one request at a time. */
const overview: BenchCase = async ({ server, account, seconds }) => {
  const rows: Row[] = [];
  for (const path of PATHS) {
    const result = await load({
      url: `${server.url}/api/portal/${account.id}${path}`,
      headers: { authorization: `Bearer ${account.portalKey}` },
      connections: 1,
      seconds,
    });
    assertHealthy(path, result);
    rows.push({
      case: `GET ${path} p50`,
      figure: `${result.p50} ms (p99 ${result.p99} ms)`,
      target: '< 100 ms',
      pass: result.p50 < 100,
    });
  }
  return rows;
};
export default overview;
