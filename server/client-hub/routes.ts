import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  CLIENT_ACTION_FORMS,
  type ClientActionKind,
  ClientRelinkForm,
} from '../../shared/schemas/client-hub';
import type { ClientActionsTable, ClientLinksTable } from '../db/schema';
import { RateLimiter } from '../http/rate-limiter';
import { formToken, formTokenMatches, parseClientToken, secretMatches } from '../lib/client-token';
import type { Clock } from '../lib/clock';
import { newId } from '../lib/ids';
import { publicBookingPage } from './booking-page-public';
import { type ClientHubData, withLogoAt } from './data';
import { HUB_SCHEMAS } from './openapi';
import { homePage, linkNotValidPage, messagePage, quotePage } from './page';
import { publicPages } from './public-page-routes';
import { invoiceBalance, isUpcoming, visitWhen } from './record-pages';
import { registerRecordRoutes } from './record-routes';
import { requestWorkPage } from './request-work-page';
import { reviewPage } from './review-page';
import type { HubRouteContext, Opened } from './route-context';
import { CLIENT_HUB_CSS } from './style';

/** Requests a minute (docs/client-hub.md, "Serving"): per link, and per address whatever the link. */
export const LINK_LIMIT = 60;
export const ADDRESS_LIMIT = 120;
const WINDOW_MS = 60_000;

/** HTML for customers, not the API: kept out of the OpenAPI document. */

const ACTIONS: Record<string, ClientActionKind> = {
  approve: 'quote.approve',
  decline: 'quote.decline',
  changes: 'quote.changes',
};

/**
 * The client hub's pages under /c (docs/client-hub.md): anyone holding a valid link may read that
 * one customer's page and post its forms; nobody else may read or write anything. One plugin for
 * the hosted hub and an install, over the data source it is given.
 */
export function clientHubRoutes(data: ClientHubData, clock: Clock) {
  const limiter = new RateLimiter();
  return async (app: FastifyInstance) => {
    publicPages(app);
    app.addHook('onRequest', async (request, reply) => {
      const token = (request.params as { token?: string } | undefined)?.token ?? request.url.split('/')[2];
      const rules = [{ bucket: `address:${request.ip}`, limit: ADDRESS_LIMIT, windowMs: WINDOW_MS }];
      // A public booking page has no link: only its visitors' addresses are counted.
      if (request.url.startsWith('/c/')) {
        rules.push({ bucket: `link:${String(token).split('.')[0]}`, limit: LINK_LIMIT, windowMs: WINDOW_MS });
      }
      const decision = limiter.take(rules, clock.now().getTime());
      if (!decision.allowed) {
        reply.header('Retry-After', String(decision.retryAfterSeconds));
        return reply
          .code(429)
          .type('text/html; charset=utf-8')
          .send(messagePage('Too many requests', 'Please wait a minute and try again.'));
      }
      // A form posted from another site is refused whatever it carries (CSRF).
      if (request.method === 'POST' && !sameOrigin(request)) {
        return reply
          .code(403)
          .type('text/html; charset=utf-8')
          .send(messagePage('Not sent', 'This form must be sent from its own page.'));
      }
    });

    app.get('/c/assets/hub.css', { schema: { hide: true } }, async (_request, reply) =>
      reply
        .type('text/css; charset=utf-8')
        .header('Cache-Control', 'public, max-age=3600')
        .send(CLIENT_HUB_CSS),
    );

    const open = async (token: string): Promise<Opened | undefined> => {
      const parsed = parseClientToken(token);
      const link = parsed && (await data.link(parsed.linkId));
      if (!parsed || !link || !secretMatches(parsed.secret, link.token_hash)) return undefined;
      if (link.revoked_at || link.expires_at <= clock.now().toISOString()) return undefined;
      const [business, customer] = await Promise.all([
        data.business(link.account_id),
        data.customer(link.account_id, link.customer_id),
      ]);
      if (!business || !customer) return undefined;
      return {
        link,
        page: {
          business: withLogoAt(business, `/c/${token}`),
          customerName: customer.name,
          base: `/c/${token}`,
          formToken: formToken(link.id, link.token_hash),
        },
      };
    };

    const html = (reply: FastifyReply, body: string, status = 200) =>
      reply.code(status).type('text/html; charset=utf-8').send(body);

    const sendLogo: HubRouteContext['sendLogo'] = async (reply, accountId, version, cache) => {
      const logo = await data.logo(accountId);
      if (!logo || logo.version !== version) {
        return html(reply, messagePage('Not found', 'There is no such image.'), 404);
      }
      return reply
        .type(logo.content_type)
        .header('Cache-Control', `${cache}, max-age=31536000, immutable`)
        .send(logo.bytes);
    };

    const hub: HubRouteContext = {
      data,
      clock,
      open,
      html,
      sendLogo,
      limit: (bucket, limit, windowMs) => {
        const decision = limiter.take([{ bucket, limit, windowMs }], clock.now().getTime());
        return decision.allowed ? null : decision.retryAfterSeconds;
      },
      formOk: (opened, body) =>
        formTokenMatches(String(body.form_token ?? ''), opened.link.id, opened.link.token_hash),
      record: async (opened, kind, subjectId, payload, request) => {
        const row = actionRow(opened.link, kind, subjectId, payload, request, clock);
        await data.record(row);
        return row;
      },
    };
    reviewPage(app, hub);
    requestWorkPage(app, hub);
    publicBookingPage(app, hub);

    app.get<{ Params: { token: string } }>(
      '/c/:token',
      { schema: HUB_SCHEMAS.home },
      async (request, reply) => {
        const opened = await open(request.params.token);
        if (!opened) return html(reply, linkNotValidPage(`/c/${request.params.token}`, false), 404);
        const { link, page } = opened;
        const [quotes, actions, invoices, visits, properties] = await Promise.all([
          data.quotes(link.account_id, link.customer_id),
          data.actions(link.account_id, link.customer_id),
          data.invoices(link.account_id, link.customer_id),
          data.visits(link.account_id, link.customer_id),
          data.properties(link.account_id, link.customer_id),
        ]);
        const now = clock.now();
        const next = visits.find((v) => isUpcoming(v, now));
        const summary = {
          invoicesToPay: invoices.filter((i) => i.status !== 'void' && invoiceBalance(i).balance > 0).length,
          nextVisit: next ? visitWhen(next, page.business) : null,
          properties: properties.length,
        };
        return html(reply, homePage(page, quotes, actions, now, summary));
      },
    );

    const showQuote = async (opened: Opened, quoteId: string, reply: FastifyReply, error?: string) => {
      const { link, page } = opened;
      const [quotes, actions] = await Promise.all([
        data.quotes(link.account_id, link.customer_id),
        data.actions(link.account_id, link.customer_id),
      ]);
      const quote = quotes.find((q) => q.id === quoteId);
      if (!quote) return html(reply, messagePage('Not found', 'There is no such quote on your page.'), 404);
      return html(reply, quotePage(page, quote, actions, clock.now(), error), error ? 400 : 200);
    };

    app.get<{ Params: { token: string; version: string } }>(
      '/c/:token/logo/:version',
      { schema: HUB_SCHEMAS.logo },
      async (request, reply) => {
        const opened = await open(request.params.token);
        if (!opened) return html(reply, linkNotValidPage(`/c/${request.params.token}`, false), 404);
        return sendLogo(reply, opened.link.account_id, request.params.version, 'private');
      },
    );

    app.get<{ Params: { token: string; id: string } }>(
      '/c/:token/quotes/:id',
      { schema: HUB_SCHEMAS.quote },
      async (request, reply) => {
        const opened = await open(request.params.token);
        if (!opened) return html(reply, linkNotValidPage(`/c/${request.params.token}`, false), 404);
        return showQuote(opened, request.params.id, reply);
      },
    );

    app.post<{ Params: { token: string; id: string; action: string }; Body: Record<string, string> }>(
      '/c/:token/quotes/:id/:action',
      { schema: HUB_SCHEMAS.answer },
      async (request, reply) => {
        const opened = await open(request.params.token);
        if (!opened) return html(reply, linkNotValidPage(`/c/${request.params.token}`, false), 404);
        const kind = ACTIONS[request.params.action];
        if (!kind) return html(reply, messagePage('Not found', 'There is no such form.'), 404);
        const body = request.body ?? {};
        if (!formTokenMatches(String(body.form_token ?? ''), opened.link.id, opened.link.token_hash)) {
          return html(reply, messagePage('Not sent', 'This form has expired: open the page again.'), 403);
        }
        const { link } = opened;
        const quote = (await data.quotes(link.account_id, link.customer_id)).find(
          (q) => q.id === request.params.id,
        );
        if (!quote) return html(reply, messagePage('Not found', 'There is no such quote on your page.'), 404);
        const form = CLIENT_ACTION_FORMS[kind].safeParse(body);
        if (!form.success) {
          const issue = form.error.issues[0]!;
          return showQuote(opened, quote.id, reply, `${String(issue.path[0] ?? 'form')}: ${issue.message}`);
        }
        const actions = await data.actions(link.account_id, link.customer_id);
        // An answer already on its way (a second click, a reload of the post) is not sent twice.
        const answered = actions.some(
          (a) => a.subject_id === quote.id && a.kind !== 'quote.changes' && a.status !== 'refused',
        );
        if (kind === 'quote.changes' || !answered) {
          await data.record(actionRow(link, kind, quote.id, form.data, request, clock));
        }
        return reply.redirect(`/c/${request.params.token}/quotes/${quote.id}`, 303);
      },
    );

    registerRecordRoutes(app, {
      data,
      clock,
      open,
      html,
      checkForm: (opened, body) =>
        formTokenMatches(String(body.form_token ?? ''), opened.link.id, opened.link.token_hash),
      record: (opened, kind, subjectId, payload, request) =>
        data.record(actionRow(opened.link, kind, subjectId, payload, request, clock)),
    });

    app.post<{ Params: { token: string }; Body: Record<string, string> }>(
      '/c/:token/renew',
      { schema: HUB_SCHEMAS.renew },
      async (request, reply) => {
        const form = ClientRelinkForm.safeParse(request.body ?? {});
        if (!form.success) return html(reply, linkNotValidPage(`/c/${request.params.token}`, false), 400);
        const parsed = parseClientToken(request.params.token);
        const link = parsed && (await data.link(parsed.linkId));
        // Only a real link that ran out asks its business; the answer is the same whatever matched.
        if (parsed && link && !link.revoked_at && secretMatches(parsed.secret, link.token_hash)) {
          await data.record(actionRow(link, 'link.renew', link.id, form.data, request, clock));
        }
        return html(reply, linkNotValidPage(`/c/${request.params.token}`, true));
      },
    );
  };
}

function actionRow(
  link: ClientLinksTable,
  kind: ClientActionsTable['kind'],
  subjectId: string,
  payload: unknown,
  request: FastifyRequest,
  clock: Clock,
): ClientActionsTable {
  const now = clock.now();
  return {
    id: newId('act', now.getTime()),
    account_id: link.account_id,
    customer_id: link.customer_id,
    link_id: link.id,
    kind,
    subject_id: subjectId,
    payload: JSON.stringify(payload),
    ip: request.ip,
    created_at: now.toISOString(),
    status: 'pending',
    outcome: null,
    applied_at: null,
  };
}

/** A POST must come from a page of this very origin: browsers send Origin on every form post. */
function sameOrigin(request: FastifyRequest): boolean {
  const origin = request.headers.origin;
  if (!origin) return false;
  try {
    return new URL(origin).host === request.headers.host;
  } catch {
    return false;
  }
}
