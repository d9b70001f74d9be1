import type PDFDocument from 'pdfkit';
import { placeLine } from '../../shared/place';
import type { AppContext } from '../context';
import { write } from './pdf-fonts';

type Doc = InstanceType<typeof PDFDocument>;

/** Who a document is for and where the work is: the billing address and the place, side by side. */
export interface Parties {
  heading: string;
  customer: { name: string; email: string | null; address: string | null };
  /** The document's place, without its access notes (those are for the crew only). */
  service: { label: string | null; address: string } | null;
  facts: Array<[string, string]>;
}

export interface PartiesStyle {
  ink: string;
  muted: string;
  margin: number;
}

export async function loadParties(
  ctx: AppContext,
  customer: { id: string; name: string; email: string | null },
  propertyId: string | null,
): Promise<Pick<Parties, 'customer' | 'service'>> {
  const [billing, place] = await Promise.all([
    ctx.db.selectFrom('customers').select('address').where('id', '=', customer.id).executeTakeFirst(),
    propertyId
      ? ctx.db.selectFrom('properties').selectAll().where('id', '=', propertyId).executeTakeFirst()
      : undefined,
  ]);
  return {
    customer: { ...customer, address: billing?.address ?? null },
    service: place ? { label: place.label, address: placeLine(place) } : null,
  };
}

/** The billing block, the service address beside it when the document names a place, the facts on the right. */
export function drawParties(doc: Doc, p: Parties, style: PartiesStyle): void {
  const top = doc.y;
  const right = doc.page.width - style.margin;
  const width = p.service ? 125 : 260;
  const block = (x: number, heading: string, draw: () => void) => {
    doc.fontSize(8).fillColor(style.muted);
    write(doc, 'bold', heading, { x, y: top });
    draw();
    return doc.y;
  };
  const billingBottom = block(style.margin, p.heading, () => {
    doc.fontSize(11).fillColor(style.ink);
    write(doc, 'bold', p.customer.name, { x: style.margin, y: doc.y + 2 }, { width });
    doc.fontSize(9).fillColor(style.ink);
    if (p.customer.address) write(doc, 'regular', p.customer.address, null, { width });
    if (p.customer.email) write(doc, 'regular', p.customer.email, null, { width });
  });
  const service = p.service;
  const serviceBottom = service
    ? block(style.margin + width + 10, 'SERVICE ADDRESS', () => {
        const x = style.margin + width + 10;
        doc.fontSize(9).fillColor(style.ink);
        if (service.label) write(doc, 'bold', service.label, { x, y: doc.y + 2 }, { width });
        write(doc, 'regular', service.address, service.label ? null : { x, y: doc.y + 2 }, { width });
      })
    : top;

  let y = top;
  for (const [label, value] of p.facts) {
    doc.fontSize(9).fillColor(style.muted);
    write(doc, 'regular', label, { x: right - 230, y }, { width: 110 });
    doc.fillColor(style.ink);
    write(doc, 'bold', value, { x: right - 120, y }, { width: 120, align: 'right' });
    y += 15;
  }
  doc.y = Math.max(billingBottom, serviceBottom, y) + 20;
}
