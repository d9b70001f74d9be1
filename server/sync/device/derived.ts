import { computeTotals } from '../../../shared/money';
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
  const lines = local
    .statement(
      'SELECT description, quantity, unit_price FROM document_lines WHERE document_id = ? ORDER BY position',
    )
    .all(id) as Array<{ description: string; quantity: string; unit_price: string }>;
  const taxes = local
    .statement(
      'SELECT position, name, rate, amount_cents FROM document_taxes WHERE document_id = ? ORDER BY position',
    )
    .all(id) as Array<{ position: number; name: string; rate: string; amount_cents: number }>;
  // The same arithmetic the writer used (shared/money.ts), so every device stores the same figures.
  const totals = computeTotals(
    lines.map((line) => ({ ...line, quantity: Number(line.quantity), unit_price: Number(line.unit_price) })),
    taxes.map((tax) => ({ name: tax.name, rate: Number(tax.rate) })),
  );
  taxes.forEach((tax, i) => {
    const amount = totals.taxes[i]?.amount_cents;
    if (amount !== undefined && amount !== tax.amount_cents) {
      local
        .statement('UPDATE document_taxes SET amount_cents = ? WHERE document_id = ? AND position = ?')
        .run(amount, id, tax.position);
    }
  });
  const { subtotal_cents: subtotal, tax_total_cents: taxTotal, total_cents: total } = totals;
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
