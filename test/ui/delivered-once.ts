import { expect } from 'vitest';
import type { HostedHub } from '../../server/sync/hub/hosted';
import type { TestServer } from '../helpers/server';
import type { Receiver } from '../outbound/receiver';
import { until } from './phone-page';

const FINAL = new Set(['succeeded', 'failed']);

/**
 * The statuses of the hub's deliveries of `type` for the business, or undefined while the hub has
 * not yet queued every event it holds for each endpoint handed to it.
 */
async function hubStatuses(hosted: HostedHub, accountId: string, type: string) {
  const storage = hosted.hub.storage.deliveries!;
  const endpoints = (await storage.handedEndpoints()).filter((e) => e.account_id === accountId);
  const statuses: string[] = [];
  for (const endpoint of endpoints) {
    if ((await storage.eventsAfter(accountId, endpoint.queued_through, 1)).length > 0) return undefined;
    for (const delivery of await storage.deliveries(accountId, endpoint.endpoint_id)) {
      if (delivery.event_type === type) statuses.push(delivery.status);
    }
  }
  return statuses;
}

/**
 * An event of `type` reached the receiver once, counted once nothing is left to send instead of
 * after a fixed wait: every delivery of it, queued by the hub or by one of the owner's computers,
 * has its last outcome. A computer queues its deliveries in the transaction that records the
 * event, and the hub queues every event it holds, so no other delivery can follow.
 */
export async function expectDeliveredOnce(
  type: string,
  where: { hosted: HostedHub; receiver: Receiver; accountId: string; installs: TestServer[] },
): Promise<void> {
  let statuses: string[] = [];
  await until(`every ${type} delivery done`, async () => {
    const onHub = await hubStatuses(where.hosted, where.accountId, type);
    if (!onHub) return false;
    statuses = [...onHub];
    for (const install of where.installs) {
      const rows = await install.ctx.db
        .selectFrom('webhook_deliveries')
        .select('status')
        .where('event_type', '=', type)
        .execute();
      statuses.push(...rows.map((row) => row.status));
    }
    return statuses.every((status) => FINAL.has(status));
  });
  expect(statuses).toEqual(['succeeded']);
  expect(where.receiver.received.filter((r) => r.headers['x-service-event-type'] === type)).toHaveLength(1);
}
