import { computeTotals, toCents } from '../../shared/money';
import type { ClientActionsTable } from '../db/schema';
import { formatMoney } from '../domain/documents';
import type { BusinessView } from './data';
import { activity, escapeHtml, hidden, layout, type PageContext } from './page';
import type { InvoiceView, PropertyView, VisitView } from './records';
import type { VisitPhotoView } from './visit-photos';

/**
 * The client hub's invoices, visits and properties (docs/client-hub.md): server-rendered like
 * page.ts. An invoice's totals come from its lines and taxes through computeTotals, as on its PDF;
 * its balance from its payments.
 */
export function invoiceBalance(invoice: InvoiceView) {
  const totals = computeTotals(invoice.lines, invoice.taxes);
  const paid = invoice.payments.reduce((sum, p) => sum + p.amount_cents, 0);
  return { totals, paid, balance: Math.max(0, totals.total_cents - paid) };
}

function money(cents: number, currency: string, business: BusinessView) {
  return escapeHtml(formatMoney(cents, currency, business.locale));
}

function invoiceBadge(invoice: InvoiceView): string {
  if (invoice.status === 'void') return '<span class="badge bad">Cancelled</span>';
  const { balance, paid } = invoiceBalance(invoice);
  if (balance === 0) return '<span class="badge good">Paid</span>';
  return paid > 0 ? '<span class="badge warn">Partly paid</span>' : '<span class="badge open">To pay</span>';
}

function back(page: PageContext, path = '', name = 'Your page'): string {
  return `<p><a href="${page.base}${path}">← ${escapeHtml(name)}</a></p>`;
}

export function invoicesPage(page: PageContext, invoices: InvoiceView[]): string {
  const cards = invoices.map((invoice) => {
    const { totals } = invoiceBalance(invoice);
    return `<div class="card"><a class="open" href="${page.base}/invoices/${escapeHtml(invoice.id)}">
<span><strong>Invoice ${escapeHtml(invoice.number)}</strong><br><span class="muted">Due ${escapeHtml(invoice.due_date)}</span></span>
<span class="num"><strong>${money(totals.total_cents, invoice.currency, page.business)}</strong><br>${invoiceBadge(invoice)}</span></a></div>`;
  });
  return layout(
    `${page.business.name}: your invoices`,
    page.business,
    `${back(page)}<h2>Your invoices</h2>
${cards.length ? cards.join('\n') : '<p class="muted">No invoices at the moment.</p>'}`,
  );
}

export function invoicePage(
  page: PageContext,
  invoice: InvoiceView,
  actions: ClientActionsTable[],
  options: { instructions: string | null; error?: string | undefined },
): string {
  const { totals, paid, balance } = invoiceBalance(invoice);
  const m = (cents: number) => money(cents, invoice.currency, page.business);
  const lines = totals.lines
    .map(
      (l) =>
        `<tr><td>${escapeHtml(l.description)}<br><span class="muted">${escapeHtml(String(l.quantity))} × ${m(toCents(l.unit_price))}</span></td><td class="num">${m(l.amount_cents)}</td></tr>`,
    )
    .join('');
  const taxes = totals.taxes
    .map((t) => `<tr><td>${escapeHtml(t.name)}</td><td class="num">${m(t.amount_cents)}</td></tr>`)
    .join('');
  const payments = invoice.payments
    .map(
      (p) =>
        `<li>${escapeHtml(p.paid_at.slice(0, 10))}: ${m(p.amount_cents)}${p.method ? ` (${escapeHtml(p.method)})` : ''}</li>`,
    )
    .join('');
  const mine = actions.filter((a) => a.subject_id === invoice.id);
  const noticeSent = mine.some((a) => a.status === 'pending' || a.status === 'applied');
  const payable = invoice.status !== 'void' && balance > 0;
  return layout(
    `Invoice ${invoice.number}`,
    page.business,
    `${back(page, '/invoices', 'All your invoices')}
<h2>Invoice ${escapeHtml(invoice.number)} ${invoiceBadge(invoice)}</h2>
<p class="muted">Issued ${escapeHtml(invoice.issue_date)} · due ${escapeHtml(invoice.due_date)}</p>
${options.error ? `<div class="card notice bad"><p class="error" role="alert">${escapeHtml(options.error)}</p></div>` : ''}
<div class="card"><table>
<thead><tr><th>Description</th><th class="num">Amount</th></tr></thead>
<tbody>${lines}
<tr><td>Subtotal</td><td class="num">${m(totals.subtotal_cents)}</td></tr>
${taxes}
<tr class="total"><td>Total</td><td class="num">${m(totals.total_cents)}</td></tr>
<tr><td>Paid</td><td class="num">${m(paid)}</td></tr>
<tr class="total"><td>Balance</td><td class="num">${m(balance)}</td></tr>
</tbody></table>
${payments ? `<h3>Payments received</h3><ul>${payments}</ul>` : ''}
${invoice.notes ? `<p>${escapeHtml(invoice.notes)}</p>` : ''}
<p><a href="${page.base}/invoices/${escapeHtml(invoice.id)}/pdf">Download the PDF</a></p></div>
${payable ? payBlock(page, invoice, options.instructions, noticeSent) : ''}
${activity(mine, page.business)}`,
  );
}

function payBlock(
  page: PageContext,
  invoice: InvoiceView,
  instructions: string | null,
  sent: boolean,
): string {
  const how = instructions
    ? `<p class="instructions">${escapeHtml(instructions).replace(/\n/g, '<br>')}</p>`
    : `<p class="muted">Please contact ${escapeHtml(page.business.name)} for how to pay.</p>`;
  const form = sent
    ? `<div class="card notice" role="status"><strong>Sent to ${escapeHtml(page.business.name)}.</strong> They will record your payment once it arrives.</div>`
    : `<div class="card"><details><summary>I've sent the payment</summary>
<form method="post" action="${page.base}/invoices/${escapeHtml(invoice.id)}/payment-notice">${hidden(page)}
<label for="payment-note">How and when you paid (optional)</label>
<textarea id="payment-note" name="note" maxlength="1000"></textarea>
<button type="submit">Tell ${escapeHtml(page.business.name)} I've paid</button></form></details></div>`;
  return `<div class="card"><h2>How to pay</h2>${how}<p class="muted">Card payments are not taken here.</p></div>${form}`;
}

/** "Tuesday, March 3, 2026, 9:00 a.m. – 11:00 a.m." in the business's zone. */
export function visitWhen(visit: VisitView, business: BusinessView): string {
  const day = new Intl.DateTimeFormat(business.locale, { dateStyle: 'full', timeZone: business.timezone });
  const time = new Intl.DateTimeFormat(business.locale, { timeStyle: 'short', timeZone: business.timezone });
  const start = new Date(visit.scheduled_start);
  const end = visit.scheduled_end ? ` – ${time.format(new Date(visit.scheduled_end))}` : '';
  return `${day.format(start)}, ${time.format(start)}${end}`;
}

function visitCard(page: PageContext, visit: VisitView): string {
  return `<div class="card"><a class="open" href="${page.base}/visits/${escapeHtml(visit.id)}">
<span><strong>${escapeHtml(visit.title)}</strong><br><span class="muted">${escapeHtml(visitWhen(visit, page.business))}</span>${visit.address ? `<br><span class="muted">${escapeHtml(visit.address)}</span>` : ''}</span>
<span class="num">${visit.status === 'completed' ? '<span class="badge good">Done</span>' : ''}</span></a></div>`;
}

export function isUpcoming(visit: VisitView, now: Date): boolean {
  return visit.status !== 'completed' && (visit.scheduled_end ?? visit.scheduled_start) >= now.toISOString();
}

export function visitsPage(page: PageContext, visits: VisitView[], now: Date): string {
  const upcoming = visits.filter((v) => isUpcoming(v, now));
  const past = visits.filter((v) => !isUpcoming(v, now)).reverse();
  return layout(
    `${page.business.name}: your visits`,
    page.business,
    `${back(page)}<h2>Upcoming visits</h2>
${upcoming.length ? upcoming.map((v) => visitCard(page, v)).join('\n') : '<p class="muted">No visits booked.</p>'}
<h2>Past visits</h2>
${past.length ? past.map((v) => visitCard(page, v)).join('\n') : '<p class="muted">None yet.</p>'}`,
  );
}

export function visitPage(
  page: PageContext,
  visit: VisitView,
  actions: ClientActionsTable[],
  photos: VisitPhotoView[],
  now: Date,
  error?: string,
): string {
  const mine = actions.filter((a) => a.subject_id === visit.id);
  const waiting = mine.some((a) => a.status === 'pending' || a.status === 'applied');
  const form = !isUpcoming(visit, now)
    ? ''
    : waiting
      ? `<div class="card notice" role="status"><strong>Sent to ${escapeHtml(page.business.name)}.</strong> They will move the visit or answer you with another time.</div>`
      : `<div class="card"><form method="post" action="${page.base}/visits/${escapeHtml(visit.id)}/reschedule">${hidden(page)}
<h2>Ask to reschedule</h2>
<label for="reschedule-message">Why, or what you need</label>
<textarea id="reschedule-message" name="message" required maxlength="2000"></textarea>
<label for="reschedule-preferred">Days and times that suit you</label>
<input type="text" id="reschedule-preferred" name="preferred" maxlength="300">
<button type="submit">Send my request</button></form></div>`;
  return layout(
    visit.title,
    page.business,
    `${back(page, '/visits', 'All your visits')}
<h2>${escapeHtml(visit.title)}</h2>
${error ? `<div class="card notice bad"><p class="error" role="alert">${escapeHtml(error)}</p></div>` : ''}
<div class="card"><p><strong>${escapeHtml(visitWhen(visit, page.business))}</strong></p>
${visit.address ? `<p>${escapeHtml(visit.address)}</p>` : ''}<p class="muted">Visit ${escapeHtml(visit.number)}</p></div>
${photoCard(page, visit, photos)}
${form}
${activity(mine, page.business)}`,
  );
}

/** The crew's photos of the visit, each opening whole on its own address (no script, strict CSP). */
function photoCard(page: PageContext, visit: VisitView, photos: VisitPhotoView[]): string {
  if (!photos.length) return '';
  const base = `${page.base}/visits/${escapeHtml(visit.id)}/photos`;
  const items = photos.map(
    (p, i) =>
      `<li><a href="${base}/${escapeHtml(p.id)}"><img src="${base}/${escapeHtml(p.id)}" alt="From the visit, ${i + 1} of ${photos.length}"></a></li>`,
  );
  return `<div class="card"><h2>Photos from the visit</h2><ul class="visit-photos">${items.join('')}</ul></div>`;
}

export function propertiesPage(page: PageContext, properties: PropertyView[]): string {
  const cards = properties.map(
    (p) =>
      `<div class="card">${p.label ? `<strong>${escapeHtml(p.label)}</strong><br>` : ''}${escapeHtml(p.address)}</div>`,
  );
  return layout(
    `${page.business.name}: your properties`,
    page.business,
    `${back(page)}<h2>Your properties</h2>
${cards.length ? cards.join('\n') : '<p class="muted">No addresses on file.</p>'}
<p class="muted">To change an address, contact ${escapeHtml(page.business.name)}.</p>`,
  );
}
