import type SQLite from 'better-sqlite3-multiple-ciphers';
import type { Db } from '../../db/database';
import { newId } from '../../lib/ids';
import { exclusive } from '../exclusive';
import { stateOf, toClaimed, toDelivery } from './pg-deliveries';
import type { HubDeliveryStorage } from './webhook-deliveries';

/**
 * Hub-owned webhook deliveries in the install's SQLite (migration 0011), the same contract as
 * PostgreSQL's (pg-deliveries.ts). One process writes the file at a time, so a claim is one
 * immediate transaction.
 */
export function sqliteHubDeliveries(db: Db, sqlite: SQLite.Database): HubDeliveryStorage {
  const run = <T>(fn: () => T) => exclusive({ db, sqlite }, () => sqlite.transaction(fn).immediate());
  return {
    handOver: (accountId, endpointId, secrets, now) =>
      run(() => {
        sqlite
          .prepare(
            `INSERT INTO hub_webhook_endpoints
               (account_id, endpoint_id, secret, previous_secret, previous_secret_expires_at, updated_at, queued_through)
             VALUES (?, ?, ?, ?, ?, ?, COALESCE((SELECT last_seq FROM hub_businesses WHERE account_id = ?), 0))
             ON CONFLICT (account_id, endpoint_id) DO UPDATE SET secret = excluded.secret,
               previous_secret = excluded.previous_secret,
               previous_secret_expires_at = excluded.previous_secret_expires_at, updated_at = excluded.updated_at`,
          )
          .run(
            accountId,
            endpointId,
            secrets.secret,
            secrets.previous_secret,
            secrets.previous_secret_expires_at,
            now,
            accountId,
          );
      }),
    handedEndpoints: () =>
      run(() =>
        (
          sqlite
            .prepare(
              `SELECT e.account_id, e.endpoint_id, e.secret, e.previous_secret, e.previous_secret_expires_at,
                 e.queued_through, r.vals, r.clocks
               FROM hub_webhook_endpoints e
               LEFT JOIN hub_rows r ON r.account_id = e.account_id AND r.tbl = 'webhook_endpoints'
                 AND r.pk = '["' || e.endpoint_id || '"]'
               ORDER BY e.account_id, e.endpoint_id`,
            )
            .all() as Array<{
            account_id: string;
            endpoint_id: string;
            secret: string;
            previous_secret: string | null;
            previous_secret_expires_at: string | null;
            queued_through: number;
            vals: string | null;
            clocks: string | null;
          }>
        ).map(({ vals, clocks, ...rest }) => ({ ...rest, state: stateOf(vals, clocks) })),
      ),
    eventsAfter: (accountId, seq, limit) =>
      run(() =>
        (
          sqlite
            .prepare(
              `SELECT seq, vals, clocks FROM hub_rows WHERE account_id = ? AND seq > ? AND tbl = 'events'
               ORDER BY seq LIMIT ?`,
            )
            .all(accountId, seq, limit) as Array<{ seq: number; vals: string; clocks: string }>
        ).map((r) => ({ seq: r.seq, state: stateOf(r.vals, r.clocks)! })),
      ),
    queue: (accountId, endpointId, deliveries, through, now) =>
      run(() => {
        const insert = sqlite.prepare(
          `INSERT INTO hub_webhook_deliveries
             (id, account_id, endpoint_id, event_id, event_type, status, max_attempts, next_attempt_at, created_at, updated_at)
           VALUES (?, ?, ?, ?, ?, 'pending', ?, ?, ?, ?)
           ON CONFLICT (endpoint_id, event_id) DO NOTHING`,
        );
        for (const d of deliveries) {
          insert.run(
            newId('dlv'),
            accountId,
            endpointId,
            d.event_id,
            d.event_type,
            d.max_attempts,
            now,
            now,
            now,
          );
        }
        sqlite
          .prepare(
            `UPDATE hub_webhook_endpoints SET queued_through = MAX(queued_through, ?)
             WHERE account_id = ? AND endpoint_id = ?`,
          )
          .run(through, accountId, endpointId);
      }),
    claim: (due, claimUntil, max) =>
      run(() => {
        const ids = (
          sqlite
            .prepare(
              `SELECT id FROM hub_webhook_deliveries
               WHERE status IN ('pending', 'sending') AND next_attempt_at <= ?
               ORDER BY next_attempt_at, id LIMIT ?`,
            )
            .all(due, max) as Array<{ id: string }>
        ).map((r) => r.id);
        const mark = sqlite.prepare(
          `UPDATE hub_webhook_deliveries SET status = 'sending', next_attempt_at = ? WHERE id = ?`,
        );
        const read = sqlite.prepare(
          `SELECT c.*, e.secret, e.previous_secret, e.previous_secret_expires_at,
             ep.vals AS endpoint_vals, ep.clocks AS endpoint_clocks,
             ev.vals AS event_vals, ev.clocks AS event_clocks,
             ac.vals AS account_vals, ac.clocks AS account_clocks
           FROM hub_webhook_deliveries c
           JOIN hub_webhook_endpoints e ON e.account_id = c.account_id AND e.endpoint_id = c.endpoint_id
           LEFT JOIN hub_rows ep ON ep.account_id = c.account_id AND ep.tbl = 'webhook_endpoints'
             AND ep.pk = '["' || c.endpoint_id || '"]'
           LEFT JOIN hub_rows ev ON ev.account_id = c.account_id AND ev.tbl = 'events'
             AND ev.pk = '["' || c.event_id || '"]'
           LEFT JOIN hub_rows ac ON ac.account_id = c.account_id AND ac.tbl = 'accounts'
             AND ac.pk = '["' || c.account_id || '"]'
           WHERE c.id = ?`,
        );
        return ids.map((id) => {
          mark.run(claimUntil, id);
          return toClaimed(read.get(id) as Parameters<typeof toClaimed>[0]);
        });
      }),
    record: (id, outcome) =>
      run(
        () =>
          sqlite
            .prepare(
              `UPDATE hub_webhook_deliveries SET status = ?, attempts = ?, next_attempt_at = ?,
                 last_response_code = ?, last_error = ?, updated_at = ?
               WHERE id = ? AND status = 'sending'`,
            )
            .run(
              outcome.status,
              outcome.attempts,
              outcome.next_attempt_at,
              outcome.response_code,
              outcome.error,
              outcome.now,
              id,
            ).changes > 0,
      ),
    deliveries: (accountId, endpointId) =>
      run(() =>
        (
          sqlite
            .prepare(
              `SELECT * FROM hub_webhook_deliveries WHERE account_id = ? AND endpoint_id = ? ORDER BY event_id`,
            )
            .all(accountId, endpointId) as Array<Parameters<typeof toDelivery>[0]>
        ).map(toDelivery),
      ),
  };
}
