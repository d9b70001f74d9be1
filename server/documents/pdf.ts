import type PDFDocument from 'pdfkit';
import type { StoredConfig } from '../../shared/schemas/config';
import type { Invoice } from '../../shared/schemas/invoice';
import type { Quote } from '../../shared/schemas/quote';
import type { AppContext } from '../context';
import { getAccount } from '../domain/accounts';
import { readLogo } from '../domain/business-logo';
import { quoteApproval } from '../domain/client-actions';
import { getInvoice } from '../domain/invoices';
import { getQuote } from '../domain/quotes';
import { heightOf, startFonts, write } from './pdf-fonts';
import { type Formatters, formatters, MUTED, paperFor } from './pdf-format';
import { drawParties, loadParties, type Parties } from './pdf-parties';
import {
  fileName,
  INVOICE_STAMPS,
  invoiceClosing,
  type PdfOptions,
  QUOTE_STAMPS,
  quoteClosing,
  registrationFacts,
  stampOf,
  taxRows,
} from './pdf-wording';

/**
 * Invoices and quotes as PDFs a business would send. The text is set in fonts shipped with the app
 * and embedded (subset) in each PDF (pdf-fonts.ts): the built-in PDF fonts only cover Western
 * European letters, and customers are called Łukasz, Nguyễn, Σοφία, 王小明 or 김민준. Text stays
 * extractable (search, copy, accounting imports) and nothing depends on fonts installed on the
 * owner's machine.
 */

type Doc = InstanceType<typeof PDFDocument>;

/** pdfkit and its font parsers take longer to load than the rest of the server: loaded at the first PDF. */
const loadPdfkit = () => import('pdfkit');

const INK = '#1f2933';
const RULE = '#d9dee4';
const SHADE = '#f2f4f7';
const ACCENT = '#1f4e79';
const MARGIN = 50;

/** The parts of an invoice or a quote the layout needs, in the order a reader scans them. */
interface Printable {
  kind: 'INVOICE' | 'QUOTE';
  number: string;
  stamp: { text: string; color: string } | null;
  customer: Parties['customer'];
  service: Parties['service'];
  facts: Array<[string, string]>;
  document: Invoice | Quote;
  totals: Array<{ label: string; value: string; strong?: boolean }>;
  payments: Invoice['payments'];
  closing: string;
  /** The business's logo (PNG or JPEG bytes), above its name. */
  logo: Buffer | null;
}

function byline(config: StoredConfig): string[] {
  return [config.business_address, config.business_email, config.business_phone]
    .filter((v): v is string => Boolean(v))
    .flatMap((v) => v.split('\n'));
}

const LOGO_BOX: [number, number] = [160, 56];

/** The logo fitted in its box at the top left; where it starts, the business's name goes. */
function drawLogo(doc: Doc, logo: Buffer | null): number {
  if (!logo) return MARGIN;
  try {
    doc.image(logo, MARGIN, MARGIN, { fit: LOGO_BOX });
  } catch {
    // The upload checked its type by its bytes; an image pdfkit still cannot read is left out
    // rather than leaving the business without its invoice.
    return MARGIN;
  }
  return MARGIN + LOGO_BOX[1] + 10;
}

function drawHeader(doc: Doc, config: StoredConfig, p: Printable): void {
  const right = doc.page.width - MARGIN;
  const nameTop = drawLogo(doc, p.logo);
  doc.fillColor(INK).fontSize(18);
  write(doc, 'bold', config.business_name, { x: MARGIN, y: nameTop }, { width: 300 });
  doc.fontSize(9).fillColor(MUTED);
  for (const line of byline(config)) write(doc, 'regular', line, null, { width: 300 });
  const headerBottom = doc.y;

  doc.fontSize(24).fillColor(ACCENT);
  write(doc, 'bold', p.kind, { x: right - 220, y: MARGIN }, { width: 220, align: 'right' });
  doc.fontSize(11).fillColor(INK);
  write(doc, 'regular', p.number, { x: right - 220, y: doc.y }, { width: 220, align: 'right' });
  if (p.stamp) {
    doc.fontSize(16).fillColor(p.stamp.color);
    write(doc, 'bold', p.stamp.text, { x: right - 220, y: doc.y + 6 }, { width: 220, align: 'right' });
  }
  doc.y = Math.max(headerBottom, doc.y) + 24;
}

const COLUMNS = { qty: 60, unit: 85, amount: 90 };

function tableHeader(doc: Doc): void {
  const width = doc.page.width - 2 * MARGIN;
  const y = doc.y;
  doc.rect(MARGIN, y, width, 20).fill(SHADE);
  doc.fontSize(8).fillColor(MUTED);
  const descWidth = width - COLUMNS.qty - COLUMNS.unit - COLUMNS.amount;
  write(doc, 'bold', 'DESCRIPTION', { x: MARGIN + 8, y: y + 6 }, { width: descWidth - 16 });
  let x = MARGIN + descWidth;
  write(doc, 'bold', 'QTY', { x, y: y + 6 }, { width: COLUMNS.qty - 8, align: 'right' });
  x += COLUMNS.qty;
  write(doc, 'bold', 'UNIT PRICE', { x, y: y + 6 }, { width: COLUMNS.unit - 8, align: 'right' });
  x += COLUMNS.unit;
  write(doc, 'bold', 'AMOUNT', { x, y: y + 6 }, { width: COLUMNS.amount - 8, align: 'right' });
  doc.y = y + 26;
}

/** Starts a new page when `height` does not fit above the bottom margin; returns whether it did. */
function ensureRoom(doc: Doc, height: number): boolean {
  if (doc.y + height <= doc.page.height - doc.page.margins.bottom) return false;
  doc.addPage();
  doc.y = MARGIN;
  return true;
}

function drawLines(doc: Doc, p: Printable, f: Formatters): void {
  const width = doc.page.width - 2 * MARGIN;
  const descWidth = width - COLUMNS.qty - COLUMNS.unit - COLUMNS.amount;
  tableHeader(doc);
  for (const item of p.document.items) {
    doc.fontSize(10);
    const description = item.description;
    const height = heightOf(doc, 'regular', description, { width: descWidth - 16 }) + 10;
    if (ensureRoom(doc, height)) {
      tableHeader(doc);
      doc.fontSize(10);
    }
    const y = doc.y;
    doc.fillColor(INK);
    write(doc, 'regular', description, { x: MARGIN + 8, y }, { width: descWidth - 16 });
    let x = MARGIN + descWidth;
    write(doc, 'regular', f.quantity(item.quantity), { x, y }, { width: COLUMNS.qty - 8, align: 'right' });
    x += COLUMNS.qty;
    write(doc, 'regular', f.money(item.unit_price), { x, y }, { width: COLUMNS.unit - 8, align: 'right' });
    x += COLUMNS.unit;
    write(doc, 'regular', f.money(item.amount), { x, y }, { width: COLUMNS.amount - 8, align: 'right' });
    doc
      .moveTo(MARGIN, y + height - 4)
      .lineTo(MARGIN + width, y + height - 4)
      .lineWidth(0.5)
      .strokeColor(RULE)
      .stroke();
    doc.y = y + height;
  }
  doc.y += 8;
}

function drawTotals(doc: Doc, p: Printable): void {
  const right = doc.page.width - MARGIN;
  ensureRoom(doc, p.totals.length * 18 + 10);
  for (const row of p.totals) {
    const y = doc.y;
    if (row.strong) {
      doc
        .moveTo(right - 250, y - 3)
        .lineTo(right, y - 3)
        .lineWidth(1)
        .strokeColor(INK)
        .stroke();
    }
    const weight = row.strong ? 'bold' : 'regular';
    doc.fontSize(row.strong ? 11 : 10).fillColor(INK);
    write(doc, weight, row.label, { x: right - 250, y: y + 1 }, { width: 150 });
    write(doc, weight, row.value, { x: right - 100, y: y + 1 }, { width: 92, align: 'right' });
    doc.y = y + 18;
  }
  doc.y += 12;
}

function drawPayments(doc: Doc, p: Printable, f: Formatters): void {
  if (p.payments.length === 0) return;
  ensureRoom(doc, 40 + p.payments.length * 15);
  doc.fontSize(8).fillColor(MUTED);
  write(doc, 'bold', 'PAYMENTS RECEIVED', { x: MARGIN, y: doc.y });
  doc.y += 4;
  for (const payment of p.payments) {
    const y = doc.y;
    doc.fontSize(9).fillColor(INK);
    write(doc, 'regular', f.instantDate(payment.paid_at), { x: MARGIN, y }, { width: 120 });
    write(doc, 'regular', payment.method ?? '', { x: MARGIN + 120, y }, { width: 150 });
    write(doc, 'regular', f.money(payment.amount), { x: MARGIN + 270, y }, { width: 90, align: 'right' });
    doc.y = y + 15;
  }
  doc.y += 12;
}

function drawNotes(doc: Doc, p: Printable): void {
  const width = doc.page.width - 2 * MARGIN;
  if (p.document.notes) {
    const notes = p.document.notes;
    doc.fontSize(9);
    ensureRoom(doc, heightOf(doc, 'regular', notes, { width }) + 20);
    doc.fontSize(8).fillColor(MUTED);
    write(doc, 'bold', 'NOTES', { x: MARGIN, y: doc.y });
    doc.fontSize(9).fillColor(INK);
    write(doc, 'regular', notes, { x: MARGIN, y: doc.y + 3 }, { width });
    doc.y += 12;
  }
  ensureRoom(doc, 20);
  doc.fontSize(9).fillColor(MUTED);
  write(doc, 'regular', p.closing, { x: MARGIN, y: doc.y }, { width });
}

/** Page numbers go below the bottom margin, where pdfkit would otherwise start a new page. */
function drawFooters(doc: Doc, p: Printable): void {
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    const bottom = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    doc.fontSize(8).fillColor(MUTED);
    write(
      doc,
      'regular',
      `${p.number}  ·  Page ${i + 1} of ${range.count}`,
      { x: MARGIN, y: doc.page.height - 35 },
      { width: doc.page.width - 2 * MARGIN, align: 'center' },
    );
    doc.page.margins.bottom = bottom;
  }
}

async function render(now: Date, config: StoredConfig, p: Printable): Promise<Buffer> {
  const f = formatters(config, p.document.currency);
  const { default: PdfDocument } = await loadPdfkit();
  const doc = new PdfDocument({
    size: paperFor(config.locale),
    margin: MARGIN,
    bufferPages: true,
    info: {
      Title: `${p.kind === 'INVOICE' ? 'Invoice' : 'Quote'} ${p.number}`,
      Author: config.business_name,
      Creator: 'Shopdesk',
      CreationDate: now,
    },
  });
  startFonts(doc);
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  drawHeader(doc, config, p);
  drawParties(
    doc,
    {
      heading: p.kind === 'INVOICE' ? 'BILL TO' : 'PREPARED FOR',
      customer: p.customer,
      service: p.service,
      facts: p.facts,
    },
    { ink: INK, muted: MUTED, margin: MARGIN },
  );
  drawLines(doc, p, f);
  drawTotals(doc, p);
  drawPayments(doc, p, f);
  drawNotes(doc, p);
  drawFooters(doc, p);
  doc.end();
  return done;
}

/** What an invoice's PDF is made of, wherever it was read from (the install's database, the hub's rows). */
export interface InvoicePdfData {
  config: StoredConfig;
  invoice: Invoice;
  parties: Pick<Parties, 'customer' | 'service'>;
  logo: Buffer | null;
  /** The PDF's creation date. */
  now: Date;
}

/** The invoice's PDF from its data: the one invoice layout, for the install and the client hub. */
export async function renderInvoiceData(
  data: InvoicePdfData,
  options: PdfOptions = {},
): Promise<{ filename: string; pdf: Buffer }> {
  const { config, invoice } = data;
  const f = formatters(config, invoice.currency);
  const pdf = await render(data.now, config, {
    kind: 'INVOICE',
    number: invoice.number,
    stamp: stampOf(INVOICE_STAMPS, invoice.status, options),
    ...data.parties,
    facts: [
      ['Invoice number', invoice.number],
      ['Issue date', f.date(invoice.issue_date)],
      ['Due date', f.date(invoice.due_date)],
      ['Balance due', f.money(invoice.balance)],
      ...registrationFacts(invoice, config),
    ],
    document: invoice,
    totals: [
      { label: 'Subtotal', value: f.money(invoice.subtotal) },
      ...taxRows(invoice, f),
      { label: 'Tax total', value: f.money(invoice.tax_total) },
      { label: 'Total', value: f.money(invoice.total), strong: true },
      { label: 'Amount paid', value: f.money(invoice.amount_paid) },
      { label: 'Balance due', value: f.money(invoice.balance), strong: true },
    ],
    payments: invoice.payments,
    closing: invoiceClosing(invoice, f),
    logo: data.logo,
  });
  return { filename: fileName(invoice.number), pdf };
}

export async function invoicePdfFile(
  ctx: AppContext,
  accountId: string,
  ref: string,
  options: PdfOptions = {},
): Promise<{ filename: string; pdf: Buffer }> {
  const invoice = await getInvoice(ctx, accountId, ref);
  const [{ config }, parties, logo] = await Promise.all([
    getAccount(ctx.db, accountId),
    loadParties(ctx, invoice.customer, invoice.property_id),
    readLogo(ctx.db, accountId),
  ]);
  return renderInvoiceData(
    { config, invoice, parties, logo: logo?.bytes ?? null, now: ctx.clock.now() },
    options,
  );
}

export async function quotePdfFile(
  ctx: AppContext,
  accountId: string,
  ref: string,
  options: PdfOptions = {},
): Promise<{ filename: string; pdf: Buffer }> {
  const quote = await getQuote(ctx, accountId, ref);
  const [{ config }, logo] = await Promise.all([getAccount(ctx.db, accountId), readLogo(ctx.db, accountId)]);
  const f = formatters(config, quote.currency);
  const pdf = await render(ctx.clock.now(), config, {
    kind: 'QUOTE',
    number: quote.number,
    stamp: stampOf(QUOTE_STAMPS, quote.status, options),
    ...(await loadParties(ctx, quote.customer, quote.property_id)),
    facts: [
      ['Quote number', quote.number],
      ['Issue date', f.date(quote.issue_date)],
      ['Valid until', f.date(quote.valid_until)],
    ],
    document: quote,
    totals: [
      { label: 'Subtotal', value: f.money(quote.subtotal) },
      ...taxRows(quote, f),
      { label: 'Tax total', value: f.money(quote.tax_total) },
      { label: 'Total', value: f.money(quote.total), strong: true },
    ],
    payments: [],
    closing: quoteClosing(quote, await quoteApproval(ctx.db, accountId, quote.id), f),
    logo: logo?.bytes ?? null,
  });
  return { filename: fileName(quote.number), pdf };
}

/** The invoice's PDF (the mail worker attaches it; GET /invoices/{number}/pdf serves it). */
export async function renderInvoicePdf(
  ctx: AppContext,
  accountId: string,
  ref: string,
  options: PdfOptions = {},
): Promise<Buffer> {
  return (await invoicePdfFile(ctx, accountId, ref, options)).pdf;
}

export async function renderQuotePdf(
  ctx: AppContext,
  accountId: string,
  ref: string,
  options: PdfOptions = {},
): Promise<Buffer> {
  return (await quotePdfFile(ctx, accountId, ref, options)).pdf;
}
