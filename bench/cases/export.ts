import { type BenchCase, fmt, type Row } from '../harness';

const MB = 1024 * 1024;

/** The whole account streamed, in each format: rows per second and the process's peak RSS meanwhile. */
const exportCase: BenchCase = async ({ server, account }) => {
  const rowsInAccount = Object.values(account.counts).reduce((a, b) => a + b, 0);
  const rows: Row[] = [];
  for (const format of ['json', 'csv'] as const) {
    global.gc?.();
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 25);
    const began = performance.now();
    const response = await fetch(`${server.url}/api/portal/${account.id}/export?format=${format}`, {
      headers: { authorization: `Bearer ${account.portalKey}` },
    });
    if (response.status !== 200 || !response.body)
      throw new Error(`export ${format}: HTTP ${response.status}`);
    let bytes = 0;
    const reader = response.body.getReader();
    for (let part = await reader.read(); !part.done; part = await reader.read())
      bytes += part.value.byteLength;
    const seconds = (performance.now() - began) / 1000;
    clearInterval(sampler);
    rows.push(
      {
        case: `GET /export?format=${format}`,
        figure: `${fmt(rowsInAccount / seconds / 1000, 0)}k rows/s (${rowsInAccount.toLocaleString('en')} rows, ${fmt(bytes / MB, 0)} MB in ${fmt(seconds, 1)} s)`,
        target: '',
        pass: null,
      },
      {
        case: `GET /export?format=${format} peak RSS`,
        figure: `${fmt(peak / MB, 0)} MB (${fmt(before / MB, 0)} MB before)`,
        target: '< 300 MB',
        pass: peak < 300 * MB,
      },
    );
  }
  return rows;
};
export default exportCase;
