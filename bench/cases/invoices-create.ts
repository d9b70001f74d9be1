import { assertHealthy, type BenchCase, fmt, load } from '../harness';

/** Invoice bodies for existing customers of the generated account, a different one each time. */
export function invoiceBodies(customers: number): () => string {
  let n = 0;
  return () =>
    JSON.stringify({
      customer_name: 'Bench',
      customer_email: `customer${(n++ * 7919) % customers}@example.com`,
      items: [
        { description: 'Deep clean', quantity: 2, unit_price: 120 },
        { description: 'Windows', quantity: 1, unit_price: 45.5 },
      ],
      taxes: [{ name: 'GST', rate: 0.05 }],
      due_days: 30,
    });
}

/** POST /invoices/create for existing customers, against the bare floor doing the same inserts. */
const invoicesCreate: BenchCase = async ({ server, account, bareFloor, seconds }) => {
  const body = invoiceBodies(account.counts.customers!);
  const real = await load({
    url: `${server.url}/api/portal/${account.id}/invoices/create`,
    method: 'POST',
    headers: { authorization: `Bearer ${account.portalKey}` },
    body,
    seconds,
  });
  assertHealthy('POST /invoices/create', real);
  const floor = await load({ url: `${bareFloor.url}/invoices`, method: 'POST', body, seconds });
  assertHealthy('bare POST /invoices', floor);
  const throughput = real.requestsPerSecond / floor.requestsPerSecond;
  const tail = floor.p99 / real.p99;
  return [
    {
      case: 'POST /invoices/create',
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
      case: 'POST /invoices/create req/s ÷ floor',
      figure: fmt(throughput, 2),
      target: '≥ 0.6',
      pass: throughput >= 0.6,
    },
    {
      case: 'POST /invoices/create floor p99 ÷ p99',
      figure: fmt(tail, 2),
      target: '≥ 0.5',
      pass: tail >= 0.5,
    },
  ];
};
export default invoicesCreate;
