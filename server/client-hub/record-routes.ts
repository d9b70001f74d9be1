import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { CLIENT_ACTION_FORMS } from '../../shared/schemas/client-hub';
import type { ClientActionsTable } from '../db/schema';
import type { Clock } from '../lib/clock';
import type { ClientHubData } from './data';
import { HUB_SCHEMAS } from './openapi';
import { linkNotValidPage, messagePage } from './page';
import { invoicePage, invoicesPage, propertiesPage, visitPage, visitsPage } from './record-pages';
import type { Opened } from './route-context';
import { visitPhotoImage, visitPhotos } from './visit-photos';

interface Deps {
  data: ClientHubData;
  clock: Clock;
  open(token: string): Promise<Opened | undefined>;
  html(reply: FastifyReply, body: string, status?: number): FastifyReply;
  checkForm(opened: Opened, body: Record<string, string>): boolean;
  record(
    opened: Opened,
    kind: ClientActionsTable['kind'],
    subjectId: string,
    payload: unknown,
    request: FastifyRequest,
  ): Promise<void>;
}

type Params = { token: string; id: string };

/** What the customer asked that the owner has not dealt with yet: asking again adds nothing. */
const waiting = (actions: ClientActionsTable[], kind: ClientActionsTable['kind'], subjectId: string) =>
  actions.some(
    (a) =>
      a.kind === kind && a.subject_id === subjectId && (a.status === 'pending' || a.status === 'applied'),
  );

/**
 * The invoices, visits and properties of the link's customer (docs/client-hub.md): the same
 * rules as the quotes' routes: a valid link, its own customer's records only (anything else is
 * the same not-found page), a form token and the page's own Origin on every post.
 */
export function registerRecordRoutes(app: FastifyInstance, deps: Deps): void {
  const { data, clock, open, html } = deps;
  const notValid = (reply: FastifyReply, token: string) =>
    html(reply, linkNotValidPage(`/c/${token}`, false), 404);
  const notFound = (reply: FastifyReply, what: string) =>
    html(reply, messagePage('Not found', `There is no such ${what} on your page.`), 404);
  const of = (opened: Opened) => [opened.link.account_id, opened.link.customer_id] as const;

  app.get<{ Params: { token: string } }>(
    '/c/:token/invoices',
    { schema: HUB_SCHEMAS.invoices },
    async (request, reply) => {
      const opened = await open(request.params.token);
      if (!opened) return notValid(reply, request.params.token);
      return html(reply, invoicesPage(opened.page, await data.invoices(...of(opened))));
    },
  );

  const showInvoice = async (opened: Opened, id: string, reply: FastifyReply, error?: string) => {
    const [invoices, actions] = await Promise.all([
      data.invoices(...of(opened)),
      data.actions(...of(opened)),
    ]);
    const invoice = invoices.find((i) => i.id === id);
    if (!invoice) return notFound(reply, 'invoice');
    const options = {
      instructions: opened.page.business.payment_instructions,
      error,
    };
    return html(reply, invoicePage(opened.page, invoice, actions, options), error ? 400 : 200);
  };

  app.get<{ Params: Params }>(
    '/c/:token/invoices/:id',
    { schema: HUB_SCHEMAS.invoice },
    async (request, reply) => {
      const opened = await open(request.params.token);
      if (!opened) return notValid(reply, request.params.token);
      return showInvoice(opened, request.params.id, reply);
    },
  );

  app.get<{ Params: Params }>(
    '/c/:token/invoices/:id/pdf',
    { schema: HUB_SCHEMAS.invoicePdf },
    async (request, reply) => {
      const opened = await open(request.params.token);
      if (!opened) return notValid(reply, request.params.token);
      const invoice = (await data.invoices(...of(opened))).find((i) => i.id === request.params.id);
      if (!invoice) return notFound(reply, 'invoice');
      const file = await data.invoicePdf(opened.link.account_id, invoice.id);
      return reply
        .type('application/pdf')
        .header('Content-Disposition', `attachment; filename="${file.filename}"`)
        .send(file.pdf);
    },
  );

  app.post<{ Params: Params; Body: Record<string, string> }>(
    '/c/:token/invoices/:id/payment-notice',
    { schema: HUB_SCHEMAS.paymentNotice },
    async (request, reply) => {
      const opened = await open(request.params.token);
      if (!opened) return notValid(reply, request.params.token);
      if (!deps.checkForm(opened, request.body ?? {})) return formExpired(reply, html);
      const invoice = (await data.invoices(...of(opened))).find((i) => i.id === request.params.id);
      if (!invoice) return notFound(reply, 'invoice');
      const form = CLIENT_ACTION_FORMS['invoice.payment_notice'].safeParse(request.body ?? {});
      if (!form.success) return showInvoice(opened, invoice.id, reply, issueText(form.error.issues[0]));
      if (!waiting(await data.actions(...of(opened)), 'invoice.payment_notice', invoice.id)) {
        await deps.record(opened, 'invoice.payment_notice', invoice.id, form.data, request);
      }
      return reply.redirect(`/c/${request.params.token}/invoices/${invoice.id}`, 303);
    },
  );

  app.get<{ Params: { token: string } }>(
    '/c/:token/visits',
    { schema: HUB_SCHEMAS.visits },
    async (request, reply) => {
      const opened = await open(request.params.token);
      if (!opened) return notValid(reply, request.params.token);
      return html(reply, visitsPage(opened.page, await data.visits(...of(opened)), clock.now()));
    },
  );

  const showVisit = async (opened: Opened, id: string, reply: FastifyReply, error?: string) => {
    const [visits, actions, photos] = await Promise.all([
      data.visits(...of(opened)),
      data.actions(...of(opened)),
      visitPhotos(data.rows, ...of(opened), id),
    ]);
    const visit = visits.find((v) => v.id === id);
    if (!visit) return notFound(reply, 'visit');
    return html(reply, visitPage(opened.page, visit, actions, photos, clock.now(), error), error ? 400 : 200);
  };

  app.get<{ Params: Params & { photo_id: string } }>(
    '/c/:token/visits/:id/photos/:photo_id',
    { schema: HUB_SCHEMAS.visitPhoto },
    async (request, reply) => {
      const opened = await open(request.params.token);
      if (!opened) return notValid(reply, request.params.token);
      const { id, photo_id } = request.params;
      const photo = await visitPhotoImage(data.rows, ...of(opened), id, photo_id);
      if (!photo) return notFound(reply, 'photo');
      return reply
        .type(photo.content_type)
        .header('Cache-Control', 'private, max-age=3600')
        .send(photo.bytes);
    },
  );

  app.get<{ Params: Params }>(
    '/c/:token/visits/:id',
    { schema: HUB_SCHEMAS.visit },
    async (request, reply) => {
      const opened = await open(request.params.token);
      if (!opened) return notValid(reply, request.params.token);
      return showVisit(opened, request.params.id, reply);
    },
  );

  app.post<{ Params: Params; Body: Record<string, string> }>(
    '/c/:token/visits/:id/reschedule',
    { schema: HUB_SCHEMAS.reschedule },
    async (request, reply) => {
      const opened = await open(request.params.token);
      if (!opened) return notValid(reply, request.params.token);
      if (!deps.checkForm(opened, request.body ?? {})) return formExpired(reply, html);
      const visit = (await data.visits(...of(opened))).find((v) => v.id === request.params.id);
      if (!visit) return notFound(reply, 'visit');
      const form = CLIENT_ACTION_FORMS['visit.reschedule'].safeParse(request.body ?? {});
      if (!form.success) return showVisit(opened, visit.id, reply, issueText(form.error.issues[0]));
      if (!waiting(await data.actions(...of(opened)), 'visit.reschedule', visit.id)) {
        await deps.record(opened, 'visit.reschedule', visit.id, form.data, request);
      }
      return reply.redirect(`/c/${request.params.token}/visits/${visit.id}`, 303);
    },
  );

  app.get<{ Params: { token: string } }>(
    '/c/:token/properties',
    { schema: HUB_SCHEMAS.properties },
    async (request, reply) => {
      const opened = await open(request.params.token);
      if (!opened) return notValid(reply, request.params.token);
      return html(reply, propertiesPage(opened.page, await data.properties(...of(opened))));
    },
  );
}

function formExpired(reply: FastifyReply, html: Deps['html']) {
  return html(reply, messagePage('Not sent', 'This form has expired: open the page again.'), 403);
}

function issueText(issue: { path: PropertyKey[]; message: string } | undefined): string {
  return issue ? `${String(issue.path[0] ?? 'form')}: ${issue.message}` : 'The form is not complete.';
}
