import { type Kysely, sql } from 'kysely';

/**
 * Sync between devices (docs/sync.md). Device side: what this install sends and knows; hub side:
 * the business as the hub holds it, when this install is a hub. Capture triggers are not made
 * here: they are generated from the live schema at every start (server/sync/capture.ts), so a
 * later migration that adds a column to a synced table is captured without touching sync.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const statements = [
    // This install as a replica: its node id breaks ties between equal clocks; the offset
    // corrects its wall clock by the hub's, and last_hlc keeps the clock monotonic over restarts.
    `CREATE TABLE sync_node (
      id TEXT PRIMARY KEY,
      last_hlc TEXT NOT NULL DEFAULT '',
      clock_offset_ms INTEGER NOT NULL DEFAULT 0
    )`,
    `INSERT INTO sync_node (id) VALUES (lower(hex(randomblob(6))))`,
    // One row per synced business: its absence means standalone, and capture skips the account.
    // No foreign key: a joining device records its hub before the business (and its account) arrives.
    `CREATE TABLE sync_settings (
      account_id TEXT PRIMARY KEY,
      role TEXT NOT NULL CHECK (role IN ('hub','device')),
      hub_url TEXT,
      hub_fingerprint TEXT,
      device_id TEXT NOT NULL,
      device_code TEXT NOT NULL,
      credential TEXT,
      cursor INTEGER NOT NULL DEFAULT 0,
      last_synced_at TEXT,
      last_attempt_at TEXT,
      last_error TEXT,
      created_at TEXT NOT NULL
    )`,
    // Local changes waiting for the hub, in the order they were made.
    `CREATE TABLE sync_outbox (
      local_seq INTEGER PRIMARY KEY AUTOINCREMENT,
      account_id TEXT NOT NULL,
      tbl TEXT NOT NULL,
      pk TEXT NOT NULL,
      op TEXT NOT NULL CHECK (op IN ('insert','update','delete')),
      vals TEXT,
      changed TEXT,
      hlc TEXT NOT NULL
    )`,
    `CREATE INDEX sync_outbox_row ON sync_outbox(tbl, pk)`,
    // Per-column clocks of rows that sync has touched; a row without one holds the baseline.
    `CREATE TABLE sync_clocks (
      tbl TEXT NOT NULL,
      pk TEXT NOT NULL,
      clocks TEXT NOT NULL,
      PRIMARY KEY (tbl, pk)
    ) WITHOUT ROWID`,
    // Records merged into another by their natural key (two customers with one e-mail).
    `CREATE TABLE sync_aliases (
      tbl TEXT NOT NULL,
      from_id TEXT NOT NULL,
      to_id TEXT NOT NULL,
      PRIMARY KEY (tbl, from_id)
    ) WITHOUT ROWID`,
    `CREATE TABLE sync_conflicts (
      id TEXT PRIMARY KEY,
      account_id TEXT NOT NULL,
      kind TEXT NOT NULL,
      record_type TEXT NOT NULL,
      record_id TEXT NOT NULL,
      message TEXT NOT NULL,
      detected_at TEXT NOT NULL,
      resolved_at TEXT
    )`,
    `CREATE INDEX sync_conflicts_account ON sync_conflicts(account_id, resolved_at)`,
    // Pulled rows that wait for the rest of the business: one whose natural key a local record
    // still holds (its change of key or deletion comes later in hub order, or is not pushed yet).
    `CREATE TABLE sync_deferred (
      account_id TEXT NOT NULL,
      tbl TEXT NOT NULL,
      pk TEXT NOT NULL,
      seq INTEGER NOT NULL,
      state TEXT NOT NULL,
      PRIMARY KEY (account_id, tbl, pk)
    ) WITHOUT ROWID`,
    // Events that arrived from other devices and still wait to be queued for this node's endpoints.
    `CREATE TABLE sync_event_fanout (event_id TEXT PRIMARY KEY) WITHOUT ROWID`,
    // Document numbers leased from the hub: a device issues from its blocks, oldest first.
    `CREATE TABLE number_blocks (
      account_id TEXT NOT NULL,
      series TEXT NOT NULL,
      next_value INTEGER NOT NULL,
      end_value INTEGER NOT NULL,
      PRIMARY KEY (account_id, series, next_value)
    )`,
    // Which install delivers an endpoint's webhooks and sends a message: exactly one per record.
    `ALTER TABLE webhook_endpoints ADD COLUMN delivering_node TEXT`,
    `ALTER TABLE mail_messages ADD COLUMN sending_node TEXT`,

    // The hub's side.
    `CREATE TABLE hub_businesses (
      account_id TEXT PRIMARY KEY,
      last_seq INTEGER NOT NULL DEFAULT 0,
      created_at TEXT NOT NULL
    )`,
    // The resolved business: every row as merged from every device, with its per-column clocks;
    // seq is the hub order of its latest accepted change, which pulls page by.
    `CREATE TABLE hub_rows (
      account_id TEXT NOT NULL,
      tbl TEXT NOT NULL,
      pk TEXT NOT NULL,
      seq INTEGER NOT NULL,
      vals TEXT NOT NULL,
      clocks TEXT NOT NULL,
      natural_key TEXT,
      PRIMARY KEY (account_id, tbl, pk)
    ) WITHOUT ROWID`,
    `CREATE UNIQUE INDEX hub_rows_seq ON hub_rows(account_id, seq)`,
    `CREATE INDEX hub_rows_natural_key ON hub_rows(account_id, tbl, natural_key) WHERE natural_key IS NOT NULL`,
    // Records the hub merged into another by natural key, in hub order, so every device merges alike.
    `CREATE TABLE hub_aliases (
      account_id TEXT NOT NULL,
      tbl TEXT NOT NULL,
      from_id TEXT NOT NULL,
      to_id TEXT NOT NULL,
      PRIMARY KEY (account_id, tbl, from_id)
    ) WITHOUT ROWID`,
    `CREATE TABLE hub_devices (
      id TEXT PRIMARY KEY,
      account_id TEXT NOT NULL,
      name TEXT NOT NULL,
      code TEXT NOT NULL,
      credential_hash TEXT NOT NULL UNIQUE,
      last_local_seq INTEGER NOT NULL DEFAULT 0,
      cursor INTEGER NOT NULL DEFAULT 0,
      created_at TEXT NOT NULL,
      last_seen_at TEXT,
      revoked_at TEXT,
      UNIQUE (account_id, code)
    )`,
    `CREATE TABLE hub_pairing_codes (
      code_hash TEXT PRIMARY KEY,
      account_id TEXT NOT NULL,
      name TEXT,
      created_at TEXT NOT NULL,
      expires_at TEXT NOT NULL,
      used_at TEXT
    )`,
    `CREATE TABLE hub_number_series (
      account_id TEXT NOT NULL,
      series TEXT NOT NULL,
      next_value INTEGER NOT NULL,
      PRIMARY KEY (account_id, series)
    )`,
    `CREATE TABLE hub_number_leases (
      account_id TEXT NOT NULL,
      device_id TEXT NOT NULL,
      series TEXT NOT NULL,
      start_value INTEGER NOT NULL,
      end_value INTEGER NOT NULL,
      created_at TEXT NOT NULL,
      PRIMARY KEY (account_id, series, start_value)
    )`,
  ];
  for (const statement of statements) await sql.raw(statement).execute(db);
}
