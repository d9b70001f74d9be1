import type {
  DeliveryListQuery,
  WebhookAttempt,
  WebhookCreate,
  WebhookDelivery,
  WebhookEndpoint,
  WebhookEndpointWithSecret,
  WebhookUpdate,
} from '../../shared/schemas/webhook';
import type { AppContext } from '../context';
import type { Queryable } from '../db/database';
import { thisNode } from '../db/node';
import type { WebhookDeliveriesTable, WebhookEndpointsTable, WebhookInterface } from '../db/schema';
import { isoNow, toIso } from '../lib/clock';
import { invalidState, notFound, validationError } from '../lib/errors';
import { newId } from '../lib/ids';
import { newSecret, SECRET_PREFIXES } from '../lib/secrets';
import { registrationRefusal } from '../lib/webhook-target';
import { getAccount } from './accounts';
import { insertEvent } from './events';
import { keysetPage, type Page, type PageRequest } from './pagination';
import { insertDelivery, lastArrival } from './webhook-fanout';

/** The `delivering_node` of an endpoint the hub delivers: no install's node id looks like it. */
export const HUB_DELIVERS = 'hub';

/** How long deliveries stay signed with the previous secret after a rotation. */
export const SECRET_ROTATION_GRACE_MS = 24 * 60 * 60 * 1000;

export function presentEndpoint(row: WebhookEndpointsTable): WebhookEndpoint {
  return {
    id: row.id,
    object: 'webhook_endpoint',
    interface: row.interface,
    url: row.url,
    description: row.description,
    events: JSON.parse(row.events) as string[],
    enabled: row.enabled === 1,
    disabled_reason: row.disabled_reason,
    disabled_at: row.disabled_at,
    consecutive_failures: row.consecutive_failures,
    previous_secret_expires_at: row.previous_secret ? row.previous_secret_expires_at : null,
    delivered_by: row.delivering_node === HUB_DELIVERS ? 'hub' : 'node',
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

async function getRow(
  db: Queryable,
  accountId: string,
  iface: WebhookInterface,
  id: string,
): Promise<WebhookEndpointsTable> {
  const row = await db
    .selectFrom('webhook_endpoints')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('interface', '=', iface)
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) throw notFound(`No webhook endpoint ${id}`);
  return row;
}

async function refuseForbiddenTarget(ctx: AppContext, accountId: string, url: string): Promise<void> {
  const { config } = await getAccount(ctx.db, accountId);
  const reason = await registrationRefusal(url, {
    allowLocal: config.allow_local_webhooks,
    ownPort: ctx.listening.port,
    lookup: ctx.hostLookup,
  });
  if (reason) throw validationError(`url: ${reason}`, 'url');
}

export async function createEndpoint(
  ctx: AppContext,
  accountId: string,
  iface: WebhookInterface,
  input: WebhookCreate,
): Promise<WebhookEndpointWithSecret> {
  await refuseForbiddenTarget(ctx, accountId, input.url);
  const now = isoNow(ctx.clock);
  const row: WebhookEndpointsTable = {
    id: newId('whk', ctx.clock.now().getTime()),
    account_id: accountId,
    interface: iface,
    url: input.url,
    description: input.description ?? null,
    events: JSON.stringify(input.events),
    enabled: input.enabled ? 1 : 0,
    disabled_reason: input.enabled ? null : 'manual',
    disabled_at: input.enabled ? null : now,
    consecutive_failures: 0,
    secret: newSecret(SECRET_PREFIXES.webhook),
    previous_secret: null,
    previous_secret_expires_at: null,
    created_at: now,
    updated_at: now,
  };
  const byHub = input.delivered_by === 'hub';
  // The hub has the secret before the endpoint's row can reach it, so it never holds one it cannot sign.
  if (byHub) await handOverToHub(ctx, row);
  await ctx.db
    .insertInto('webhook_endpoints')
    .values({ ...row, delivering_node: byHub ? HUB_DELIVERS : thisNode, arrival_mark: lastArrival })
    .execute();
  return {
    ...presentEndpoint({ ...row, delivering_node: byHub ? HUB_DELIVERS : null }),
    secret: row.secret,
  };
}

async function handOverToHub(
  ctx: AppContext,
  row: Pick<
    WebhookEndpointsTable,
    'id' | 'account_id' | 'secret' | 'previous_secret' | 'previous_secret_expires_at'
  >,
): Promise<void> {
  if (!ctx.sync) {
    throw invalidState(
      'This server does not sync, so no hub can deliver its webhooks; leave delivered_by as "node".',
    );
  }
  await ctx.sync.handOverWebhook(row.account_id, row.id, {
    secret: row.secret,
    previous_secret: row.previous_secret,
    previous_secret_expires_at: row.previous_secret_expires_at,
  });
}

export async function listEndpoints(
  ctx: AppContext,
  accountId: string,
  iface: WebhookInterface,
  page: PageRequest,
): Promise<Page<WebhookEndpoint>> {
  return keysetPage(
    page,
    'whk',
    (beforeId, limit) => {
      let q = ctx.db
        .selectFrom('webhook_endpoints')
        .selectAll()
        .where('account_id', '=', accountId)
        .where('interface', '=', iface);
      if (beforeId) q = q.where('id', '<', beforeId);
      return q.orderBy('id', 'desc').limit(limit).execute();
    },
    (rows) => rows.map(presentEndpoint),
  );
}

export async function getEndpoint(
  ctx: AppContext,
  accountId: string,
  iface: WebhookInterface,
  id: string,
): Promise<WebhookEndpoint> {
  return presentEndpoint(await getRow(ctx.db, accountId, iface, id));
}

/** Re-enabling (here or with enableEndpoint) starts the failure count afresh. */
function enabledFields(enabled: boolean, now: string) {
  return enabled
    ? { enabled: 1 as const, disabled_reason: null, disabled_at: null, consecutive_failures: 0 }
    : { enabled: 0 as const, disabled_reason: 'manual' as const, disabled_at: now };
}

export async function updateEndpoint(
  ctx: AppContext,
  accountId: string,
  iface: WebhookInterface,
  id: string,
  patch: WebhookUpdate,
): Promise<WebhookEndpoint> {
  if (patch.url !== undefined) await refuseForbiddenTarget(ctx, accountId, patch.url);
  return ctx.db.transaction().execute(async (tx) => {
    const row = await getRow(tx, accountId, iface, id);
    const now = isoNow(ctx.clock);
    const enabledChanged = patch.enabled !== undefined && patch.enabled !== (row.enabled === 1);
    await tx
      .updateTable('webhook_endpoints')
      .set({
        ...(patch.url !== undefined && { url: patch.url }),
        ...(patch.events !== undefined && { events: JSON.stringify(patch.events) }),
        ...(patch.description !== undefined && { description: patch.description }),
        ...(enabledChanged && enabledFields(patch.enabled!, now)),
        updated_at: now,
      })
      .where('id', '=', row.id)
      .execute();
    return presentEndpoint(await getRow(tx, accountId, iface, id));
  });
}

/** Deletes the endpoint with its deliveries and their history; a delivery in flight finishes unrecorded. */
export async function deleteEndpoint(
  ctx: AppContext,
  accountId: string,
  iface: WebhookInterface,
  id: string,
): Promise<{ id: string; object: 'webhook_endpoint'; deleted: true }> {
  return ctx.db.transaction().execute(async (tx) => {
    const row = await getRow(tx, accountId, iface, id);
    const deliveries = tx.selectFrom('webhook_deliveries').select('id').where('endpoint_id', '=', row.id);
    await tx.deleteFrom('webhook_attempts').where('delivery_id', 'in', deliveries).execute();
    await tx.deleteFrom('webhook_deliveries').where('endpoint_id', '=', row.id).execute();
    await tx.deleteFrom('webhook_endpoints').where('id', '=', row.id).execute();
    return { id: row.id, object: 'webhook_endpoint' as const, deleted: true as const };
  });
}

/** A new signing secret, returned once; for 24 h deliveries are signed with both the new and the old one. */
export async function rotateSecret(
  ctx: AppContext,
  accountId: string,
  iface: WebhookInterface,
  id: string,
): Promise<WebhookEndpointWithSecret> {
  const row = await getRow(ctx.db, accountId, iface, id);
  const rotated = {
    secret: newSecret(SECRET_PREFIXES.webhook),
    previous_secret: row.secret,
    previous_secret_expires_at: toIso(new Date(ctx.clock.now().getTime() + SECRET_ROTATION_GRACE_MS)),
  };
  // Refused while the hub cannot be reached: the receiver would get signatures from an old secret.
  if (row.delivering_node === HUB_DELIVERS) await handOverToHub(ctx, { ...row, ...rotated });
  await ctx.db
    .updateTable('webhook_endpoints')
    .set({ ...rotated, updated_at: isoNow(ctx.clock) })
    .where('id', '=', row.id)
    .execute();
  return { ...presentEndpoint(await getRow(ctx.db, accountId, iface, id)), secret: rotated.secret };
}

/**
 * Turns an endpoint back on after it was disabled (by hand or after 20 consecutive failures).
 * Deliveries that waited while it was off are then sent; enabling an enabled endpoint changes nothing.
 */
export async function enableEndpoint(
  ctx: AppContext,
  accountId: string,
  iface: WebhookInterface,
  id: string,
): Promise<WebhookEndpoint> {
  return updateEndpoint(ctx, accountId, iface, id, { enabled: true });
}

function requireEnabled(row: WebhookEndpointsTable): void {
  if (row.enabled !== 1) {
    throw invalidState(`Webhook endpoint ${row.id} is disabled; enable it first`, {
      disabled_reason: row.disabled_reason,
    });
  }
}

/** Sends a webhook.test event (the endpoint itself as the object) to this endpoint only. */
export async function sendTestEvent(
  ctx: AppContext,
  accountId: string,
  iface: WebhookInterface,
  id: string,
): Promise<WebhookDelivery> {
  const delivery = await ctx.db.transaction().execute(async (tx) => {
    const row = await getRow(tx, accountId, iface, id);
    requireEnabled(row);
    const event = await insertEvent(tx, ctx.clock, accountId, 'webhook.test', presentEndpoint(row));
    return insertDelivery(tx, ctx.clock, row, event);
  });
  ctx.signals.emit('outbox');
  return presentDelivery(delivery, []);
}

/** Sends the event of a past delivery again, once, as a new delivery that keeps its own history. */
export async function redeliver(
  ctx: AppContext,
  accountId: string,
  iface: WebhookInterface,
  endpointId: string,
  deliveryId: string,
): Promise<WebhookDelivery> {
  const delivery = await ctx.db.transaction().execute(async (tx) => {
    const endpoint = await getRow(tx, accountId, iface, endpointId);
    requireEnabled(endpoint);
    const original = await getDeliveryRow(tx, endpoint.id, deliveryId);
    return insertDelivery(
      tx,
      ctx.clock,
      endpoint,
      { id: original.event_id, type: original.event_type },
      { redeliveryOf: original.id },
    );
  });
  ctx.signals.emit('outbox');
  return presentDelivery(delivery, []);
}

async function getDeliveryRow(db: Queryable, endpointId: string, deliveryId: string) {
  const row = await db
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('endpoint_id', '=', endpointId)
    .where('id', '=', deliveryId)
    .executeTakeFirst();
  if (!row) throw notFound(`No delivery ${deliveryId} for webhook endpoint ${endpointId}`);
  return row;
}

function presentDelivery(row: WebhookDeliveriesTable, attempts: WebhookAttempt[]): WebhookDelivery {
  return {
    id: row.id,
    object: 'webhook_delivery',
    endpoint_id: row.endpoint_id,
    event_id: row.event_id,
    event_type: row.event_type,
    status: row.status,
    attempt_count: row.attempts,
    max_attempts: row.max_attempts,
    next_attempt_at: row.next_attempt_at,
    last_response_code: row.last_response_code,
    last_error: row.last_error,
    redelivery_of: row.redelivery_of,
    attempts,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/**
 * Each attempt with what the receiver answered. A v1 key can register any URL, so echoing the
 * answer to it would make Shopdesk a proxy into the owner's network; the portal (the owner) sees it.
 */
async function presentDeliveries(
  db: Queryable,
  iface: WebhookInterface,
  rows: WebhookDeliveriesTable[],
): Promise<WebhookDelivery[]> {
  if (rows.length === 0) return [];
  const attempts = await db
    .selectFrom('webhook_attempts')
    .selectAll()
    .where(
      'delivery_id',
      'in',
      rows.map((r) => r.id),
    )
    .orderBy('delivery_id')
    .orderBy('attempt')
    .execute();
  return rows.map((row) =>
    presentDelivery(
      row,
      attempts
        .filter((a) => a.delivery_id === row.id)
        .map(({ id: _id, delivery_id: _delivery, ...attempt }) => ({
          ...attempt,
          response_body: iface === 'portal' ? attempt.response_body : null,
        })),
    ),
  );
}

/** Delivery history of an endpoint, newest first, each delivery with every attempt. */
export async function listDeliveries(
  ctx: AppContext,
  accountId: string,
  iface: WebhookInterface,
  endpointId: string,
  query: DeliveryListQuery,
): Promise<Page<WebhookDelivery>> {
  const endpoint = await getRow(ctx.db, accountId, iface, endpointId);
  return keysetPage(
    query,
    'dlv',
    (beforeId, limit) => {
      let q = ctx.db.selectFrom('webhook_deliveries').selectAll().where('endpoint_id', '=', endpoint.id);
      if (beforeId) q = q.where('id', '<', beforeId);
      if (query.status) q = q.where('status', '=', query.status);
      if (query.event_id) q = q.where('event_id', '=', query.event_id);
      return q.orderBy('id', 'desc').limit(limit).execute();
    },
    (rows) => presentDeliveries(ctx.db, iface, rows),
  );
}

export async function getDelivery(
  ctx: AppContext,
  accountId: string,
  iface: WebhookInterface,
  endpointId: string,
  deliveryId: string,
  db: Queryable = ctx.db,
): Promise<WebhookDelivery> {
  const endpoint = await getRow(db, accountId, iface, endpointId);
  const [delivery] = await presentDeliveries(db, iface, [await getDeliveryRow(db, endpoint.id, deliveryId)]);
  return delivery!;
}
