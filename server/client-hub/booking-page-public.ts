import type { FastifyInstance, FastifyReply } from 'fastify';
import { toCents } from '../../shared/money';
import { PageRequestInput } from '../../shared/schemas/booking-request';
import { PublicBookingForm, preferredOf } from '../../shared/schemas/client-hub';
import type { StoredConfig } from '../../shared/schemas/config';
import type { ClientActionsTable } from '../db/schema';
import { findService, preferredInstants, requireOpenPage } from '../domain/booking-page';
import { formatMoney } from '../domain/documents';
import { newId } from '../lib/ids';
import { errorNotice, hoursList, preferredFieldset, refusal } from './booking-forms';
import { type BusinessView, businessConfig, withLogoAt } from './data';
import { HUB_SCHEMAS } from './openapi';
import { escapeHtml, layout, messagePage } from './page';
import type { HubRouteContext } from './route-context';

/** Requests an address may send a business's public page in an hour (docs/client-hub.md). */
export const PAGE_REQUEST_LIMIT = 10;
const HOUR_MS = 3_600_000;
const FOOTER = 'Your details are used only to answer your request.';

interface OpenPage {
  accountId: string;
  business: BusinessView;
  config: StoredConfig;
}

/**
 * The public booking page (docs/client-hub.md, "Public booking page"): `/book/<business id>`, on
 * for a business whose owner turned it on in Settings › Booking page. A visitor picks a service
 * and times and leaves their contact; the request is checked as requestBookingFromPage checks it,
 * then recorded as a `booking.page` action that the owner's install applies once (the customer
 * found by e-mail or created, booking.created). The answer never says whether the e-mail matched:
 * the page does not look.
 */
export function publicBookingPage(app: FastifyInstance, hub: HubRouteContext): void {
  const openPage = async (id: string): Promise<OpenPage | undefined> => {
    const account = await hub.data.rows.readRow(null, 'accounts', id);
    if (!account) return undefined;
    const [business, config] = await Promise.all([
      hub.data.business(account.accountId),
      businessConfig(hub.data.rows, account.accountId),
    ]);
    if (!business || !config?.booking_page.enabled) return undefined;
    const base = `/book/${encodeURIComponent(id)}`;
    return { accountId: account.accountId, business: withLogoAt(business, base), config };
  };

  const closed = (reply: FastifyReply) =>
    hub.html(
      reply,
      messagePage('Not taking bookings online', 'This business is not taking bookings online.'),
      404,
    );

  app.get<{ Params: { business: string; version: string } }>(
    '/book/:business/logo/:version',
    { schema: HUB_SCHEMAS.bookLogo },
    async (request, reply) => {
      const page = await openPage(request.params.business);
      if (!page) return closed(reply);
      return hub.sendLogo(reply, page.accountId, request.params.version, 'public');
    },
  );

  app.get<{ Params: { business: string } }>(
    '/book/:business',
    { schema: HUB_SCHEMAS.book },
    async (request, reply) => {
      const page = await openPage(request.params.business);
      if (!page) return closed(reply);
      return hub.html(reply, bookingPage(request.params.business, page, hub.clock.now()));
    },
  );

  app.post<{ Params: { business: string }; Body: Record<string, string> }>(
    '/book/:business',
    { schema: HUB_SCHEMAS.bookPost },
    async (request, reply) => {
      const page = await openPage(request.params.business);
      if (!page) return closed(reply);
      const now = hub.clock.now();
      const form = PublicBookingForm.safeParse(request.body ?? {});
      const input: PageRequestInput | undefined = form.success
        ? {
            name: form.data.name,
            email: form.data.email,
            phone: form.data.phone || null,
            address: form.data.address || null,
            service_id: form.data.service_id,
            preferred: preferredOf(form.data),
            notes: form.data.notes || null,
          }
        : undefined;
      const error = form.success
        ? refusal(() => checkRequest(page.config, input!, now.getTime()))
        : `${String(form.error.issues[0]!.path[0])}: ${form.error.issues[0]!.message}`;
      if (error) return hub.html(reply, bookingPage(request.params.business, page, now, error), 400);
      const wait = hub.limit(`book:${page.accountId}:${request.ip}`, PAGE_REQUEST_LIMIT, HOUR_MS);
      if (wait !== null) {
        reply.header('Retry-After', String(wait));
        return hub.html(
          reply,
          messagePage('Too many requests', 'You have sent several requests already: please call us instead.'),
          429,
        );
      }
      const action: ClientActionsTable = {
        id: newId('act', now.getTime()),
        account_id: page.accountId,
        // A visitor is nobody's customer yet: applying the request finds or makes the customer.
        customer_id: '',
        link_id: '',
        kind: 'booking.page',
        subject_id: newId('bkg', now.getTime()),
        payload: JSON.stringify(input),
        ip: request.ip,
        created_at: now.toISOString(),
        status: 'pending',
        outcome: null,
        applied_at: null,
      };
      await hub.data.record(action);
      return reply.redirect(`/book/${encodeURIComponent(request.params.business)}/sent`, 303);
    },
  );

  app.get<{ Params: { business: string } }>(
    '/book/:business/sent',
    { schema: HUB_SCHEMAS.bookSent },
    async (request, reply) => {
      const page = await openPage(request.params.business);
      if (!page) return closed(reply);
      return hub.html(
        reply,
        layout(
          `${page.business.name}: request sent`,
          page.business,
          `<h2>Request sent</h2><div class="card notice good" role="status"><strong>Thank you.</strong> ${escapeHtml(
            page.business.name,
          )} has your request and will be in touch by e-mail to confirm a time.</div>`,
          FOOTER,
        ),
      );
    },
  );
}

/** requestBookingFromPage's checks, as of now. */
function checkRequest(config: StoredConfig, input: PageRequestInput, nowMs: number): void {
  const request = PageRequestInput.parse(input);
  requireOpenPage(config.booking_page);
  const service = findService(config.booking_page, request.service_id);
  preferredInstants(nowMs, config.booking_page, config.timezone, request.preferred, service.duration_minutes);
}

function bookingPage(id: string, page: OpenPage, now: Date, error?: string): string {
  const { config, business } = page;
  const services = config.booking_page.services
    .map((s, i) => {
      const price =
        s.price === null
          ? 'Priced on a quote'
          : formatMoney(toCents(s.price), business.currency, business.locale);
      return `<li><input type="radio" id="svc-${i}" name="service_id" value="${escapeHtml(s.id)}" required${i === 0 ? ' checked' : ''}>
<label for="svc-${i}"><strong>${escapeHtml(s.name)}</strong><span class="muted">${s.duration_minutes} min · ${escapeHtml(price)}</span></label></li>`;
    })
    .join('');
  return layout(
    `${business.name}: book online`,
    business,
    `${config.booking_page.intro ? `<p>${escapeHtml(config.booking_page.intro)}</p>` : ''}
<h2>Request a booking</h2>${errorNotice(error)}
<form method="post" action="/book/${escapeHtml(encodeURIComponent(id))}">
<div class="card"><fieldset><legend>Service</legend><ul class="plain services">${services}</ul></fieldset></div>
<div class="card">${preferredFieldset(config.booking_page, config.timezone, now)}</div>
<div class="card"><fieldset><legend>Your details</legend>
<label for="book-name">Name</label><input type="text" id="book-name" name="name" autocomplete="name" required maxlength="200">
<label for="book-email">E-mail</label><input type="email" id="book-email" name="email" autocomplete="email" required maxlength="254">
<label for="book-phone">Phone (optional)</label><input type="tel" id="book-phone" name="phone" autocomplete="tel" maxlength="40">
<label for="book-address">Address of the work (optional)</label><input type="text" id="book-address" name="address" autocomplete="street-address" maxlength="300">
<label for="book-notes">Notes (optional)</label><textarea id="book-notes" name="notes" maxlength="2000"></textarea>
</fieldset>
<button type="submit">Send my request</button></div></form>
${hoursList(config.booking_page, config.timezone, now)}`,
    FOOTER,
  );
}
