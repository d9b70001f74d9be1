import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../server/lib/clock';
import { expectOk, expectStatus, okBody } from '../helpers/api-responses';
import { startTestServer, type TestAccount, type TestServer } from '../helpers/server';
import { decodedText, type SmtpSink, startSmtpSink } from '../helpers/smtp-sink';

/**
 * Invoice e-mails and visit reminders carry the customer's client hub link where the business set
 * its client hub's address (docs/client-hub.md, "Links"), through the mail worker to a real SMTP
 * server; the link opens the customer's page on this install.
 */

// Monday 2 November 2026, 09:30 in Toronto: a visit tomorrow is reminded now.
const clock = manualClock('2026-11-02T14:30:00Z');
let server: TestServer;
let smtp: SmtpSink;

beforeAll(async () => {
  server = await startTestServer({ clock });
  smtp = await startSmtpSink();
}, 120_000);
afterAll(async () => {
  await server?.stop();
  await smtp?.close();
});

async function account(business: string, withHub: boolean): Promise<TestAccount> {
  const created = await server.createAccount({ business });
  const current = okBody(await created.portal('GET', '/config'));
  const saved = await created.portal('PUT', '/config', {
    body: {
      timezone: 'America/Toronto',
      reminders: { ...current.reminders, appointment: { ...current.reminders.appointment, enabled: true } },
      smtp: { host: '127.0.0.1', port: smtp.port, secure: false, from: 'office@example.com' },
      ...(withHub && { client_hub_url: server.url, serve_client_hub: true }),
    },
  });
  expectStatus(saved, 200);
  return created;
}

function deliveredTo(email: string): string[] {
  return smtp.messages.filter((m) => m.to.includes(email)).map((m) => decodedText(m.raw));
}

const LINK = /https?:\/\/\S+\/c\/lnk_[0-9a-z]{26}\.[A-Za-z0-9_-]{43}/;

async function linksOf(accountId: string) {
  return server.ctx.db
    .selectFrom('client_links')
    .select('customer_id')
    .where('account_id', '=', accountId)
    .execute();
}

describe('client hub links in e-mails', { timeout: 90_000 }, () => {
  it("an invoice's e-mail carries one link, kept when the e-mail is written afresh as it leaves", async () => {
    const shop = await account('Sparkle Cleaning', true);
    const invoice = okBody(
      await shop.portal('POST', '/invoices/create', {
        body: {
          customer_name: 'Ada Lovelace',
          customer_email: 'ada@example.com',
          items: [{ description: 'Deep clean', quantity: 2, unit_price: 120 }],
          taxes: [],
        },
      }),
    );
    server.setOnline(false);
    try {
      expect((await shop.portal('POST', `/invoices/${invoice.number}/send`)).status).toBe(200);
      // Paid in part while the e-mail waits: it leaves with the new balance and the same link.
      await shop.portal('POST', `/invoices/${invoice.number}/payment`, { body: { amount: 40 } });
    } finally {
      server.setOnline(true);
    }
    await server.outbound.mail.runDue();
    const [mail] = deliveredTo('ada@example.com');
    expect(mail).toContain('balance of $200.00');
    expect(mail).toContain('See it, its payments and how to pay here:');
    const link = LINK.exec(mail!)![0];
    expect(await linksOf(shop.clientId)).toEqual([{ customer_id: invoice.customer.id }]);
    const queued = expectOk(await shop.portal('GET', '/messages'));
    expect(queued.body.data[0]!.body).toContain(link);

    const page = await fetch(`${link}/invoices/${invoice.id}`);
    expectStatus(page, 200);
    expect(await page.text()).toContain(invoice.number);
  });

  it('a visit reminder ends with the link; neither e-mail has one without the address', async () => {
    const withHub = await account('Shine Windows', true);
    const without = await account('Plain Windows', false);
    const visit = async (shop: TestAccount, email: string) => {
      const created = await shop.portal('POST', '/jobs/create', {
        body: {
          customer_email: email,
          customer_name: 'Grace Hopper',
          title: 'Window cleaning',
          scheduled_start: '2026-11-03T15:00:00Z',
          scheduled_end: '2026-11-03T17:00:00Z',
        },
      });
      expectStatus(created, 201);
      return created.body as { id: string; customer: { id: string } };
    };
    const job = await visit(withHub, 'grace@example.com');
    await visit(without, 'hopper@example.com');
    const plainInvoice = expectOk(
      await without.portal('POST', '/invoices/create', {
        body: {
          customer_email: 'hopper@example.com',
          items: [{ description: 'Window cleaning', quantity: 1, unit_price: 90 }],
          taxes: [],
        },
      }),
    );
    await without.portal('POST', `/invoices/${plainInvoice.body.number}/send`);
    // The scheduler's own first pass (5 s after start) may queue them before this one on a loaded
    // machine: what counts is that each reminder is queued, once.
    await server.reminders.runNow();
    const queued = await server.ctx.db
      .selectFrom('reminder_sends')
      .select(({ fn }) => fn.countAll<number>().as('n'))
      .where('account_id', 'in', [withHub.clientId, without.clientId])
      .where('outcome', '=', 'queued')
      .executeTakeFirstOrThrow();
    expect(queued.n).toBe(2);
    await server.outbound.mail.runDue();

    const [reminder] = deliveredTo('grace@example.com');
    expect(reminder).toContain('your visit on Tuesday, November 3, 2026 at 10:00');
    expect(reminder).toContain('See your visits or ask to reschedule:');
    const link = LINK.exec(reminder!)![0];
    expect(await linksOf(withHub.clientId)).toEqual([{ customer_id: job.customer.id }]);
    const page = await fetch(`${link}/visits/${job.id}`);
    expectStatus(page, 200);
    expect(await page.text()).toContain('Window cleaning');

    const plain = deliveredTo('hopper@example.com');
    expect(plain).toHaveLength(2);
    for (const mail of plain) expect(mail).not.toMatch(/\/c\/lnk_/);
    expect(await linksOf(without.clientId)).toEqual([]);
  });

  it('an overdue reminder and a quote follow-up end with the link to that invoice and quote', async () => {
    const shop = await account('Gutter Guys', true);
    const current = okBody(await shop.portal('GET', '/config')).reminders;
    // client_hub_url again: a PUT without it sets it back to its default (null).
    await shop.portal('PUT', '/config', {
      body: {
        client_hub_url: server.url,
        serve_client_hub: true,
        reminders: {
          ...current,
          invoice_overdue: { ...current.invoice_overdue, enabled: true },
          quote_follow_up: { ...current.quote_follow_up, enabled: true },
        },
      },
    });
    const customer = { customer_email: 'linus@example.com', customer_name: 'Linus Pauling' };
    const items = [{ description: 'Gutter cleaning', quantity: 1, unit_price: 180 }];
    const invoice = expectOk(
      await shop.portal('POST', '/invoices/create', {
        body: { ...customer, items, taxes: [], issue_date: '2026-10-16', due_days: 14 },
      }),
    );
    const quote = expectOk(
      await shop.portal('POST', '/quotes/create', { body: { ...customer, items, taxes: [] } }),
    );
    await shop.portal('POST', `/invoices/${invoice.body.number}/mark-sent`);
    await shop.portal('POST', `/quotes/${quote.body.number}/mark-sent`);
    // Three days on: the invoice is overdue by six days and the quote was sent three days ago.
    clock.advance(3 * 24 * 60 * 60 * 1000);
    expect(await server.reminders.runNow()).toBe(2);
    await server.outbound.mail.runDue();

    const mails = deliveredTo('linus@example.com');
    expect(mails).toHaveLength(2);
    const overdue = mails.find((m) => m.includes(`invoice ${invoice.body.number}`))!;
    const followUp = mails.find((m) => m.includes(`quote ${quote.body.number}`))!;
    expect(overdue).toContain('See the invoice, its payments and how to pay:');
    expect(followUp).toContain('See the quote and approve it online:');
    const invoicePage = await fetch(`${LINK.exec(overdue)![0]}/invoices/${invoice.body.id}`);
    expectStatus(invoicePage, 200);
    expect(await invoicePage.text()).toContain(invoice.body.number);
    const quotePage = await fetch(`${LINK.exec(followUp)![0]}/quotes/${quote.body.id}`);
    expectStatus(quotePage, 200);
    expect(await quotePage.text()).toContain('Approve');
    expect(await linksOf(shop.clientId)).toHaveLength(2);
  });
});
