import type { FastifyInstance } from 'fastify';
import { ClientReviewForm } from '../../shared/schemas/client-hub';
import { dateInZone } from '../../shared/time-zone';
import { HUB_SCHEMAS } from './openapi';
import { escapeHtml, hidden, layout, linkNotValidPage, messagePage, type PageContext } from './page';
import type { HubRouteContext, Opened } from './route-context';

interface Visit {
  requestId: string;
  title: string;
  day: string | null;
  /** The review is in, or on its way to the owner. */
  answered: boolean;
}

/**
 * The review form a completed visit's request e-mail opens (docs/client-hub.md, "Reviews"): a
 * star rating and a comment, recorded as a `review.submit` action the owner's install applies
 * once (recordCustomerReview, `review.received`). A visit is reviewed once: a second answer gets
 * a clear message and records nothing.
 */
export function reviewPage(app: FastifyInstance, hub: HubRouteContext): void {
  const visitOf = async (opened: Opened, requestId: string): Promise<Visit | undefined> => {
    const { link } = opened;
    const found = await hub.data.rows.readRow(link.account_id, 'review_requests', requestId);
    // A link shows its own customer's visits only: another's request is as missing as none.
    if (!found || found.row.customer_id !== link.customer_id) return undefined;
    const job = await hub.data.rows.readRow(link.account_id, 'jobs', String(found.row.job_id));
    const actions = await hub.data.actions(link.account_id, link.customer_id);
    const sent = actions.some(
      (a) => a.kind === 'review.submit' && a.subject_id === requestId && a.status !== 'refused',
    );
    const completed = job?.row.completed_at ? String(job.row.completed_at) : null;
    return {
      requestId,
      title: job ? String(job.row.title) : 'Your visit',
      day: completed && dateInZone(new Date(completed), opened.page.business.timezone),
      answered: found.row.status === 'answered' || sent,
    };
  };

  app.get<{ Params: { token: string; id: string } }>(
    '/c/:token/reviews/:id',
    { schema: HUB_SCHEMAS.review },
    async (request, reply) => {
      const opened = await hub.open(request.params.token);
      if (!opened) return hub.html(reply, linkNotValidPage(`/c/${request.params.token}`, false), 404);
      const visit = await visitOf(opened, request.params.id);
      if (!visit)
        return hub.html(reply, messagePage('Not found', 'There is no such visit on your page.'), 404);
      return hub.html(reply, reviewFormPage(opened.page, visit));
    },
  );

  app.post<{ Params: { token: string; id: string }; Body: Record<string, string> }>(
    '/c/:token/reviews/:id',
    { schema: HUB_SCHEMAS.reviewPost },
    async (request, reply) => {
      const opened = await hub.open(request.params.token);
      if (!opened) return hub.html(reply, linkNotValidPage(`/c/${request.params.token}`, false), 404);
      const body = request.body ?? {};
      if (!hub.formOk(opened, body)) {
        return hub.html(reply, messagePage('Not sent', 'This form has expired: open the page again.'), 403);
      }
      const visit = await visitOf(opened, request.params.id);
      if (!visit)
        return hub.html(reply, messagePage('Not found', 'There is no such visit on your page.'), 404);
      if (visit.answered) {
        return hub.html(
          reply,
          messagePage('Already reviewed', 'You have reviewed this visit already; thank you.'),
          409,
        );
      }
      const form = ClientReviewForm.safeParse(body);
      if (!form.success) {
        const issue = form.error.issues[0]!;
        const error = `${String(issue.path[0] ?? 'form')}: ${issue.message}`;
        return hub.html(reply, reviewFormPage(opened.page, visit, error), 400);
      }
      await hub.record(opened, 'review.submit', visit.requestId, form.data, request);
      return reply.redirect(`/c/${request.params.token}/reviews/${visit.requestId}`, 303);
    },
  );
}

function reviewFormPage(page: PageContext, visit: Visit, error?: string): string {
  const heading = `<h2>${escapeHtml(visit.title)}</h2>${
    visit.day ? `<p class="muted">Visit of ${escapeHtml(visit.day)}</p>` : ''
  }`;
  if (visit.answered) {
    return layout(
      `${page.business.name}: thank you`,
      page.business,
      `${heading}<div class="card notice good" role="status"><strong>Thank you for your review.</strong> It is on its way to ${escapeHtml(
        page.business.name,
      )}.</div><p><a href="${page.base}">Back to your page</a></p>`,
    );
  }
  const stars = [5, 4, 3, 2, 1]
    .map(
      (n) =>
        `<input type="radio" id="star-${n}" name="rating" value="${n}" required><label for="star-${n}" title="${n} of 5">★</label>`,
    )
    .join('');
  return layout(
    `${page.business.name}: how did we do?`,
    page.business,
    `<p>Hello ${escapeHtml(page.customerName)}.</p>${heading}
${error ? `<div class="card notice bad" role="alert"><span class="error">${escapeHtml(error)}</span></div>` : ''}
<div class="card"><form method="post" action="${page.base}/reviews/${escapeHtml(visit.requestId)}">${hidden(page)}
<fieldset class="stars"><legend>How did we do?</legend>${stars}</fieldset>
<label for="review-comment">Tell us more (optional)</label>
<textarea id="review-comment" name="comment" maxlength="5000"></textarea>
<button type="submit">Send my review</button></form></div>`,
  );
}
