/**
 * Which tables are the business (synced) and which belong to one install (device-local), and how
 * each synced table merges. Every table of the schema is in exactly one of the two lists; a test
 * holds new migrations to that.
 */

import { REQUEST_TABLES } from './tables-requests';

/** The pseudo-column that carries a row's deletion; a later re-insert of the same key clears it. */
export const DELETED = '_deleted';

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
   * Columns a device's push may write (docs/sync.md, "What a device may write"): what the owner's
   * session, the API and the install's own work change on any device. A pushed column outside this
   * list and `operator` is refused; the deletion marker is writable unless `operator` names it.
   */
  writable: string[];
  /**
   * Columns only the operator changes (the CLI on the hub's folder): they flow hub → devices, and a
   * push from a paired device that changes them is refused. A row the hub does not hold yet brings
   * them (a business arriving on a hosted hub), and the hub's own install pushes them.
   */
  operator?: string[];
  /**
   * Columns naming another row of the business, with the tables that row may be in: a push whose
   * row names one of another business is refused. `ownedVia` is the one a row without an
   * account_id belongs to its business through: the hub must hold that parent for the business.
   */
  parents?: Record<string, string[]>;
  ownedVia?: string;
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

const DOCUMENTS = ['invoices', 'quotes'];

export const SYNCED_TABLES: SyncedTable[] = [
  {
    name: 'accounts',
    pk: ['id'],
    account: (r) => `${r}.id`,
    // The owner's settings (Settings in the portal) are the config; plans are set by the operator
    // (`shopdesk plan`), and no session removes a business.
    writable: ['id', 'config', 'created_at', 'updated_at'],
    operator: ['plan', 'api_plan', DELETED],
  },
  {
    name: 'customers',
    pk: ['id'],
    account: own,
    naturalKey: 'email_lower',
    writable: [
      'id',
      'account_id',
      'name',
      'email',
      'email_lower',
      'phone',
      'address',
      'created_at',
      'updated_at',
      'deleted_at',
    ],
  },
  {
    name: 'customer_tags',
    pk: ['customer_id', 'tag'],
    account: viaCustomer,
    refs: { customer_id: 'customers' },
    writable: ['customer_id', 'tag'],
    parents: { customer_id: ['customers'] },
    ownedVia: 'customer_id',
  },
  {
    name: 'customer_notes',
    pk: ['id'],
    account: viaCustomer,
    refs: { customer_id: 'customers' },
    writable: ['id', 'customer_id', 'text', 'created_at'],
    parents: { customer_id: ['customers'] },
    ownedVia: 'customer_id',
  },
  {
    name: 'team_members',
    pk: ['id'],
    account: own,
    naturalKey: 'name',
    writable: ['id', 'account_id', 'name', 'created_at', 'deactivated_at'],
  },
  {
    name: 'customer_merges',
    pk: ['from_id'],
    account: own,
    refs: { to_id: 'customers' },
    appendOnly: true,
    recordsMergeOf: 'customers',
    writable: ['from_id', 'account_id', 'to_id', 'merged_at'],
    parents: { to_id: ['customers'] },
  },
  {
    name: 'properties',
    pk: ['id'],
    account: own,
    refs: { customer_id: 'customers' },
    // Archived beats edited: an edit made elsewhere never brings an archived place back.
    ranks: { status: { active: 0, archived: 1 } },
    writable: [
      'id',
      'account_id',
      'customer_id',
      'label',
      'street',
      'unit',
      'city',
      'region',
      'postal_code',
      'country',
      'access_notes',
      'is_default',
      'status',
      'archived_at',
      'created_at',
      'updated_at',
    ],
    parents: { customer_id: ['customers'] },
  },
  {
    name: 'jobs',
    pk: ['id'],
    account: own,
    refs: { customer_id: 'customers' },
    ranks: { status: { unscheduled: 0, scheduled: 0, in_progress: 1, cancelled: 2, completed: 3 } },
    writable: [
      'id',
      'account_id',
      'number',
      'customer_id',
      'title',
      'status',
      'scheduled_start',
      'scheduled_end',
      'address',
      'price_cents',
      'notes',
      'quote_id',
      'booking_id',
      'started_at',
      'completed_at',
      'cancelled_at',
      'created_at',
      'updated_at',
      'plan_id',
      'plan_occurrence',
      'plan_detached',
      'plan_invoice_id',
      'property_id',
    ],
    parents: {
      customer_id: ['customers'],
      quote_id: ['quotes'],
      booking_id: ['bookings'],
      plan_id: ['service_plans'],
      plan_invoice_id: ['invoices'],
      property_id: ['properties'],
    },
  },
  {
    name: 'service_plans',
    pk: ['id'],
    account: own,
    refs: { customer_id: 'customers' },
    ranks: { status: { active: 0, ended: 1 } },
    writable: [
      'id',
      'account_id',
      'customer_id',
      'title',
      'address',
      'price_cents',
      'notes',
      'assignees',
      'frequency',
      'interval',
      'weekdays',
      'month_day',
      'start_date',
      'start_time',
      'end_time',
      'until_date',
      'count',
      'horizon_weeks',
      'holidays',
      'holiday_rule',
      'billing',
      'invoice_delivery',
      'status',
      'ended_at',
      'created_at',
      'updated_at',
      'property_id',
    ],
    parents: { customer_id: ['customers'], property_id: ['properties'] },
  },
  {
    name: 'job_assignees',
    pk: ['job_id', 'member_id'],
    account: (r) => `(SELECT account_id FROM jobs WHERE id = ${r}.job_id)`,
    refs: { member_id: 'team_members' },
    writable: ['job_id', 'member_id'],
    parents: { job_id: ['jobs'], member_id: ['team_members'] },
    ownedVia: 'job_id',
  },
  {
    name: 'bookings',
    pk: ['id'],
    account: own,
    refs: { customer_id: 'customers' },
    ranks: { status: { pending: 0, confirmed: 1, cancelled: 2, no_show: 2, completed: 3 } },
    writable: [
      'id',
      'account_id',
      'customer_id',
      'service',
      'start',
      'end',
      'notes',
      'source',
      'status',
      'job_id',
      'created_at',
      'updated_at',
      'property_id',
    ],
    parents: { customer_id: ['customers'], job_id: ['jobs'], property_id: ['properties'] },
  },
  {
    name: 'quotes',
    pk: ['id'],
    account: own,
    refs: { customer_id: 'customers' },
    derived: ['subtotal_cents', 'tax_total_cents', 'total_cents'],
    ranks: { status: { draft: 0, sent: 1, declined: 2, accepted: 3, converted: 4 } },
    writable: [
      'id',
      'account_id',
      'number',
      'customer_id',
      'status',
      'currency',
      'issue_date',
      'valid_until',
      'notes',
      'sent_at',
      'accepted_at',
      'declined_at',
      'converted_at',
      'job_id',
      'created_at',
      'updated_at',
      'property_id',
    ],
    parents: { customer_id: ['customers'], job_id: ['jobs'], property_id: ['properties'] },
  },
  {
    name: 'invoices',
    pk: ['id'],
    account: own,
    refs: { customer_id: 'customers' },
    derived: ['subtotal_cents', 'tax_total_cents', 'total_cents', 'amount_paid_cents'],
    // Payments decide paid and partially paid (derived); what the owner sets ranks draft < sent < void.
    ranks: { status: { draft: 0, sent: 1, partially_paid: 1, paid: 1, void: 2 } },
    writable: [
      'id',
      'account_id',
      'number',
      'customer_id',
      'status',
      'currency',
      'issue_date',
      'due_date',
      'notes',
      'quote_id',
      'job_id',
      'sent_at',
      'paid_at',
      'voided_at',
      'created_at',
      'updated_at',
      'property_id',
    ],
    parents: {
      customer_id: ['customers'],
      quote_id: ['quotes'],
      job_id: ['jobs'],
      property_id: ['properties'],
    },
  },
  {
    name: 'document_lines',
    pk: ['document_id', 'position'],
    account: viaDocument,
    writable: ['document_id', 'position', 'description', 'quantity', 'unit_price', 'amount_cents'],
    parents: { document_id: DOCUMENTS },
    ownedVia: 'document_id',
  },
  {
    name: 'document_taxes',
    pk: ['document_id', 'position'],
    account: viaDocument,
    derived: ['amount_cents'],
    writable: ['document_id', 'position', 'name', 'rate'],
    parents: { document_id: DOCUMENTS },
    ownedVia: 'document_id',
  },
  {
    name: 'payments',
    pk: ['id'],
    account: own,
    appendOnly: true,
    writable: ['id', 'account_id', 'invoice_id', 'amount_cents', 'method', 'paid_at', 'created_at'],
    parents: { invoice_id: ['invoices'] },
  },
  {
    name: 'reviews',
    pk: ['id'],
    account: own,
    refs: { customer_id: 'customers' },
    writable: [
      'id',
      'account_id',
      'customer_id',
      'job_id',
      'rating',
      'comment',
      'source',
      'received_at',
      'created_at',
      'updated_at',
    ],
    parents: { customer_id: ['customers'], job_id: ['jobs'] },
  },
  {
    name: 'mail_messages',
    pk: ['id'],
    account: own,
    refs: { customer_id: 'customers' },
    // The sending state is written by whichever install sends (docs/sync.md, "Mail").
    writable: [
      'id',
      'account_id',
      'kind',
      'customer_id',
      'document_id',
      'to_address',
      'subject',
      'body',
      'offer',
      'status',
      'attempts',
      'next_attempt_at',
      'last_error',
      'created_at',
      'sent_at',
      'sending_node',
      'cancelled_at',
      'reminder',
      'purpose',
    ],
    parents: { customer_id: ['customers'], document_id: DOCUMENTS },
  },
  ...REQUEST_TABLES,
  {
    name: 'events',
    pk: ['id'],
    account: own,
    appendOnly: true,
    writable: ['id', 'account_id', 'type', 'payload', 'created_at'],
  },
  // Keyed by the occasion, so the hub keeps the first record of it from whichever install queued it.
  {
    name: 'reminder_sends',
    pk: ['kind', 'subject_id', 'occasion'],
    account: own,
    appendOnly: true,
    writable: ['account_id', 'kind', 'subject_id', 'occasion', 'outcome', 'message_id', 'created_at'],
    parents: { message_id: ['mail_messages'] },
  },
  // Keyed by what a decision is about; dealing with it anywhere beats every open copy.
  {
    name: 'decisions',
    pk: ['id'],
    account: own,
    ranks: { status: { open: 0, cleared: 0, resolved: 1 } },
    // Any install that sees the situation raises, clears or resolves it (docs/sync.md, "Decisions").
    writable: [
      'id',
      'account_id',
      'kind',
      'record_type',
      'record_id',
      'message',
      'status',
      'detected_at',
      'resolved_at',
    ],
  },
  // Client hub (docs/client-hub.md): links are checked by the hosted hub from its rows; actions are
  // written by whatever served the page (the hub itself, or an install) and applied by any install.
  {
    name: 'client_links',
    pk: ['id'],
    account: own,
    refs: { customer_id: 'customers' },
    writable: ['id', 'account_id', 'customer_id', 'token_hash', 'created_at', 'expires_at', 'revoked_at'],
    parents: { customer_id: ['customers'] },
  },
  {
    name: 'client_actions',
    pk: ['id'],
    account: own,
    refs: { customer_id: 'customers' },
    // Applied beats refused beats pending: two installs applying it while apart end on one answer.
    ranks: { status: { pending: 0, refused: 1, applied: 2 } },
    writable: [
      'id',
      'account_id',
      'customer_id',
      'link_id',
      'kind',
      'subject_id',
      'payload',
      'ip',
      'created_at',
      'status',
      'outcome',
      'applied_at',
    ],
    parents: { customer_id: ['customers'], link_id: ['client_links'] },
  },
  {
    name: 'webhook_endpoints',
    pk: ['id'],
    account: own,
    // The signing secrets stay on the node that delivers; the failure streak and the place in its
    // own arrival order of events (event_arrivals) are its own too.
    local: [
      'secret',
      'previous_secret',
      'previous_secret_expires_at',
      'consecutive_failures',
      'arrival_mark',
    ],
    // The owner adds, edits, pauses and hands over endpoints; the delivering node disables one.
    writable: [
      'id',
      'account_id',
      'interface',
      'url',
      'description',
      'events',
      'enabled',
      'disabled_reason',
      'disabled_at',
      'created_at',
      'updated_at',
      'delivering_node',
    ],
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
  'customer_figures',
  'number_blocks',
  'sync_node',
  'sync_settings',
  'sync_outbox',
  'sync_clocks',
  'sync_aliases',
  'sync_decision_checks',
  'record_changes',
  'sync_event_fanout',
  'event_arrivals',
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
  'customer_imports',
  'customer_import_rows',
  'kysely_migration',
  'kysely_migration_lock',
];

const byName = new Map(SYNCED_TABLES.map((t) => [t.name, t]));

export function syncedTable(name: string): SyncedTable | undefined {
  return byName.get(name);
}

/** The pull's pseudo-table of merges: pk [table, from_id], values { to_id }. */
/** Columns naming a customer, in every synced table but the merge records: what a customer merge moves. */
export function customerReferences(): Array<{ table: string; column: string; inKey: boolean }> {
  return SYNCED_TABLES.filter((t) => !t.recordsMergeOf).flatMap((table) =>
    Object.entries(table.refs ?? {})
      .filter(([, target]) => target === 'customers')
      .map(([column]) => ({ table: table.name, column, inKey: table.pk.includes(column) })),
  );
}

export const ALIAS_TABLE = '_alias';

/** What a merged-away record never passes to the record it merged into. */
export const IDENTITY_COLUMNS = new Set(['id', 'created_at', '_deleted']);

export function notSent(table: SyncedTable): Set<string> {
  return new Set([...(table.local ?? []), ...(table.derived ?? [])]);
}

/** Columns a device's push may change in a table: its writable list and the deletion marker. */
export function writableColumns(table: SyncedTable): Set<string> {
  const operator = new Set(table.operator ?? []);
  return new Set([...table.writable, DELETED].filter((column) => !operator.has(column)));
}
