import { type BenchCase, fmt } from '../harness';

const RUNS = 15;

/** One invoice's PDF, fetched RUNS times in a row after a first (cold) fetch: median time and size. */
async function timePdf(base: string, key: string, number: string) {
  const fetchOnce = async () => {
    const started = performance.now();
    const response = await fetch(`${base}/invoices/${number}/pdf`, {
      headers: { authorization: `Bearer ${key}` },
    });
    if (!response.ok) throw new Error(`GET /invoices/${number}/pdf answered ${response.status}`);
    const bytes = (await response.arrayBuffer()).byteLength;
    return { ms: performance.now() - started, bytes };
  };
  const cold = await fetchOnce();
  const warm: number[] = [];
  for (let i = 0; i < RUNS; i++) warm.push((await fetchOnce()).ms);
  warm.sort((a, b) => a - b);
  return { cold: cold.ms, median: warm[Math.floor(RUNS / 2)]!, bytes: cold.bytes };
}

/**
 * GET /invoices/{number}/pdf for a Latin-only invoice and for one with Chinese, Japanese and Korean
 * names, whose fallback fonts are parsed once per process (the cold figure) and subset per PDF.
 */
const pdf: BenchCase = async ({ server, account }) => {
  const base = `${server.url}/api/portal/${account.id}`;
  const create = async (name: string, description: string) => {
    const response = await fetch(`${base}/invoices/create`, {
      method: 'POST',
      headers: { authorization: `Bearer ${account.portalKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        customer_name: name,
        customer_email: `pdf-bench-${name.length}-${Date.now()}@example.com`,
        items: [{ description, quantity: 1, unit_price: 180 }],
      }),
    });
    return ((await response.json()) as { number: string }).number;
  };
  const rows = [];
  for (const [label, name, description] of [
    ['Latin', 'Ada Lovelace', 'Deep clean, 3-bedroom house'],
    ['CJK', '王小明', 'Deep clean for 山田 花子, 김민준 office'],
  ] as const) {
    const figures = await timePdf(base, account.portalKey, await create(name, description));
    rows.push({
      case: `GET /invoices/{number}/pdf, ${label}`,
      figure: `median ${fmt(figures.median, 0)} ms (first ${fmt(figures.cold, 0)} ms), ${fmt(figures.bytes / 1024, 0)} KB`,
      target: '',
      pass: null,
    });
  }
  return rows;
};
export default pdf;
