import { type Kysely, sql } from 'kysely';

/**
 * Which events a webhook endpoint gets follows the order in which this install learned of them,
 * never a machine's clock (docs/sync.md, "Webhooks and mail once"). Event ids carry the raising
 * machine's time, so a device hours slow raised events that sorted before endpoints made after them.
 *
 * event_arrivals: device-local; an event's place in this install's arrival order, given by a trigger
 * on every insert into `events` (raised here, pulled, or loaded by a first sync) and removed with the
 * event by retention. AUTOINCREMENT, so a number is never handed out twice.
 *
 * webhook_endpoints.arrival_mark: device-local; the last arrival this install held when the endpoint
 * was made here. The endpoint gets the events that arrive after it.
 *
 * Existing events are numbered in id order and existing endpoints marked after the events stamped
 * before them: the rule they were delivered by until now, so nothing is delivered twice or dropped.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const statements = [
    `CREATE TABLE event_arrivals (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      event_id TEXT NOT NULL UNIQUE
    )`,
    'INSERT INTO event_arrivals (event_id) SELECT id FROM events ORDER BY id',
    `CREATE TRIGGER event_arrival AFTER INSERT ON events
      BEGIN INSERT OR IGNORE INTO event_arrivals (event_id) VALUES (NEW.id); END`,
    `CREATE TRIGGER event_departure AFTER DELETE ON events
      BEGIN DELETE FROM event_arrivals WHERE event_id = OLD.id; END`,
    'ALTER TABLE webhook_endpoints ADD COLUMN arrival_mark INTEGER NOT NULL DEFAULT 0',
    `UPDATE webhook_endpoints SET arrival_mark = COALESCE(
      (SELECT max(seq) FROM event_arrivals WHERE substr(event_id, 5) < substr(webhook_endpoints.id, 5)), 0)`,
  ];
  for (const statement of statements) await sql.raw(statement).execute(db);
}
