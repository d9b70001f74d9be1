import type { Pool } from 'pg';
import { newId } from '../../lib/ids';
import type { RowState } from '../merge';
import type { ClaimedDelivery, HubDelivery, HubDeliveryStorage } from './webhook-deliveries';

/**
 * Hub-owned webhook deliveries in PostgreSQL (webhook-deliveries.ts), shared by every hub process
 * on the database: a delivery is queued once per (endpoint, event) by a unique key, and claimed
 * with FOR UPDATE SKIP LOCKED, so two processes never take the same one.
 */
export function pgHubDeliveries(pool: Pool): HubDeliveryStorage {
  return {
    handOver: async (accountId, endpointId, secrets, now) => {
      await pool.query(
        `INSERT INTO hub_webhook_endpoints
           (account_id, endpoint_id, secret, previous_secret, previous_secret_expires_at, updated_at, queued_through)
         VALUES ($1, $2, $3, $4, $5, $6, COALESCE((SELECT last_seq FROM hub_businesses WHERE account_id = $1), 0))
         ON CONFLICT (account_id, endpoint_id) DO UPDATE SET secret = excluded.secret,
           previous_secret = excluded.previous_secret,
           previous_secret_expires_at = excluded.previous_secret_expires_at, updated_at = excluded.updated_at`,
        [
          accountId,
          endpointId,
          secrets.secret,
          secrets.previous_secret,
          secrets.previous_secret_expires_at,
          now,
        ],
      );
    },
    handedEndpoints: async () =>
      (
        await pool.query<{
          account_id: string;
          endpoint_id: string;
          secret: string;
          previous_secret: string | null;
          previous_secret_expires_at: string | null;
          queued_through: string;
          vals: string | null;
          clocks: string | null;
        }>(
          `SELECT e.account_id, e.endpoint_id, e.secret, e.previous_secret, e.previous_secret_expires_at,
             e.queued_through, r.vals, r.clocks
           FROM hub_webhook_endpoints e
           LEFT JOIN hub_rows r ON r.account_id = e.account_id AND r.tbl = 'webhook_endpoints'
             AND r.pk = '["' || e.endpoint_id || '"]'
           ORDER BY e.account_id, e.endpoint_id`,
        )
      ).rows.map(({ vals, clocks, queued_through, ...rest }) => ({
        ...rest,
        queued_through: Number(queued_through),
        state: stateOf(vals, clocks),
      })),
    eventsAfter: async (accountId, seq, limit) =>
      (
        await pool.query<{ seq: string; vals: string; clocks: string }>(
          `SELECT seq, vals, clocks FROM hub_rows WHERE account_id = $1 AND seq > $2 AND tbl = 'events'
           ORDER BY seq LIMIT $3`,
          [accountId, seq, limit],
        )
      ).rows.map((r) => ({ seq: Number(r.seq), state: stateOf(r.vals, r.clocks)! })),
    queue: async (accountId, endpointId, deliveries, through, now) => {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        await client.query(
          `INSERT INTO hub_webhook_deliveries
             (id, account_id, endpoint_id, event_id, event_type, status, max_attempts, next_attempt_at, created_at, updated_at)
           SELECT id, $1, $2, event_id, event_type, 'pending', max_attempts, $3, $3, $3
           FROM unnest($4::text[], $5::text[], $6::text[], $7::int[]) AS q(id, event_id, event_type, max_attempts)
           ON CONFLICT (endpoint_id, event_id) DO NOTHING`,
          [
            accountId,
            endpointId,
            now,
            deliveries.map(() => newId('dlv')),
            deliveries.map((d) => d.event_id),
            deliveries.map((d) => d.event_type),
            deliveries.map((d) => d.max_attempts),
          ],
        );
        await client.query(
          `UPDATE hub_webhook_endpoints SET queued_through = GREATEST(queued_through, $3)
           WHERE account_id = $1 AND endpoint_id = $2`,
          [accountId, endpointId, through],
        );
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {});
        throw error;
      } finally {
        client.release();
      }
    },
    claim: async (due, claimUntil, max) => {
      const { rows } = await pool.query<DeliveryRow & ClaimRow>(
        `WITH claimed AS (
           UPDATE hub_webhook_deliveries SET status = 'sending', next_attempt_at = $2
           WHERE id IN (
             SELECT id FROM hub_webhook_deliveries
             WHERE status IN ('pending', 'sending') AND next_attempt_at <= $1
             ORDER BY next_attempt_at, id LIMIT $3
             FOR UPDATE SKIP LOCKED)
           RETURNING *)
         SELECT c.*, e.secret, e.previous_secret, e.previous_secret_expires_at,
           ep.vals AS endpoint_vals, ep.clocks AS endpoint_clocks,
           ev.vals AS event_vals, ev.clocks AS event_clocks,
           ac.vals AS account_vals, ac.clocks AS account_clocks
         FROM claimed c
         JOIN hub_webhook_endpoints e ON e.account_id = c.account_id AND e.endpoint_id = c.endpoint_id
         LEFT JOIN hub_rows ep ON ep.account_id = c.account_id AND ep.tbl = 'webhook_endpoints'
           AND ep.pk = '["' || c.endpoint_id || '"]'
         LEFT JOIN hub_rows ev ON ev.account_id = c.account_id AND ev.tbl = 'events'
           AND ev.pk = '["' || c.event_id || '"]'
         LEFT JOIN hub_rows ac ON ac.account_id = c.account_id AND ac.tbl = 'accounts'
           AND ac.pk = '["' || c.account_id || '"]'`,
        [due, claimUntil, max],
      );
      return rows.map(toClaimed);
    },
    record: async (id, outcome) =>
      ((
        await pool.query(
          `UPDATE hub_webhook_deliveries SET status = $2, attempts = $3, next_attempt_at = $4,
             last_response_code = $5, last_error = $6, updated_at = $7
           WHERE id = $1 AND status = 'sending'`,
          [
            id,
            outcome.status,
            outcome.attempts,
            outcome.next_attempt_at,
            outcome.response_code,
            outcome.error,
            outcome.now,
          ],
        )
      ).rowCount ?? 0) > 0,
    deliveries: async (accountId, endpointId) =>
      (
        await pool.query<DeliveryRow>(
          `SELECT ${DELIVERY_COLUMNS} FROM hub_webhook_deliveries
           WHERE account_id = $1 AND endpoint_id = $2 ORDER BY event_id`,
          [accountId, endpointId],
        )
      ).rows.map(toDelivery),
  };
}

const DELIVERY_COLUMNS =
  'id, account_id, endpoint_id, event_id, event_type, status, attempts, max_attempts, next_attempt_at, last_response_code, last_error';

type DeliveryRow = HubDelivery;

interface ClaimRow {
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: string | null;
  endpoint_vals: string | null;
  endpoint_clocks: string | null;
  event_vals: string | null;
  event_clocks: string | null;
  account_vals: string | null;
  account_clocks: string | null;
}

export function stateOf(vals: string | null, clocks: string | null): RowState | undefined {
  return vals === null || clocks === null ? undefined : { v: JSON.parse(vals), c: JSON.parse(clocks) };
}

export function toDelivery(row: DeliveryRow): HubDelivery {
  return {
    id: row.id,
    account_id: row.account_id,
    endpoint_id: row.endpoint_id,
    event_id: row.event_id,
    event_type: row.event_type,
    status: row.status,
    attempts: Number(row.attempts),
    max_attempts: Number(row.max_attempts),
    next_attempt_at: row.next_attempt_at,
    last_response_code: row.last_response_code === null ? null : Number(row.last_response_code),
    last_error: row.last_error,
  };
}

export function toClaimed(row: DeliveryRow & ClaimRow): ClaimedDelivery {
  return {
    ...toDelivery(row),
    secret: row.secret,
    previous_secret: row.previous_secret,
    previous_secret_expires_at: row.previous_secret_expires_at,
    endpoint: stateOf(row.endpoint_vals, row.endpoint_clocks),
    event: stateOf(row.event_vals, row.event_clocks),
    account: stateOf(row.account_vals, row.account_clocks),
  };
}
