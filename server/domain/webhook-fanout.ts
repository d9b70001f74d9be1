import { sql } from 'kysely';
import { EVENT_TYPES_BY_INTERFACE } from '../../shared/schemas/event';
import type { Tx } from '../db/database';
import { deliveredHere } from '../db/node';
import type { WebhookDeliveriesTable, WebhookEndpointsTable } from '../db/schema';
import { type Clock, isoNow } from '../lib/clock';
import { newId } from '../lib/ids';
import { maxAttempts, PORTAL_WEBHOOK_SCHEDULE, V1_WEBHOOK_SCHEDULE } from './retry-schedules';

/** Whether an endpoint wants events of this type: its interface must know the type and its list must name it. */
export function subscribes(
  endpoint: Pick<WebhookEndpointsTable, 'interface' | 'events'>,
  type: string,
): boolean {
  if (!EVENT_TYPES_BY_INTERFACE[endpoint.interface].includes(type)) return false;
  const events = JSON.parse(endpoint.events) as string[];
  return events.includes('*') || events.includes(type);
}

export function scheduleOf(iface: WebhookEndpointsTable['interface']) {
  return iface === 'v1' ? V1_WEBHOOK_SCHEDULE : PORTAL_WEBHOOK_SCHEDULE;
}

/** Queues one delivery of an event to one endpoint, due at once. */
export async function insertDelivery(
  tx: Tx,
  clock: Clock,
  endpoint: Pick<WebhookEndpointsTable, 'id' | 'account_id' | 'interface'>,
  event: { id: string; type: string },
  options: { redeliveryOf?: string } = {},
): Promise<WebhookDeliveriesTable> {
  const now = isoNow(clock);
  const row: WebhookDeliveriesTable = {
    id: newId('dlv', clock.now().getTime()),
    account_id: endpoint.account_id,
    endpoint_id: endpoint.id,
    event_id: event.id,
    event_type: event.type,
    status: 'pending',
    attempts: 0,
    // A delivery re-sent by hand is one attempt the owner watches, not a new retry schedule.
    max_attempts: options.redeliveryOf ? 1 : maxAttempts(scheduleOf(endpoint.interface)),
    next_attempt_at: now,
    last_response_code: null,
    last_error: null,
    redelivery_of: options.redeliveryOf ?? null,
    created_at: now,
    updated_at: now,
  };
  await tx.insertInto('webhook_deliveries').values(row).execute();
  return row;
}

/**
 * An endpoint receives the events that reach this install after it was made here, in the order this
 * install learned of them (event_arrivals, numbered as each event row is inserted: raised here or
 * pulled), never by the raising machine's clock: an event a slow device raised after the endpoint
 * still goes out when it syncs in, and one this install held before the endpoint never does.
 */
export const lastArrival = sql<number>`(SELECT coalesce(max(seq), 0) FROM event_arrivals)`;

/**
 * Queues a delivery of the event to every enabled endpoint of its account that subscribes to it,
 * inside the transaction that records the event: the deliveries commit or roll back with the change.
 * webhook.test is never fanned out; it goes only to the endpoint being tested.
 */
export async function fanOutEvent(
  tx: Tx,
  clock: Clock,
  event: { id: string; type: string; account_id: string },
): Promise<number> {
  if (event.type === 'webhook.test') return 0;
  const endpoints = await tx
    .selectFrom('webhook_endpoints')
    .select(['id', 'account_id', 'interface', 'events'])
    .where('account_id', '=', event.account_id)
    .where('enabled', '=', 1)
    .where((eb) => deliveredHere(eb, 'delivering_node'))
    .where('arrival_mark', '<', sql<number>`(SELECT seq FROM event_arrivals WHERE event_id = ${event.id})`)
    .execute();
  let queued = 0;
  for (const endpoint of endpoints) {
    if (!subscribes(endpoint, event.type)) continue;
    await insertDelivery(tx, clock, endpoint, event);
    queued++;
  }
  return queued;
}
