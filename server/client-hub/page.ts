import { computeTotals, toCents } from '../../shared/money';
import { dateInZone } from '../../shared/time-zone';
import type { ClientActionsTable } from '../db/schema';
import { formatMoney } from '../domain/documents';
import type { BusinessView, QuoteView } from './data';

/**
 * The client hub's HTML (docs/client-hub.md, "Serving"): server-rendered, no scripts, every value
 * escaped. Totals come from the lines and taxes through computeTotals, as on the quote's PDF.
 */
export function escapeHtml(value: unknown): string {
  return String(value ?? '').replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );
}

function logo(business: BusinessView): string {
  return business.logo_url
    ? `<img class="logo" src="${escapeHtml(business.logo_url)}" alt="${escapeHtml(business.name)} logo">`
    : '';
}

export function layout(
  title: string,
  business: BusinessView | undefined,
  body: string,
  footer = 'This page is for you only: please do not share its address.',
): string {
  const contact = business
    ? [business.phone, business.email, business.address].filter(Boolean).map(escapeHtml).join(' · ')
    : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<link rel="stylesheet" href="/c/assets/hub.css">
</head><body>
${business ? `<header class="business">${logo(business)}<h1>${escapeHtml(business.name)}</h1>${contact ? `<p>${contact}</p>` : ''}</header>` : ''}
<main>${body}</main>
<footer>${escapeHtml(footer)}</footer>
</body></html>`;
}

export interface PageContext {
  business: BusinessView;
  customerName: string;
  /** The page's own address: /c/<token>. */
  base: string;
  formToken: string;
}

type Shown = 'open' | 'expired' | 'accepted' | 'declined';

function shownStatus(quote: QuoteView, business: BusinessView, now: Date): Shown {
  if (quote.status === 'accepted' || quote.status === 'converted') return 'accepted';
  if (quote.status === 'declined') return 'declined';
  return quote.valid_until < dateInZone(now, business.timezone) ? 'expired' : 'open';
}

const BADGES: Record<Shown, string> = {
  open: '<span class="badge open">Waiting for your answer</span>',
  expired: '<span class="badge warn">Expired</span>',
  accepted: '<span class="badge good">Approved</span>',
  declined: '<span class="badge bad">Declined</span>',
};

/** The answer (approve or decline) the customer sent that no install has settled yet. */
function waitingAnswer(quoteId: string, actions: ClientActionsTable[]) {
  return actions.find(
    (a) => a.subject_id === quoteId && a.status === 'pending' && a.kind !== 'quote.changes',
  );
}

/** Quantities and rates printed as the PDF prints them (documents/pdf.ts). */
function quantity(value: number, business: BusinessView): string {
  return new Intl.NumberFormat(business.locale, { maximumFractionDigits: 4 }).format(value);
}

function percent(rate: number, business: BusinessView): string {
  return new Intl.NumberFormat(business.locale, { style: 'percent', maximumFractionDigits: 4 }).format(rate);
}

function money(cents: number, quote: QuoteView, business: BusinessView) {
  return escapeHtml(formatMoney(cents, quote.currency, business.locale));
}

/** What the home page's links to the other sections say. */
export interface HomeSummary {
  invoicesToPay: number;
  nextVisit: string | null;
  properties: number;
}

export function homePage(
  page: PageContext,
  quotes: QuoteView[],
  actions: ClientActionsTable[],
  now: Date,
  summary: HomeSummary,
): string {
  const cards = quotes.map((quote) => {
    const totals = computeTotals(quote.lines, quote.taxes);
    const waiting = waitingAnswer(quote.id, actions);
    const badge = waiting
      ? `<span class="badge open">Sent to ${escapeHtml(page.business.name)}</span>`
      : BADGES[shownStatus(quote, page.business, now)];
    return `<div class="card"><a class="open" href="${page.base}/quotes/${escapeHtml(quote.id)}">
<span><strong>Quote ${escapeHtml(quote.number)}</strong><br><span class="muted">${escapeHtml(quote.lines[0]?.description ?? '')}</span></span>
<span class="num"><strong>${money(totals.total_cents, quote, page.business)}</strong><br>${badge}</span></a></div>`;
  });
  return layout(
    `${page.business.name}: your page`,
    page.business,
    `<p>Hello ${escapeHtml(page.customerName)}.</p>
${sections(page, summary)}
<h2>Your quotes</h2>
${cards.length ? cards.join('\n') : '<p class="muted">No quotes at the moment.</p>'}
<h2>Need something done?</h2><div class="card"><a class="open" href="${page.base}/request"><span><strong>Request work</strong><br><span class="muted">Tell us what, where and when suits you.</span></span><span class="num">›</span></a></div>
${activity(actions, page.business)}`,
  );
}

function sections(page: PageContext, summary: HomeSummary): string {
  const link = (path: string, name: string, detail: string) =>
    `<div class="card"><a class="open" href="${page.base}/${path}"><strong>${name}</strong><span class="muted">${escapeHtml(detail)}</span></a></div>`;
  return `<nav class="sections">
${link('invoices', 'Invoices', summary.invoicesToPay ? `${summary.invoicesToPay} to pay` : 'Nothing to pay')}
${link('visits', 'Visits', summary.nextVisit ? `Next: ${summary.nextVisit}` : 'None coming up')}
${link('properties', 'Properties', `${summary.properties}`)}
</nav>`;
}

const ACTION_NAMES: Record<ClientActionsTable['kind'], string> = {
  'quote.approve': 'Approval',
  'quote.decline': 'Decline',
  'quote.changes': 'Change request',
  'invoice.payment_notice': 'Payment notice',
  'visit.reschedule': 'Reschedule request',
  'link.renew': 'New link request',
  'review.submit': 'Review',
  'booking.request': 'Work request',
  'booking.page': 'Booking request',
};

export function activity(actions: ClientActionsTable[], business: BusinessView): string {
  if (actions.length === 0) return '';
  const rows = actions.slice(0, 10).map((a) => {
    const what = ACTION_NAMES[a.kind];
    const state =
      a.status === 'pending'
        ? `Sent to ${escapeHtml(business.name)}`
        : a.status === 'applied' || a.status === 'handled'
          ? escapeHtml(a.outcome ?? 'Done')
          : `Not done: ${escapeHtml(a.outcome ?? '')}`;
    return `<li>${escapeHtml(what)}, ${escapeHtml(dateInZone(new Date(a.created_at), business.timezone))}: ${state}</li>`;
  });
  return `<h2>What you sent us</h2><div class="card"><ul>${rows.join('')}</ul></div>`;
}

export function quotePage(
  page: PageContext,
  quote: QuoteView,
  actions: ClientActionsTable[],
  now: Date,
  error?: string,
): string {
  const totals = computeTotals(quote.lines, quote.taxes);
  const shown = shownStatus(quote, page.business, now);
  const waiting = waitingAnswer(quote.id, actions);
  const lines = totals.lines
    .map(
      (l) =>
        `<tr><td>${escapeHtml(l.description)}<br><span class="muted">${escapeHtml(quantity(l.quantity, page.business))} × ${money(
          toCents(l.unit_price),
          quote,
          page.business,
        )}</span></td><td class="num">${money(l.amount_cents, quote, page.business)}</td></tr>`,
    )
    .join('');
  const taxes = totals.taxes
    .map(
      (t) =>
        `<tr><td>${escapeHtml(t.name)} (${escapeHtml(percent(t.rate, page.business))})</td><td class="num">${money(t.amount_cents, quote, page.business)}</td></tr>`,
    )
    .join('');
  const refused = actions.find((a) => a.subject_id === quote.id && a.status === 'refused');
  const notice = waiting
    ? `<div class="card notice"><strong>Sent to ${escapeHtml(page.business.name)}.</strong> Your ${
        waiting.kind === 'quote.approve' ? 'approval' : 'answer'
      } is recorded and reaches them as soon as their office is online.</div>`
    : refused && shown === 'open'
      ? `<div class="card notice bad">${escapeHtml(refused.outcome)}</div>`
      : '';
  const answered = shown === 'accepted' || shown === 'declined';
  return layout(
    `Quote ${quote.number}`,
    page.business,
    `<p><a href="${page.base}">← All your quotes</a></p>
<h2>Quote ${escapeHtml(quote.number)} ${waiting ? '' : BADGES[shown]}</h2>
<p class="muted">Issued ${escapeHtml(quote.issue_date)} · valid until ${escapeHtml(quote.valid_until)}</p>
${notice}
${error ? `<div class="card notice bad"><p class="error" role="alert">${escapeHtml(error)}</p></div>` : ''}
<div class="card"><table>
<thead><tr><th>Description</th><th class="num">Amount</th></tr></thead>
<tbody>${lines}
<tr><td>Subtotal</td><td class="num">${money(totals.subtotal_cents, quote, page.business)}</td></tr>
${taxes}
<tr class="total"><td>Total</td><td class="num">${money(totals.total_cents, quote, page.business)}</td></tr>
</tbody></table>
${quote.notes ? `<p>${escapeHtml(quote.notes)}</p>` : ''}</div>
${shown === 'open' && !waiting ? answerForms(page, quote) : ''}
${answered || waiting ? '' : changesForm(page, quote)}
${activity(
  actions.filter((a) => a.subject_id === quote.id),
  page.business,
)}`,
  );
}

export function hidden(page: PageContext): string {
  return `<input type="hidden" name="form_token" value="${escapeHtml(page.formToken)}">`;
}

function answerForms(page: PageContext, quote: QuoteView): string {
  const action = `${page.base}/quotes/${escapeHtml(quote.id)}`;
  return `<div class="card"><form method="post" action="${action}/approve">${hidden(page)}
<h2>Approve this quote</h2>
<label for="approve-name">Type your full name to approve</label>
<input type="text" id="approve-name" name="name" autocomplete="name" required maxlength="120">
<p class="muted">Your name, the time and your internet address are kept as the record of your approval.</p>
<button type="submit">Approve quote ${escapeHtml(quote.number)}</button></form></div>
<div class="card"><details><summary>Decline this quote</summary>
<form method="post" action="${action}/decline">${hidden(page)}
<label for="decline-reason">Reason (optional)</label>
<textarea id="decline-reason" name="reason" maxlength="1000"></textarea>
<button type="submit" class="secondary">Decline quote</button></form></details></div>`;
}

function changesForm(page: PageContext, quote: QuoteView): string {
  return `<div class="card"><details><summary>Ask for changes</summary>
<form method="post" action="${page.base}/quotes/${escapeHtml(quote.id)}/changes">${hidden(page)}
<label for="changes-message">What would you like changed?</label>
<textarea id="changes-message" name="message" required maxlength="2000"></textarea>
<button type="submit" class="secondary">Send my request</button></form></details></div>`;
}

/** An unknown, revoked or expired link: one page for all, with the way to ask for a new one. */
export function linkNotValidPage(base: string, sent: boolean): string {
  return layout(
    'This link no longer works',
    undefined,
    `<h2>This link no longer works</h2>
${
  sent
    ? '<div class="card notice good" role="status">Thank you. If this matches our records, we will send you a new link.</div>'
    : `<p>Links to your page expire after a while. Enter the e-mail address or phone number you gave us and we will send you a new one.</p>
<div class="card"><form method="post" action="${base}/renew">
<label for="renew-contact">E-mail or phone</label>
<input type="text" id="renew-contact" name="contact" required maxlength="200" autocomplete="email">
<button type="submit">Send me a new link</button></form></div>`
}`,
  );
}

export function messagePage(title: string, message: string, status: 'good' | 'bad' = 'bad'): string {
  return layout(
    title,
    undefined,
    `<h2>${escapeHtml(title)}</h2><div class="card notice ${status}">${escapeHtml(message)}</div>`,
  );
}
