import { type Kysely, sql } from 'kysely';

/**
 * Rollups for the overview read models (analytics, benchmark, dashboard), kept by triggers so
 * every write path (portal, v1, UI, CLI, imports, future code) keeps them right without knowing
 * they exist, inside the writer's own transaction.
 *
 * Time-stamped measures are summed per 15-minute UTC slot: every UTC offset in use since 1972 is
 * a multiple of 15 minutes, so a local day, week or month in any time zone (St John's at -3:30,
 * Kathmandu at +5:45) is an exact union of slots, and a slot lies within one local date.
 * Invoiced amounts are summed per issue_date, already a local date.
 *
 * The definitions below are this migration's own copy on purpose: a later change to what a
 * rollup holds is a new migration, never an edit here.
 */

type Row = 'new' | 'old';

interface Rollup {
  /** Stem of the trigger names. */
  name: string;
  source: 'payments' | 'invoices' | 'jobs' | 'customers' | 'quotes';
  target: 'overview_slots' | 'overview_days';
  /** Columns of the source row that the rollup reads; an update of any other column leaves it alone. */
  reads: string[];
  /** The slot or day a row counts in, as SQL over the row's columns. */
  key: (r: Row) => string;
  /** Whether a row counts at all. */
  counts: (r: Row) => string;
  /** What one row adds to each rollup column. */
  adds: Record<string, (r: Row) => string>;
}

/** The 15-minute UTC slot of an ISO timestamp 'YYYY-MM-DDTHH:MM:SSZ', as 'YYYY-MM-DDTHH:MM:00Z'. */
function slotOf(timestamp: string): string {
  const minute = `substr(${timestamp}, 15, 2)`;
  return `substr(${timestamp}, 1, 14) || CASE WHEN ${minute} < '15' THEN '00' WHEN ${minute} < '30' THEN '15' WHEN ${minute} < '45' THEN '30' ELSE '45' END || ':00Z'`;
}

const decidedAt = (r: Row) => `coalesce(${r}.accepted_at, ${r}.converted_at, ${r}.declined_at)`;

const ROLLUPS: Rollup[] = [
  {
    name: 'payments',
    source: 'payments',
    target: 'overview_slots',
    reads: ['account_id', 'paid_at', 'amount_cents'],
    key: (r) => slotOf(`${r}.paid_at`),
    counts: () => '1',
    adds: { payments_cents: (r) => `${r}.amount_cents`, payments: () => '1' },
  },
  {
    name: 'invoices_issued',
    source: 'invoices',
    target: 'overview_days',
    reads: ['account_id', 'issue_date', 'status', 'total_cents'],
    key: (r) => `${r}.issue_date`,
    counts: (r) => `${r}.status <> 'void'`,
    adds: { invoiced_cents: (r) => `${r}.total_cents`, invoices: () => '1' },
  },
  {
    // Days from issue to the UTC date of payment; readers shift each slot to its local date.
    name: 'invoices_paid',
    source: 'invoices',
    target: 'overview_slots',
    reads: ['account_id', 'paid_at', 'status', 'issue_date'],
    key: (r) => slotOf(`${r}.paid_at`),
    counts: (r) => `${r}.status = 'paid' AND ${r}.paid_at IS NOT NULL`,
    adds: {
      invoices_paid: () => '1',
      invoice_days_to_pay: (r) =>
        `coalesce(CAST(julianday(substr(${r}.paid_at, 1, 10)) - julianday(${r}.issue_date) AS INTEGER), 0)`,
    },
  },
  {
    name: 'jobs_completed',
    source: 'jobs',
    target: 'overview_slots',
    reads: ['account_id', 'status', 'completed_at'],
    key: (r) => slotOf(`${r}.completed_at`),
    counts: (r) => `${r}.status = 'completed' AND ${r}.completed_at IS NOT NULL`,
    adds: { jobs_completed: () => '1' },
  },
  {
    name: 'customers_created',
    source: 'customers',
    target: 'overview_slots',
    reads: ['account_id', 'created_at'],
    key: (r) => slotOf(`${r}.created_at`),
    counts: () => '1',
    adds: { new_customers: () => '1' },
  },
  {
    // A converted quote was accepted first; it counts as accepted, at its acceptance time.
    name: 'quotes_decided',
    source: 'quotes',
    target: 'overview_slots',
    reads: ['account_id', 'status', 'accepted_at', 'converted_at', 'declined_at'],
    key: (r) => slotOf(decidedAt(r)),
    counts: (r) => `${r}.status IN ('accepted', 'converted', 'declined') AND ${decidedAt(r)} IS NOT NULL`,
    adds: {
      quotes_accepted: (r) => `CASE WHEN ${r}.status IN ('accepted', 'converted') THEN 1 ELSE 0 END`,
      quotes_declined: (r) => `CASE WHEN ${r}.status = 'declined' THEN 1 ELSE 0 END`,
    },
  },
];

const KEY_COLUMN = { overview_slots: 'slot', overview_days: 'day' } as const;

/** Adds (sign 1) or takes back (sign -1) one row's contribution. */
function apply(rollup: Rollup, r: Row, sign: 1 | -1): string {
  const columns = Object.keys(rollup.adds);
  const values = Object.values(rollup.adds).map((add) => (sign === 1 ? add(r) : `-(${add(r)})`));
  const key = KEY_COLUMN[rollup.target];
  // The WHERE also settles SQLite's parsing ambiguity between a SELECT and an upsert's ON.
  return `INSERT INTO ${rollup.target} (account_id, ${key}, ${columns.join(', ')})
    SELECT ${r}.account_id, ${rollup.key(r)}, ${values.join(', ')} WHERE ${rollup.counts(r)}
    ON CONFLICT (account_id, ${key}) DO UPDATE SET ${columns.map((c) => `${c} = ${c} + excluded.${c}`).join(', ')};`;
}

function triggers(rollup: Rollup): string[] {
  const stem = `${rollup.name}_rollup`;
  // Compares what the row contributes rather than its columns: a payment moving an invoice from
  // sent to partially_paid changes its status but not what it adds to the invoiced rollup.
  const inputs = [(r: Row) => `${r}.account_id`, rollup.key, rollup.counts, ...Object.values(rollup.adds)];
  const changed = inputs.map((input) => `(${input('old')}) IS NOT (${input('new')})`).join(' OR ');
  return [
    `CREATE TRIGGER ${stem}_insert AFTER INSERT ON ${rollup.source} BEGIN ${apply(rollup, 'new', 1)} END`,
    `CREATE TRIGGER ${stem}_delete AFTER DELETE ON ${rollup.source} BEGIN ${apply(rollup, 'old', -1)} END`,
    `CREATE TRIGGER ${stem}_update AFTER UPDATE OF ${rollup.reads.join(', ')} ON ${rollup.source}
      WHEN ${changed}
      BEGIN ${apply(rollup, 'old', -1)} ${apply(rollup, 'new', 1)} END`,
  ];
}

/** One set-based statement per rollup sums the rows already there (`where`: which of them). */
function backfill(rollup: Rollup, where = '1'): string {
  const columns = Object.keys(rollup.adds);
  const row = rollup.source as Row;
  const key = KEY_COLUMN[rollup.target];
  const sums = Object.values(rollup.adds).map((add) => `sum(${add(row)})`);
  return `INSERT INTO ${rollup.target} (account_id, ${key}, ${columns.join(', ')})
    SELECT account_id, ${rollup.key(row)} AS rollup_key, ${sums.join(', ')}
    FROM ${rollup.source} WHERE (${where}) AND ${rollup.counts(row)}
    GROUP BY account_id, rollup_key
    ON CONFLICT (account_id, ${key}) DO UPDATE SET ${columns.map((c) => `${c} = ${c} + excluded.${c}`).join(', ')}`;
}

/**
 * The statements that sum the rollups from the rows of the sources that `where` picks (SQL over
 * the source's columns), adding to what is there: a bulk load that wrote its rows with these
 * triggers set aside (db/overview-rollups.ts).
 */
export function rollupSums(where: string): string[] {
  return ROLLUPS.map((rollup) => backfill(rollup, where));
}

export async function up(db: Kysely<unknown>): Promise<void> {
  const statements = [
    `CREATE TABLE overview_slots (
      account_id TEXT NOT NULL,
      slot TEXT NOT NULL,
      payments_cents INTEGER NOT NULL DEFAULT 0,
      payments INTEGER NOT NULL DEFAULT 0,
      invoices_paid INTEGER NOT NULL DEFAULT 0,
      invoice_days_to_pay INTEGER NOT NULL DEFAULT 0,
      jobs_completed INTEGER NOT NULL DEFAULT 0,
      new_customers INTEGER NOT NULL DEFAULT 0,
      quotes_accepted INTEGER NOT NULL DEFAULT 0,
      quotes_declined INTEGER NOT NULL DEFAULT 0,
      PRIMARY KEY (account_id, slot)
    ) WITHOUT ROWID`,
    `CREATE TABLE overview_days (
      account_id TEXT NOT NULL,
      day TEXT NOT NULL,
      invoiced_cents INTEGER NOT NULL DEFAULT 0,
      invoices INTEGER NOT NULL DEFAULT 0,
      PRIMARY KEY (account_id, day)
    ) WITHOUT ROWID`,
    ...ROLLUPS.map((rollup) => backfill(rollup)),
    ...ROLLUPS.flatMap(triggers),
  ];
  for (const statement of statements) await sql.raw(statement).execute(db);
}
