import type { FastifyInstance } from 'fastify';
import { MAX_PHOTO_BYTES, type PHOTO_TYPES, WorkRequestInput } from '../../shared/schemas/booking-request';
import { ClientWorkForm, preferredOf } from '../../shared/schemas/client-hub';
import type { StoredConfig } from '../../shared/schemas/config';
import { findService, preferredInstants, UNLISTED_SERVICE_MINUTES } from '../domain/booking-page';
import { checkPhotos } from '../domain/booking-photos';
import { newId } from '../lib/ids';
import { errorNotice, preferredFieldset, refusal } from './booking-forms';
import { businessConfig } from './data';
import { type FormFile, parseMultipart } from './multipart';
import { HUB_SCHEMAS } from './openapi';
import { escapeHtml, hidden, layout, linkNotValidPage, messagePage, type PageContext } from './page';
import type { HubRouteContext, Opened } from './route-context';
import type { Row } from './rows';

/** Photos the form takes: fewer than the API's five, since they travel inside the action's row. */
export const MAX_FORM_PHOTOS = 3;
const FILES = Symbol('files');

type Body = Record<string, string> & { [FILES]?: FormFile[] };

/**
 * "Request work" on the customer's page (docs/client-hub.md, "Request work"): a service (one the
 * booking page lists, or in their words), one of their places, up to three preferred days and
 * times, notes and photos, posted without scripts (multipart). Checked as requestBooking checks
 * it, then recorded as a `booking.request` action, which the owner's install applies once
 * (booking.created) and lists under Bookings › Requests waiting.
 */
export function requestWorkPage(app: FastifyInstance, hub: HubRouteContext): void {
  app.addContentTypeParser(
    'multipart/form-data',
    { parseAs: 'buffer', bodyLimit: MAX_FORM_PHOTOS * MAX_PHOTO_BYTES + 64 * 1024 },
    (request, body, done) => {
      const form = parseMultipart(body as Buffer, String(request.headers['content-type']));
      if (!form) return done(Object.assign(new Error('The form could not be read.'), { statusCode: 400 }));
      done(null, { ...form.fields, [FILES]: form.files });
    },
  );

  const load = async (opened: Opened) => {
    const { link } = opened;
    const [config, places] = await Promise.all([
      businessConfig(hub.data.rows, link.account_id),
      hub.data.rows.readRows(link.account_id, 'properties', {
        column: 'customer_id',
        values: [link.customer_id],
      }),
    ]);
    return { config: config!, places: places.filter((p) => p.status === 'active') };
  };

  const show = async (opened: Opened, error?: string) => {
    const { config, places } = await load(opened);
    return workFormPage(opened.page, config, places, hub.clock.now(), error);
  };

  app.get<{ Params: { token: string } }>(
    '/c/:token/request',
    { schema: HUB_SCHEMAS.work },
    async (request, reply) => {
      const opened = await hub.open(request.params.token);
      if (!opened) return hub.html(reply, linkNotValidPage(`/c/${request.params.token}`, false), 404);
      return hub.html(reply, await show(opened));
    },
  );

  app.post<{ Params: { token: string }; Body: Body }>(
    '/c/:token/request',
    { schema: HUB_SCHEMAS.workPost },
    async (request, reply) => {
      const opened = await hub.open(request.params.token);
      if (!opened) return hub.html(reply, linkNotValidPage(`/c/${request.params.token}`, false), 404);
      const body = request.body ?? {};
      if (!hub.formOk(opened, body)) {
        return hub.html(reply, messagePage('Not sent', 'This form has expired: open the page again.'), 403);
      }
      const form = ClientWorkForm.safeParse(body);
      const { config, places } = await load(opened);
      const files = body[FILES] ?? [];
      const payload = form.success ? workPayload(form.data, files) : undefined;
      const error = !form.success
        ? `${String(form.error.issues[0]!.path[0])}: ${form.error.issues[0]!.message}`
        : files.length > MAX_FORM_PHOTOS
          ? `Send at most ${MAX_FORM_PHOTOS} photos.`
          : payload!.property_id && !places.some((p) => p.id === payload!.property_id)
            ? 'Choose one of your places.'
            : refusal(() => checkWork(opened, config, payload!, hub.clock.now().getTime()));
      if (error) {
        return hub.html(reply, workFormPage(opened.page, config, places, hub.clock.now(), error), 400);
      }
      await hub.record(opened, 'booking.request', newId('bkg', hub.clock.now().getTime()), payload, request);
      return reply.redirect(`/c/${request.params.token}/request/sent`, 303);
    },
  );

  app.get<{ Params: { token: string } }>(
    '/c/:token/request/sent',
    { schema: HUB_SCHEMAS.workSent },
    async (request, reply) => {
      const opened = await hub.open(request.params.token);
      if (!opened) return hub.html(reply, linkNotValidPage(`/c/${request.params.token}`, false), 404);
      const { page } = opened;
      return hub.html(
        reply,
        layout(
          `${page.business.name}: request sent`,
          page.business,
          `<h2>Request sent</h2><div class="card notice good" role="status"><strong>Thank you.</strong> ${escapeHtml(
            page.business.name,
          )} has your request and will confirm a time with you.</div><p><a href="${page.base}">Back to your page</a></p>`,
        ),
      );
    },
  );
}

type WorkPayload = Omit<WorkRequestInput, 'customer_id'>;

function workPayload(form: ClientWorkForm, files: FormFile[]): WorkPayload {
  return {
    ...(form.service_id ? { service_id: form.service_id } : { service: form.service || undefined }),
    property_id: form.property_id || null,
    preferred: preferredOf(form),
    notes: form.notes || null,
    ...(files.length
      ? {
          photos: files.map((f) => ({
            content_type: f.contentType as (typeof PHOTO_TYPES)[number],
            data: f.data.toString('base64'),
          })),
        }
      : {}),
  };
}

/** requestBooking's checks, as of now: the action is applied later, judged as of when it was sent. */
function checkWork(opened: Opened, config: StoredConfig, payload: WorkPayload, nowMs: number): void {
  const input = WorkRequestInput.parse({ ...payload, customer_id: opened.link.customer_id });
  checkPhotos(input.photos ?? []);
  const service = input.service_id ? findService(config.booking_page, input.service_id) : null;
  preferredInstants(
    nowMs,
    config.booking_page,
    config.timezone,
    input.preferred,
    service?.duration_minutes ?? UNLISTED_SERVICE_MINUTES,
  );
}

function placeName(p: Row): string {
  return [p.label, p.street, p.unit, p.city].filter(Boolean).map(String).join(', ');
}

function workFormPage(
  page: PageContext,
  config: StoredConfig,
  places: Row[],
  now: Date,
  error?: string,
): string {
  const services = config.booking_page.services
    .map((s) => `<option value="${escapeHtml(s.id)}">${escapeHtml(s.name)}</option>`)
    .join('');
  const placeChoice = places.length
    ? `<label for="work-place">Where</label><select id="work-place" name="property_id">${places
        .map((p) => `<option value="${escapeHtml(p.id)}">${escapeHtml(placeName(p))}</option>`)
        .join('')}</select>`
    : '';
  return layout(
    `${page.business.name}: request work`,
    page.business,
    `<p><a href="${page.base}">← Your page</a></p><h2>Request work</h2>${errorNotice(error)}
<div class="card"><form method="post" action="${page.base}/request" enctype="multipart/form-data">${hidden(page)}
${
  services
    ? `<label for="work-service">What do you need?</label><select id="work-service" name="service_id"><option value="">Something else (describe it below)</option>${services}</select>
<label for="work-other">Something else</label>`
    : '<label for="work-other">What do you need?</label>'
}<input type="text" id="work-other" name="service" maxlength="200">
${placeChoice}
${preferredFieldset(config.booking_page, config.timezone, now)}
<label for="work-notes">Notes (optional)</label>
<textarea id="work-notes" name="notes" maxlength="2000"></textarea>
<label for="work-photos">Photos (optional, up to ${MAX_FORM_PHOTOS})</label>
<input type="file" id="work-photos" name="photos" accept="image/jpeg,image/png,image/webp" multiple>
<button type="submit">Send my request</button></form></div>`,
  );
}
