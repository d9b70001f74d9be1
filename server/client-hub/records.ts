import type { ClientHubRows, Row } from './rows';

/** An invoice as the customer's page shows it: totals come from its lines and taxes (page.ts). */
export interface InvoiceView {
  id: string;
  number: string;
  /** `void` when the owner cancelled it; paid or not is what its payments say. */
  status: string;
  issue_date: string;
  due_date: string;
  currency: string;
  notes: string | null;
  lines: Array<{ description: string; quantity: number; unit_price: number }>;
  taxes: Array<{ name: string; rate: number }>;
  payments: Array<{ amount_cents: number; paid_at: string; method: string | null }>;
}

/** A visit (a job or a plan's visit) with its time and place; never the crew's notes. */
export interface VisitView {
  id: string;
  number: string;
  title: string;
  status: string;
  scheduled_start: string;
  scheduled_end: string | null;
  address: string | null;
}

/** A customer's place; access notes are for the crew and never leave the office. */
export interface PropertyView {
  id: string;
  label: string | null;
  address: string;
}

const forCustomer = (customerId: string) => ({ column: 'customer_id', values: [customerId] });

export async function invoicesOf(
  rows: ClientHubRows,
  accountId: string,
  customerId: string,
): Promise<InvoiceView[]> {
  const invoices = (await rows.readRows(accountId, 'invoices', forCustomer(customerId))).filter(
    (i) => i.status !== 'draft',
  );
  const ids = invoices.map((i) => String(i.id));
  const [{ lines, taxes }, payments] = await Promise.all([
    documentParts(rows, accountId, invoices),
    rows.readRows(accountId, 'payments', { column: 'invoice_id', values: ids }),
  ]);
  return invoices
    .map(
      (i): InvoiceView => ({
        id: String(i.id),
        number: String(i.number),
        status: String(i.status),
        issue_date: String(i.issue_date),
        due_date: String(i.due_date),
        currency: String(i.currency),
        notes: (i.notes as string | null) ?? null,
        lines: linesOf(lines, i.id),
        taxes: taxesOf(taxes, i.id),
        payments: payments
          .filter((p) => p.invoice_id === i.id)
          .sort((a, b) => String(a.paid_at).localeCompare(String(b.paid_at)))
          .map((p) => ({
            amount_cents: Number(p.amount_cents),
            paid_at: String(p.paid_at),
            method: (p.method as string | null) ?? null,
          })),
      }),
    )
    .sort(newestFirst);
}

export async function visitsOf(
  rows: ClientHubRows,
  accountId: string,
  customerId: string,
): Promise<VisitView[]> {
  const jobs = (await rows.readRows(accountId, 'jobs', forCustomer(customerId))).filter(
    (j) => j.scheduled_start != null && j.status !== 'cancelled',
  );
  const places = await propertiesOf(rows, accountId, customerId, true);
  return jobs
    .map(
      (j): VisitView => ({
        id: String(j.id),
        number: String(j.number),
        title: String(j.title),
        status: String(j.status),
        scheduled_start: String(j.scheduled_start),
        scheduled_end: (j.scheduled_end as string | null) ?? null,
        address:
          (j.address as string | null) || (places.find((p) => p.id === j.property_id)?.address ?? null),
      }),
    )
    .sort((a, b) => a.scheduled_start.localeCompare(b.scheduled_start));
}

export async function propertiesOf(
  rows: ClientHubRows,
  accountId: string,
  customerId: string,
  archivedToo = false,
): Promise<PropertyView[]> {
  return (await rows.readRows(accountId, 'properties', forCustomer(customerId)))
    .filter((p) => archivedToo || p.status === 'active')
    .sort((a, b) => Number(b.is_default) - Number(a.is_default) || String(a.id).localeCompare(String(b.id)))
    .map((p) => ({ id: String(p.id), label: (p.label as string | null) ?? null, address: addressOf(p) }));
}

function addressOf(p: Row): string {
  const street = p.unit ? `${p.unit}-${p.street}` : String(p.street);
  const region = [p.region, p.postal_code].filter(Boolean).join(' ');
  return [street, p.city, region].filter(Boolean).join(', ');
}

/** The lines and taxes of documents (quotes or invoices), fetched in two reads. */
export async function documentParts(rows: ClientHubRows, accountId: string, documents: Row[]) {
  const ids = documents.map((d) => String(d.id));
  const [lines, taxes] = await Promise.all([
    rows.readRows(accountId, 'document_lines', { column: 'document_id', values: ids }),
    rows.readRows(accountId, 'document_taxes', { column: 'document_id', values: ids }),
  ]);
  return { lines, taxes };
}

export function linesOf(lines: Row[], documentId: unknown) {
  return byPosition(lines, documentId).map((l) => ({
    description: String(l.description),
    quantity: Number(l.quantity),
    unit_price: Number(l.unit_price),
  }));
}

export function taxesOf(taxes: Row[], documentId: unknown) {
  return byPosition(taxes, documentId).map((t) => ({ name: String(t.name), rate: Number(t.rate) }));
}

function byPosition(rows: Row[], documentId: unknown) {
  return rows
    .filter((r) => r.document_id === documentId)
    .sort((a, b) => Number(a.position) - Number(b.position));
}

export function newestFirst<T extends { id: unknown }>(a: T, b: T): number {
  return String(a.id) < String(b.id) ? 1 : -1;
}
