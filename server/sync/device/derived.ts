import { taxAmountCents } from '../../../shared/money';
import { statusAfterPayments } from '../../domain/invoice-status';
import type { LocalState } from './local-state';

/**
 * Figures no device sends (docs/sync.md, "Derived figures"): each device recomputes them from the
 * synced rows after applying, so they always equal what the rows say. The overview rollups follow
 * by themselves: their triggers see these writes like any other.
 */
export function recomputeDerived(local: LocalState, documents: Set<string>): void {
  for (const id of documents) recomputeDocument(local, id);
}

function recomputeDocument(local: LocalState, id: string): void {
  const table = id.startsWith('inv_') ? 'invoices' : 'quotes';
  const doc = local.statement(`SELECT * FROM ${table} WHERE id = ?`).get(id) as
    | Record<string, unknown>
    | undefined;
  if (!doc) return;
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
  const status = statusAfterPayments(String(doc.status), paid, total);
  local
    .statement(`UPDATE invoices SET subtotal_cents = ?, tax_total_cents = ?, total_cents = ?, amount_paid_cents = ?,
      status = ? WHERE id = ? AND (subtotal_cents, tax_total_cents, total_cents, amount_paid_cents, status) IS NOT (?, ?, ?, ?, ?)`)
    .run(subtotal, taxTotal, total, paid, status, id, subtotal, taxTotal, total, paid, status);
}
