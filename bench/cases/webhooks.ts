import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { assertHealthy, type BenchCase, fmt, load } from '../harness';

const THROUGHPUT_DELIVERIES = 2000;
const BURST_DELIVERIES = 10_000;
const SLOW_RECEIVER_MS = 200;

async function startReceiver(delayMs: number): Promise<{ url: string; server: Server }> {
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => setTimeout(() => response.writeHead(200).end('ok'), delayMs));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, server };
}

/**
 * Webhook delivery rate to a local receiver that answers at once, and what a backlog of 10,000
 * deliveries to a slow receiver (200 ms an answer) does to API latency: p99 of GET /customers
 * during the burst over p99 without it.
 */
const webhooks: BenchCase = async ({ server, account, seconds }) => {
  const fast = await startReceiver(0);
  const slow = await startReceiver(SLOW_RECEIVER_MS);
  const customers = () =>
    load({
      url: `${server.url}/api/portal/${account.id}/customers?limit=25`,
      headers: { authorization: `Bearer ${account.portalKey}` },
      seconds,
    });
  try {
    const fastEndpoint = await server.call('queueWebhookBurst', account.id, fast.url, THROUGHPUT_DELIVERIES);
    const started = performance.now();
    await server.call('runDueWebhooks');
    const perSecond = THROUGHPUT_DELIVERIES / ((performance.now() - started) / 1000);
    await server.call('deleteEndpoint', account.id, fastEndpoint);

    const quiet = await customers();
    assertHealthy('GET /customers, no deliveries', quiet);
    const slowEndpoint = await server.call('queueWebhookBurst', account.id, slow.url, BURST_DELIVERIES);
    await server.call('wakeOutbox');
    const busy = await customers();
    assertHealthy('GET /customers during the burst', busy);
    await server.call('deleteEndpoint', account.id, slowEndpoint);
    const ratio = busy.p99 / quiet.p99;
    return [
      {
        case: 'webhook deliveries/s (local receiver, 8 in flight)',
        figure: fmt(perSecond, 0),
        target: '',
        pass: null,
      },
      {
        case: 'GET /customers p99, quiet / 10k-delivery burst',
        figure: `${quiet.p99} ms / ${busy.p99} ms`,
        target: '',
        pass: null,
      },
      { case: 'p99 during burst ÷ quiet p99', figure: fmt(ratio, 2), target: '≤ 1.3', pass: ratio <= 1.3 },
    ];
  } finally {
    fast.server.close();
    slow.server.closeAllConnections();
    slow.server.close();
  }
};
export default webhooks;
