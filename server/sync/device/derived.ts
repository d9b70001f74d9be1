import { fromCents, MONEY_DECIMALS, taxAmountCents } from '../../../shared/money';
import type { LocalState } from './local-state';

/**
 * Figures no device sends (docs/sync.md, "Derived figures"): each device recomputes them from the
 * synced rows after applying, so they always equal what the rows say. The overview rollups follow
 * by themselves: their triggers see these writes like any other.
 */
export function recomputeDerived(
  local: LocalState,
  accountId: string,
  touched: { documents: Set<string>; jobs: Set<string>; quotes: Set<string> },
  now: string,
): void {
  for (const id of touched.documents) recomputeDocument(local, accountId, id, now);
  for (const id of touched.jobs) checkJob(local, accountId, id, now);
  for (const id of touched.quotes) checkQuote(local, accountId, id, now);
}

function recomputeDocument(local: LocalState, accountId: string, id: string, now: string): void {
  const table = id.startsWith('inv_') ? 'invoices' : 'quotes';
  const doc = local.statement(`SELECT * FROM ${table} WHERE id = ?`).get(id) as
    | Record<string, unknown>
    | undefined;
  if (!doc) {
    if (table === 'invoices') {
      const paid = local.statement('SELECT count(*) AS n FROM payments WHERE invoice_id = ?').get(id) as {
        n: number;
      };
      conflict(local, accountId, {
        kind: 'paid_invoice_deleted',
        record: ['invoice', id],
        when: paid.n > 0,
        message: `A draft invoice was deleted on one device while another sent it and recorded a payment. The payment is kept (see Payments); record it again on a new invoice if it belongs to one.`,
        now,
      });
    }
    return;
  }
  missingCustomer(local, accountId, table === 'invoices' ? 'invoice' : 'quote', id, doc, now);
  const { subtotal } = local
    .statement('SELECT coalesce(sum(amount_cents), 0) AS subtotal FROM document_lines WHERE document_id = ?')
    .get(id) as { subtotal: number };
  const taxes = local
    .statement('SELECT position, rate, amount_cents FROM document_taxes WHERE document_id = ?')
    .all(id) as Array<{ position: number; rate: string; amount_cents: number }>;
  let taxTotal = 0;
  for (const tax of taxes) {
    const amount = taxAmountCents(subtotal, Number(tax.rate));
    taxTotal += amount;
    if (amount !== tax.amount_cents) {
      local
        .statement('UPDATE document_taxes SET amount_cents = ? WHERE document_id = ? AND position = ?')
        .run(amount, id, tax.position);
    }
  }
  const total = subtotal + taxTotal;
  if (table === 'quotes') {
    local
      .statement(`UPDATE quotes SET subtotal_cents = ?, tax_total_cents = ?, total_cents = ? WHERE id = ?
        AND (subtotal_cents, tax_total_cents, total_cents) IS NOT (?, ?, ?)`)
      .run(subtotal, taxTotal, total, id, subtotal, taxTotal, total);
    return;
  }
  const { paid } = local
    .statement('SELECT coalesce(sum(amount_cents), 0) AS paid FROM payments WHERE invoice_id = ?')
    .get(id) as { paid: number };
  const status = invoiceStatus(doc.status, paid, total);
  local
    .statement(`UPDATE invoices SET subtotal_cents = ?, tax_total_cents = ?, total_cents = ?, amount_paid_cents = ?,
      status = ? WHERE id = ? AND (subtotal_cents, tax_total_cents, total_cents, amount_paid_cents, status) IS NOT (?, ?, ?, ?, ?)`)
    .run(subtotal, taxTotal, total, paid, status, id, subtotal, taxTotal, total, paid, status);
  const number = String(doc.number);
  conflict(local, accountId, {
    kind: 'overpaid_invoice',
    record: ['invoice', id],
    when: paid > total,
    message: `Invoice ${number} was paid ${formatCents(paid)} against a total of ${formatCents(total)}: payments were recorded on more than one device. Refund or credit the difference.`,
    now,
  });
  conflict(local, accountId, {
    kind: 'paid_invoice_voided',
    record: ['invoice', id],
    when: paid > 0 && doc.voided_at !== null,
    message: `Invoice ${number} was voided on one device while a payment was recorded on another. The payment stands; void it again after refunding, or keep it.`,
    now,
  });
}

/** Money first: payments decide paid and partially paid, whatever status another device set. */
export function invoiceStatus(ownerStatus: unknown, paid: number, total: number): string {
  const owner = ownerStatus === 'paid' || ownerStatus === 'partially_paid' ? 'sent' : String(ownerStatus);
  return paid > 0 ? (paid >= total ? 'paid' : 'partially_paid') : owner;
}

/** A customer deleted on one device while another made a document for them offline. */
function missingCustomer(
  local: LocalState,
  accountId: string,
  type: 'invoice' | 'quote' | 'job',
  id: string,
  doc: Record<string, unknown>,
  now: string,
): void {
  const customer = local.statement('SELECT 1 FROM customers WHERE id = ?').get(doc.customer_id);
  conflict(local, accountId, {
    kind: 'customer_deleted',
    record: [type, id],
    when: !customer,
    message: `The customer of ${type} ${String(doc.number)} was deleted on another device while this ${type} was made. Pick a customer for it again.`,
    now,
  });
}

function checkJob(local: LocalState, accountId: string, id: string, now: string): void {
  const job = local
    .statement('SELECT number, status, cancelled_at, customer_id FROM jobs WHERE id = ?')
    .get(id) as
    | { number: string; status: string; cancelled_at: string | null; customer_id: string }
    | undefined;
  if (!job) return;
  missingCustomer(local, accountId, 'job', id, job, now);
  conflict(local, accountId, {
    kind: 'job_completed_and_cancelled',
    record: ['job', id],
    when: job.status === 'completed' && job.cancelled_at !== null,
    message: `Job ${job.number} was completed on one device and cancelled on another. It stays completed; cancel the invoice instead if the work was not done.`,
    now,
  });
}

function checkQuote(local: LocalState, accountId: string, id: string, now: string): void {
  const quote = local.statement('SELECT number, accepted_at, declined_at FROM quotes WHERE id = ?').get(id) as
    | { number: string; accepted_at: string | null; declined_at: string | null }
    | undefined;
  if (!quote) return;
  conflict(local, accountId, {
    kind: 'quote_accepted_and_declined',
    record: ['quote', id],
    when: quote.accepted_at !== null && quote.declined_at !== null,
    message: `Quote ${quote.number} was accepted on one device and declined on another. It stays accepted; check with the customer.`,
    now,
  });
}

/** Lists a conflict for the owner once; a conflict the rows no longer show leaves the list if unresolved. */
function conflict(
  local: LocalState,
  accountId: string,
  item: { kind: string; record: [string, string]; when: boolean; message: string; now: string },
): void {
  const id = `${item.kind}:${item.record[1]}`;
  if (!item.when) {
    local.statement('DELETE FROM sync_conflicts WHERE id = ? AND resolved_at IS NULL').run(id);
    return;
  }
  local
    .statement(
      `INSERT INTO sync_conflicts (id, account_id, kind, record_type, record_id, message, detected_at)
       VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET message = excluded.message`,
    )
    .run(id, accountId, item.kind, item.record[0], item.record[1], item.message, item.now);
}

function formatCents(cents: number): string {
  return fromCents(cents).toFixed(MONEY_DECIMALS);
}
