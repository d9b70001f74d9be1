import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClientLinkMaker } from '../../server/context';
import { askForReview, recordCustomerReview } from '../../server/domain/review-requests';
import { manualClock } from '../../server/lib/clock';
import { newId } from '../../server/lib/ids';
import { expectStatus, okBody } from '../helpers/api-responses';
import { startTestServer, type TestAccount, type TestServer } from '../helpers/server';
import { type SmtpSink, startSmtpSink } from '../helpers/smtp-sink';

const clock = manualClock('2026-11-23T15:00:00Z');
let server: TestServer;
let shop: TestAccount;
let smtp: SmtpSink;
let delivered: SmtpSink['messages'];
const links: Array<{ accountId: string; customerId: string; reviewRequestId: string }> = [];

// Stands in for the client hub's link maker (it records each link it is asked for).
const linkMaker: ClientLinkMaker = {
  async reviewLink(_tx, request) {
    links.push(request);
    return `https://hub.example/c/${request.reviewRequestId}`;
  },
};

beforeAll(async () => {
  server = await startTestServer({ clock });
  server.ctx.clientLinks = linkMaker;
  smtp = await startSmtpSink();
  delivered = smtp.messages;
  shop = await server.createAccount();
  const port = smtp.port;
  const configured = await shop.portal('PUT', '/config', {
    body: {
      business_email: 'owner@sparkle.test',
      owner_alerts: true,
      ask_for_reviews: true,
      smtp: { host: '127.0.0.1', port, secure: false, from: 'hello@sparkle.test' },
    },
  });
  expectStatus(configured, 200);
});
afterAll(async () => {
  await server.stop();
  await smtp.close();
});

async function completedVisit(email: string | null) {
  const customer = okBody(
    await shop.portal('POST', '/customers', {
      body: { name: 'Pat Green', ...(email ? { email } : { phone: '905 555 0199' }) },
    }),
  );
  const job = okBody(
    await shop.portal('POST', '/jobs/create', {
      body: { customer_id: customer.id, title: 'Lawn care', scheduled_start: '2026-11-23T14:00:00Z' },
    }),
  );
  const done = await shop.portal('POST', `/jobs/${job.job_number}/complete`);
  expectStatus(done, 200);
  return { customer, job };
}

const requestFor = (jobId: string) =>
  server.ctx.db
    .selectFrom('review_requests')
    .selectAll()
    .where('job_id', '=', jobId)
    .executeTakeFirstOrThrow();

describe('review requests after a visit', () => {
  it('e-mails the customer once, with the client hub’s link', async () => {
    const { customer, job } = await completedVisit('pat@example.com');
    const request = await requestFor(job.id);
    expect(request).toMatchObject({ status: 'sent', customer_id: customer.id });
    expect(links).toEqual([
      { accountId: shop.clientId, customerId: customer.id, reviewRequestId: request.id },
    ]);

    // Completing is the only trigger, and asking again for the same visit is a no-op.
    const row = await server.ctx.db
      .selectFrom('jobs')
      .selectAll()
      .where('id', '=', job.id)
      .executeTakeFirstOrThrow();
    await server.ctx.db.transaction().execute((tx) => askForReview(tx, server.ctx, shop.clientId, row));
    await server.outbound.mail.runDue();
    await server.outbound.mail.runDue();
    const toPat = delivered.filter((m) => m.to.includes('pat@example.com'));
    expect(toPat).toHaveLength(1);
    expect(toPat[0]!.raw).toContain(`https://hub.example/c/${request.id}`);
    expect(toPat[0]!.raw).toContain('Subject: How did we do? Sparkle Cleaning');
    expect(links).toHaveLength(1);
    const messages = okBody(await shop.portal('GET', '/messages?kind=review_request')).data;
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({ status: 'sent', kind: 'review_request', id: request.message_id });
  });

  it('records a customer without e-mail as not asked, and nothing when the owner has it off', async () => {
    const { job } = await completedVisit(null);
    expect((await requestFor(job.id)).status).toBe('no_email');
    await shop.portal('PUT', '/config', { body: { ask_for_reviews: false } });
    const later = await completedVisit('later@example.com');
    const none = await server.ctx.db
      .selectFrom('review_requests')
      .select('id')
      .where('job_id', '=', later.job.id)
      .execute();
    expect(none).toEqual([]);
    await shop.portal('PUT', '/config', { body: { ask_for_reviews: true } });
  });

  it('takes the customer’s review once per action id, and one review per visit', async () => {
    const { job } = await completedVisit('sky@example.com');
    const request = await requestFor(job.id);
    const id = newId('rev', clock.now().getTime());
    const answer = { review_request_id: request.id, rating: 4, comment: 'Tidy work' };
    const review = await recordCustomerReview(server.ctx, shop.clientId, answer, { id });
    expect(await recordCustomerReview(server.ctx, shop.clientId, { ...answer, rating: 1 }, { id })).toEqual(
      review,
    );
    expect(review).toMatchObject({ id, rating: 4, source: 'client_hub', job: { id: job.id } });
    expect((await shop.events('review.received')).filter((e: any) => e.data.object.id === id)).toHaveLength(
      1,
    );
    expect(await requestFor(job.id)).toMatchObject({ status: 'answered', review_id: id });

    const second = recordCustomerReview(server.ctx, shop.clientId, answer, { id: newId('rev') });
    await expect(second).rejects.toMatchObject({ status: 409, code: 'invalid_state' });
    const other = await server.createAccount({ business: 'Other' });
    const foreign = recordCustomerReview(server.ctx, other.clientId, answer, { id: newId('rev') });
    await expect(foreign).rejects.toMatchObject({ status: 404 });

    await server.outbound.mail.runDue();
    const alerts = delivered.filter(
      (m) => m.to.includes('owner@sparkle.test') && m.raw.includes('Tidy work'),
    );
    expect(alerts).toHaveLength(1);
  });
});
