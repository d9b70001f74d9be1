import { fromCents, MONEY_DECIMALS } from '../../../shared/money';
import { DELETED } from '../synced-table';
import { settleDefaultPlace } from './default-place';
import type { LocalState } from './local-state';

/**
 * What the merge rules cannot settle, for the owner (docs/sync.md, "Decisions and history").
 * Applying a pulled page only notes the records it touched; they are checked once the pull has
 * caught up with the hub, on the whole state, since a page is a slice of hub order in which a
 * payment comes before the invoice it changed. A decision is a synced row keyed by what it is
 * about, written as an ordinary (captured) write, so every machine lists the same ones.
 */

export interface Touched {
  documents: Set<string>;
  jobs: Set<string>;
  quotes: Set<string>;
  /** Customers deleted by the page: the records naming them may have lost their customer. */
  deletedCustomers: Set<string>;
  /** Customers whose places the page changed: they keep one default (device/default-place.ts). */
  placeOwners: Set<string>;
}

/** Notes the records a page touched, to be checked when the pull has caught up. */
export function noteForDecisions(local: LocalState, accountId: string, touched: Touched): void {
  const note = local.statement(
    'INSERT OR IGNORE INTO sync_decision_checks (account_id, record_type, record_id) VALUES (?, ?, ?)',
  );
  for (const id of touched.documents) note.run(accountId, id.startsWith('inv_') ? 'invoice' : 'quote', id);
  for (const id of touched.quotes) note.run(accountId, 'quote', id);
  for (const id of touched.jobs) note.run(accountId, 'job', id);
  for (const id of touched.placeOwners) note.run(accountId, PLACES, id);
  for (const customer of touched.deletedCustomers) {
    for (const [type, table] of [
      ['invoice', 'invoices'],
      ['quote', 'quotes'],
      ['job', 'jobs'],
    ] as const) {
      local
        .statement(
          `INSERT OR IGNORE INTO sync_decision_checks (account_id, record_type, record_id)
           SELECT account_id, '${type}', id FROM ${table} WHERE customer_id = ?`,
        )
        .run(customer);
    }
  }
}

/** The check of a customer's places, noted beside the records checked for decisions. */
const PLACES = 'places';

interface Finding {
  kind: string;
  when: boolean;
  message: string;
}

/**
 * Checks every noted record against the rows as they stand and writes the decisions that changed;
 * returns how many rows it wrote. Call in a transaction, with capture on.
 */
export function checkDecisions(local: LocalState, accountId: string, now: string): number {
  const noted = local
    .statement('SELECT record_type, record_id FROM sync_decision_checks WHERE account_id = ?')
    .all(accountId) as Array<{ record_type: 'invoice' | 'quote' | 'job' | typeof PLACES; record_id: string }>;
  let written = 0;
  for (const { record_type, record_id } of noted) {
    if (record_type === PLACES) {
      written += settleDefaultPlace(local, record_id, now);
      continue;
    }
    for (const finding of findings(local, record_type, record_id))
      written += decide(local, accountId, record_type, record_id, finding, now);
  }
  local.statement('DELETE FROM sync_decision_checks WHERE account_id = ?').run(accountId);
  return written;
}

/** Whether the row of `table` with this id was deleted (a tombstone), not merely not here yet. */
function wasDeleted(local: LocalState, table: string, id: unknown): boolean {
  return local.clocks(table, JSON.stringify([id]))[DELETED] !== undefined;
}

/** What the rows of a record that stands can show, by the record's type (see `findings`). */
const STANDING = {
  invoice: ['customer_deleted', 'overpaid_invoice', 'paid_invoice_voided'],
  quote: ['customer_deleted', 'quote_accepted_and_declined'],
  job: ['customer_deleted', 'job_completed_and_cancelled'],
} as const;

function findings(local: LocalState, type: 'invoice' | 'quote' | 'job', id: string): Finding[] {
  const table = `${type}s`;
  const row = local.statement(`SELECT * FROM ${table} WHERE id = ?`).get(id) as
    | Record<string, unknown>
    | undefined;
  if (!row) {
    // A decision listed while the record stood (a paid invoice voided, then deleted as a draft on
    // another device) names a record the owner can no longer open: it is cleared, and a paid
    // invoice's deletion is listed on its own.
    const gone = STANDING[type].map((kind) => ({ kind, when: false, message: '' }));
    if (type !== 'invoice') return gone;
    const paid = local.statement('SELECT count(*) AS n FROM payments WHERE invoice_id = ?').get(id) as {
      n: number;
    };
    return [
      ...gone,
      {
        kind: 'paid_invoice_deleted',
        when: paid.n > 0 && wasDeleted(local, 'invoices', id),
        message:
          'A draft invoice was deleted on one device while another sent it and recorded a payment. The payment is kept (see Payments); record it again on a new invoice if it belongs to one.',
      },
    ];
  }
  const number = String(row.number);
  const customerGone =
    !local.statement('SELECT 1 FROM customers WHERE id = ?').get(row.customer_id) &&
    wasDeleted(local, 'customers', row.customer_id);
  const out: Finding[] = [
    {
      kind: 'customer_deleted',
      when: customerGone,
      message: `The customer of ${type} ${number} was deleted on another device while this ${type} was made. Pick a customer for it again.`,
    },
  ];
  if (type === 'invoice') {
    const paid = Number(row.amount_paid_cents);
    const total = Number(row.total_cents);
    out.push(
      // An invoice that is here was never deleted: an entry listed by an older version goes.
      { kind: 'paid_invoice_deleted', when: false, message: '' },
      {
        kind: 'overpaid_invoice',
        when: paid > total,
        message: `Invoice ${number} was paid ${formatCents(paid)} against a total of ${formatCents(total)}: payments were recorded on more than one device. Refund or credit the difference.`,
      },
      {
        kind: 'paid_invoice_voided',
        when: paid > 0 && row.voided_at !== null,
        message: `Invoice ${number} was voided on one device while a payment was recorded on another. The payment stands; void it again after refunding, or keep it.`,
      },
    );
  } else if (type === 'quote') {
    out.push({
      kind: 'quote_accepted_and_declined',
      when: row.accepted_at !== null && row.declined_at !== null,
      message: `Quote ${number} was accepted on one device and declined on another. It stays accepted; check with the customer.`,
    });
  } else {
    out.push({
      kind: 'job_completed_and_cancelled',
      when: row.status === 'completed' && row.cancelled_at !== null,
      message: `Job ${number} was completed on one device and cancelled on another. It stays completed; cancel the invoice instead if the work was not done.`,
    });
  }
  return out;
}

/** Opens, updates or clears one decision; one dealt with stays dealt with. Returns rows written. */
function decide(
  local: LocalState,
  accountId: string,
  type: string,
  recordId: string,
  finding: Finding,
  now: string,
): number {
  const id = `${finding.kind}:${recordId}`;
  const existing = local.statement('SELECT status, message FROM decisions WHERE id = ?').get(id) as
    | { status: string; message: string }
    | undefined;
  if (existing?.status === 'resolved') return 0;
  if (!finding.when) {
    if (existing?.status !== 'open') return 0;
    local.statement(`UPDATE decisions SET status = 'cleared' WHERE id = ?`).run(id);
    return 1;
  }
  if (!existing) {
    local
      .statement(
        `INSERT INTO decisions (id, account_id, kind, record_type, record_id, message, status, detected_at)
         VALUES (?, ?, ?, ?, ?, ?, 'open', ?)`,
      )
      .run(id, accountId, finding.kind, type, recordId, finding.message, now);
    return 1;
  }
  if (existing.status === 'open') {
    if (existing.message === finding.message) return 0;
    local.statement('UPDATE decisions SET message = ? WHERE id = ?').run(finding.message, id);
    return 1;
  }
  local
    .statement(`UPDATE decisions SET status = 'open', message = ?, detected_at = ? WHERE id = ?`)
    .run(finding.message, now, id);
  return 1;
}

function formatCents(cents: number): string {
  return fromCents(cents).toFixed(MONEY_DECIMALS);
}
