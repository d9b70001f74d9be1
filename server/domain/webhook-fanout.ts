import { sql } from 'kysely';
import { EVENT_TYPES_BY_INTERFACE } from '../../shared/schemas/event';
import type { Tx } from '../db/database';
import { deliveredHere } from '../db/node';
import type { WebhookDeliveriesTable, WebhookEndpointsTable } from '../db/schema';
import { type Clock, isoNow } from '../lib/clock';
import { newId } from '../lib/ids';
import { maxAttempts, PORTAL_WEBHOOK_SCHEDULE, V1_WEBHOOK_SCHEDULE } from '../outbound/schedule';

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
 * An endpoint receives the events raised after it, by id order (ids are time-ordered), whichever
 * device raised them and whenever they reach the delivering node: an event synced in later still
 * goes out, and one raised before the endpoint never does.
 */
const ID_TIME_FROM = 4;
export const idTime = (column: string) => sql<string>`substr(${sql.ref(column)}, ${ID_TIME_FROM + 1})`;
export const idTimeOf = (id: string) => id.slice(ID_TIME_FROM);

/** Queues deliveries of events already here but stamped after the endpoint (a device with a fast clock). */
export async function catchUpEndpoint(
  tx: Tx,
  clock: Clock,
  endpoint: Pick<WebhookEndpointsTable, 'id' | 'account_id' | 'interface' | 'events'>,
): Promise<void> {
  const later = await tx
    .selectFrom('events')
    .select(['id', 'type'])
    .where('account_id', '=', endpoint.account_id)
    .where(idTime('id'), '>', endpoint.id.slice(ID_TIME_FROM))
    .execute();
  for (const event of later) {
    if (event.type !== 'webhook.test' && subscribes(endpoint, event.type))
      await insertDelivery(tx, clock, endpoint, event);
  }
}

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
    .where(idTime('id'), '<', event.id.slice(ID_TIME_FROM))
    .execute();
  let queued = 0;
  for (const endpoint of endpoints) {
    if (!subscribes(endpoint, event.type)) continue;
    await insertDelivery(tx, clock, endpoint, event);
    queued++;
  }
  return queued;
}
