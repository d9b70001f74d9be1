import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AppContext } from '../../server/context';
import { updateConfig } from '../../server/domain/accounts';
import { insertEvent } from '../../server/domain/events';
import { insertDelivery } from '../../server/domain/webhook-fanout';
import { createEndpoint, deleteEndpoint } from '../../server/domain/webhooks';
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

/** Queues `count` webhook.test deliveries to one new endpoint in one transaction, as a burst of events would. */
async function queueBurst(ctx: AppContext, accountId: string, url: string, count: number): Promise<string> {
  await updateConfig(ctx, accountId, { allow_local_webhooks: true });
  const endpoint = await createEndpoint(ctx, accountId, 'portal', {
    url,
    events: ['webhook.test'],
    enabled: true,
  });
  await ctx.db.transaction().execute(async (tx) => {
    for (let i = 0; i < count; i++) {
      const event = await insertEvent(tx, ctx.clock, accountId, 'webhook.test', { id: endpoint.id, n: i });
      await insertDelivery(tx, ctx.clock, { ...endpoint, account_id: accountId }, event);
    }
  });
  return endpoint.id;
}

/**
 * Webhook delivery rate to a local receiver that answers at once, and what a backlog of 10,000
 * deliveries to a slow receiver (200 ms an answer) does to API latency: p99 of GET /customers
 * during the burst over p99 without it.
 */
const webhooks: BenchCase = async ({ server, account, seconds }) => {
  const { ctx } = server;
  const fast = await startReceiver(0);
  const slow = await startReceiver(SLOW_RECEIVER_MS);
  const customers = () =>
    load({
      url: `${server.url}/api/portal/${account.id}/customers?limit=25`,
      headers: { authorization: `Bearer ${account.portalKey}` },
      seconds,
    });
  try {
    const fastEndpoint = await queueBurst(ctx, account.id, fast.url, THROUGHPUT_DELIVERIES);
    const started = performance.now();
    await server.outbound.webhooks.runDue();
    const perSecond = THROUGHPUT_DELIVERIES / ((performance.now() - started) / 1000);
    await deleteEndpoint(ctx, account.id, 'portal', fastEndpoint);

    const quiet = await customers();
    assertHealthy('GET /customers, no deliveries', quiet);
    const slowEndpoint = await queueBurst(ctx, account.id, slow.url, BURST_DELIVERIES);
    server.ctx.signals.emit('outbox');
    const busy = await customers();
    assertHealthy('GET /customers during the burst', busy);
    await deleteEndpoint(ctx, account.id, 'portal', slowEndpoint);
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
