import type { PORTAL_EVENT_TYPES } from '../../shared/schemas/event';
import type { Tx } from '../db/database';
import type { Clock } from '../lib/clock';
import { isoNow } from '../lib/clock';
import { newId } from '../lib/ids';
import { fanOutEvent } from './webhook-fanout';

/** Every event type either interface can deliver (spec part 6): the portal's list holds them all. */
export type EventType = (typeof PORTAL_EVENT_TYPES)[number];

export interface EventBody {
  id: string;
  type: EventType;
  created_at: string;
  account_id: string;
  data: { object: unknown };
}

/**
 * Writes an event into the outbox and queues its webhook deliveries. Must be called with the
 * transaction of the change that caused it, so the event and its deliveries commit or roll back
 * with that change (contract part 5).
 */
export async function recordEvent(
  tx: Tx,
  clock: Clock,
  accountId: string,
  type: EventType,
  object: unknown,
  origin?: EventOrigin,
): Promise<EventBody> {
  const event = await insertEvent(tx, clock, accountId, type, object, origin);
  await fanOutEvent(tx, clock, event);
  return event;
}

/**
 * An event's id and time when they must be the same wherever it is raised: a customer's action
 * applied on two devices while apart raises one event (docs/client-hub.md, "Applying an action").
 */
export interface EventOrigin {
  id: string;
  at: string;
}

/** Writes an event into the outbox without delivering it anywhere (webhook.test picks its one endpoint). */
export async function insertEvent(
  tx: Tx,
  clock: Clock,
  accountId: string,
  type: EventType,
  object: unknown,
  origin?: EventOrigin,
): Promise<EventBody> {
  const event: EventBody = {
    id: origin?.id ?? newId('evt', clock.now().getTime()),
    type,
    created_at: origin?.at ?? isoNow(clock),
    account_id: accountId,
    data: { object },
  };
  await tx
    .insertInto('events')
    .values({
      id: event.id,
      account_id: accountId,
      type,
      payload: JSON.stringify(event),
      created_at: event.created_at,
    })
    .execute();
  return event;
}
