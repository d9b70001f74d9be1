/**
 * Which tables are the business (synced) and which belong to one install (device-local), and how
 * each synced table merges. Every table of the schema is in exactly one of the two lists; a test
 * holds new migrations to that.
 */

export interface SyncedTable {
  name: string;
  /** Primary-key columns, in order; a row's key on the wire is the JSON array of their values. */
  pk: string[];
  /** SQL giving the row's account from the trigger row `R` (NEW or OLD). */
  account: (r: string) => string;
  /** Columns never sent: device-local state and secrets. Recomputed ones are in `derived`. */
  local?: string[];
  /** Columns recomputed from synced rows after every apply (totals, balances), never sent. */
  derived?: string[];
  /** Status columns merged by rank first, then by clock (docs/sync.md, "Statuses"). */
  ranks?: Record<string, Record<string, number>>;
  /** Columns holding the id of a customer or team member, followed through merged records. */
  refs?: Record<string, 'customers' | 'team_members'>;
  /** Rows may only be added: the hub keeps the first state of a row and ignores later changes. */
  appendOnly?: boolean;
  /**
   * A column no two live rows of an account may share (a customer's e-mail). When a second one
   * reaches the hub, the hub merges it into the first and tells every device (docs/sync.md).
   */
  naturalKey?: string;
  /**
   * Each row records an owner's merge of one record of this table into another (columns from_id,
   * to_id): the hub writes the alias an e-mail merge writes, so every device makes the same merge.
   */
  recordsMergeOf?: 'customers';
}

const own = (r: string) => `${r}.account_id`;
const viaCustomer = (r: string) => `(SELECT account_id FROM customers WHERE id = ${r}.customer_id)`;
const viaDocument = (r: string) =>
  `coalesce((SELECT account_id FROM invoices WHERE id = ${r}.document_id), (SELECT account_id FROM quotes WHERE id = ${r}.document_id))`;

export const SYNCED_TABLES: SyncedTable[] = [
  { name: 'accounts', pk: ['id'], account: (r) => `${r}.id` },
  { name: 'customers', pk: ['id'], account: own, naturalKey: 'email_lower' },
  {
    name: 'customer_tags',
    pk: ['customer_id', 'tag'],
    account: viaCustomer,
    refs: { customer_id: 'customers' },
  },
  { name: 'customer_notes', pk: ['id'], account: viaCustomer, refs: { customer_id: 'customers' } },
  {
    name: 'customer_merges',
    pk: ['from_id'],
    account: own,
    refs: { to_id: 'customers' },
    appendOnly: true,
    recordsMergeOf: 'customers',
  },
  {
    name: 'properties',
    pk: ['id'],
    account: own,
    refs: { customer_id: 'customers' },
    // Archived beats edited: an edit made elsewhere never brings an archived place back.
    ranks: { status: { active: 0, archived: 1 } },
  },
  { name: 'team_members', pk: ['id'], account: own, naturalKey: 'name' },
  {
    name: 'jobs',
    pk: ['id'],
    account: own,
    refs: { customer_id: 'customers' },
    ranks: { status: { unscheduled: 0, scheduled: 0, in_progress: 1, cancelled: 2, completed: 3 } },
  },
  {
    name: 'service_plans',
    pk: ['id'],
    account: own,
    refs: { customer_id: 'customers' },
    ranks: { status: { active: 0, ended: 1 } },
  },
  {
    name: 'job_assignees',
    pk: ['job_id', 'member_id'],
    account: (r) => `(SELECT account_id FROM jobs WHERE id = ${r}.job_id)`,
    refs: { member_id: 'team_members' },
  },
  {
    name: 'bookings',
    pk: ['id'],
    account: own,
    refs: { customer_id: 'customers' },
    ranks: { status: { pending: 0, confirmed: 1, cancelled: 2, no_show: 2, completed: 3 } },
  },
  {
    name: 'quotes',
    pk: ['id'],
    account: own,
    refs: { customer_id: 'customers' },
    derived: ['subtotal_cents', 'tax_total_cents', 'total_cents'],
    ranks: { status: { draft: 0, sent: 1, declined: 2, accepted: 3, converted: 4 } },
  },
  {
    name: 'invoices',
    pk: ['id'],
    account: own,
    refs: { customer_id: 'customers' },
    derived: ['subtotal_cents', 'tax_total_cents', 'total_cents', 'amount_paid_cents'],
    // Payments decide paid and partially paid (derived); what the owner sets ranks draft < sent < void.
    ranks: { status: { draft: 0, sent: 1, partially_paid: 1, paid: 1, void: 2 } },
  },
  { name: 'document_lines', pk: ['document_id', 'position'], account: viaDocument },
  {
    name: 'document_taxes',
    pk: ['document_id', 'position'],
    account: viaDocument,
    derived: ['amount_cents'],
  },
  { name: 'payments', pk: ['id'], account: own, appendOnly: true },
  { name: 'reviews', pk: ['id'], account: own, refs: { customer_id: 'customers' } },
  { name: 'mail_messages', pk: ['id'], account: own, refs: { customer_id: 'customers' } },
  { name: 'events', pk: ['id'], account: own, appendOnly: true },
  // Keyed by the occasion, so the hub keeps the first record of it from whichever install queued it.
  { name: 'reminder_sends', pk: ['kind', 'subject_id', 'occasion'], account: own, appendOnly: true },
  {
    name: 'webhook_endpoints',
    pk: ['id'],
    account: own,
    // The signing secrets stay on the node that delivers; the failure streak is its own too.
    local: ['secret', 'previous_secret', 'previous_secret_expires_at', 'consecutive_failures'],
  },
];

/** Tables of one install: credentials, caches, delivery state, rollups, sync's own bookkeeping. */
export const DEVICE_LOCAL_TABLES = [
  'counters',
  'api_keys',
  'api_key_secrets',
  'sign_in_links',
  'sessions',
  'idempotency_keys',
  'rate_limit_windows',
  'webhook_deliveries',
  'webhook_attempts',
  'overview_slots',
  'overview_days',
  'number_blocks',
  'sync_node',
  'sync_settings',
  'sync_outbox',
  'sync_clocks',
  'sync_aliases',
  'sync_conflicts',
  'sync_event_fanout',
  'sync_deferred',
  'hub_businesses',
  'hub_rows',
  'hub_aliases',
  'hub_devices',
  'hub_pairing_codes',
  'hub_number_series',
  'hub_number_leases',
  'hub_webhook_endpoints',
  'hub_webhook_deliveries',
  'kysely_migration',
  'kysely_migration_lock',
];

const byName = new Map(SYNCED_TABLES.map((t) => [t.name, t]));

export function syncedTable(name: string): SyncedTable | undefined {
  return byName.get(name);
}

/** The pull's pseudo-table of merges: pk [table, from_id], values { to_id }. */
export const ALIAS_TABLE = '_alias';

/** What a merged-away record never passes to the record it merged into. */
export const IDENTITY_COLUMNS = new Set(['id', 'created_at', '_deleted']);

/** The pseudo-column that carries a row's deletion; a later re-insert of the same key clears it. */
export const DELETED = '_deleted';

export function notSent(table: SyncedTable): Set<string> {
  return new Set([...(table.local ?? []), ...(table.derived ?? [])]);
}
