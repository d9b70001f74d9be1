import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../server/lib/clock';
import { expectOk, expectStatus, okBody } from '../helpers/api-responses';
import { startTestServer, type TestAccount, type TestServer } from '../helpers/server';
import { type SmtpSink, startSmtpSink } from '../helpers/smtp-sink';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
// Monday 2 November 2026, 09:30 in Toronto (EST, UTC−5).
const clock = manualClock('2026-11-02T14:30:00Z');
let server: TestServer;
let smtp: SmtpSink;
let smtpPort: number;
let delivered: SmtpSink['messages'];
const dataDir = mkdtempSync(path.join(tmpdir(), 'shopdesk-reminders-'));

beforeAll(async () => {
  server = await startTestServer({ clock, dataDir });
  smtp = await startSmtpSink();
  smtpPort = smtp.port;
  delivered = smtp.messages;
});
afterAll(async () => {
  await server.stop();
  await smtp.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** Quoted-printable soft line breaks undone, so a sentence of the body reads as one line. */
const plain = (raw: string) => raw.replace(/=\r\n/g, '').replace(/=3D/g, '=');

async function reminderAccount(port = smtpPort): Promise<TestAccount> {
  const account = await server.createAccount({ business: 'Sparkle Cleaning' });
  const current = okBody(await account.portal('GET', '/config'));
  const reminders = {
    ...current.reminders,
    invoice_overdue: { ...current.reminders.invoice_overdue, enabled: true },
    appointment: { ...current.reminders.appointment, enabled: true },
    quote_follow_up: { ...current.reminders.quote_follow_up, enabled: true },
  };
  const saved = await account.portal('PUT', '/config', {
    body: {
      timezone: 'America/Toronto',
      reminders,
      smtp: { host: '127.0.0.1', port, secure: false, from: 'billing@sparkle.example' },
    },
  });
  expectStatus(saved, 200);
  return account;
}

async function sentInvoice(account: TestAccount, email: string, issueDate: string, dueDays: number) {
  const created = await account.portal('POST', '/invoices/create', {
    body: {
      customer_name: 'Ada Lovelace',
      customer_email: email,
      issue_date: issueDate,
      due_days: dueDays,
      items: [{ description: 'Deep clean', quantity: 2, unit_price: 120 }],
      taxes: [{ name: 'HST', rate: 0.13 }],
    },
  });
  expectStatus(created, 201);
  expect((await account.portal('POST', `/invoices/${created.body.number}/mark-sent`)).status).toBe(200);
  return created.body as { id: string; number: string };
}

async function reminders(account: TestAccount) {
  return (okBody(await account.portal('GET', '/messages')).data as any[]).filter(
    (m) => m.kind === 'reminder',
  );
}

function deliveredTo(email: string) {
  return delivered.filter((d) => d.to.includes(email));
}

async function occasions(subjectId: string) {
  return server.ctx.db
    .selectFrom('reminder_sends')
    .select(['occasion', 'outcome'])
    .where('subject_id', '=', subjectId)
    .orderBy('occasion')
    .execute();
}

// Each step sends through the mail worker to the SMTP sink: on a loaded two-core machine, seconds each.
describe('overdue invoice reminders', { timeout: 90_000 }, () => {
  it('go once per step, with the amount due, and raise reminder.sent', async () => {
    const account = await reminderAccount();
    // Due Friday 30 October; the 3-day step is Monday 2 November at 09:00 Toronto, half an hour ago.
    const invoice = await sentInvoice(account, 'ada@example.com', '2026-10-16', 14);
    const before = okBody(await account.portal('GET', `/invoices/${invoice.number}`));
    expect(await server.reminders.runNow()).toBe(1);
    expect(await server.reminders.runNow()).toBe(0);
    await server.outbound.mail.runDue();
    const [mail] = deliveredTo('ada@example.com');
    expect(deliveredTo('ada@example.com')).toHaveLength(1);
    expect(mail!.raw).toContain(`Subject: Reminder: invoice ${invoice.number} is overdue`);
    expect(plain(mail!.raw)).toContain(`invoice ${invoice.number} for $271.20 was due on 2026-10-30`);
    expect(mail!.raw).toContain('application/pdf');
    const [listed] = await reminders(account);
    expect(listed).toMatchObject({
      kind: 'reminder',
      reminder: 'invoice_overdue',
      status: 'sent',
      document_id: invoice.id,
    });
    expect(await occasions(invoice.id)).toEqual([{ occasion: 'overdue+3d', outcome: 'queued' }]);
    // The invoice itself did not change: a reminder is not the invoice being sent again.
    expect(okBody(await account.portal('GET', `/invoices/${invoice.number}`))).toEqual(before);
    const onV1 = okBody(await account.v1('GET', `/reminders?document_id=${invoice.id}`));
    expect(onV1.data).toHaveLength(1);
    expect(onV1.data[0]).toMatchObject({
      reminder: 'invoice_overdue',
      status: 'sent',
      document_id: invoice.id,
    });
    expect(okBody(await account.portal('GET', '/messages?kind=invoice')).data).toHaveLength(0);
    const events = okBody(await account.v1('GET', '/events?type=reminder.sent')).data;
    expect(events).toHaveLength(1);
    expect(events[0]!.data.object).toMatchObject({
      reminder: 'invoice_overdue',
      document_id: invoice.id,
      status: 'sent',
    });
  });

  it('are recorded as not sent, saying why, for a customer without e-mail', async () => {
    const account = await reminderAccount();
    const hank = expectOk(
      await account.portal('POST', '/customers', {
        body: { name: 'Hank Miller', phone: '604 555 0199' },
      }),
    );
    const created = await account.portal('POST', '/invoices/create', {
      body: {
        customer_id: hank.body.id,
        issue_date: '2026-10-16',
        due_days: 14,
        items: [{ description: 'Deep clean', quantity: 1, unit_price: 120 }],
      },
    });
    expectStatus(created, 201);
    expect((await account.portal('POST', `/invoices/${created.body.number}/mark-sent`)).status).toBe(200);
    const sentBefore = delivered.length;
    expect(await server.reminders.runNow()).toBe(1);
    expect(await server.reminders.runNow()).toBe(0);
    await server.outbound.mail.runDue();
    expect(delivered).toHaveLength(sentBefore);
    const [listed] = await reminders(account);
    expect(listed).toMatchObject({
      reminder: 'invoice_overdue',
      status: 'cancelled',
      document_id: created.body.id,
    });
    expect(listed.last_error).toContain('no e-mail address');
    expect(await occasions(created.body.id)).toEqual([{ occasion: 'overdue+3d', outcome: 'queued' }]);
  });

  it('never go for a paid invoice, nor once it is paid while one waits', async () => {
    const account = await reminderAccount();
    const paid = await sentInvoice(account, 'paid@example.com', '2026-10-16', 14);
    await account.portal('POST', `/invoices/${paid.number}/paid`);
    const waiting = await sentInvoice(account, 'waiting@example.com', '2026-10-16', 14);
    server.setOnline(false);
    try {
      expect(await server.reminders.runNow()).toBe(1);
      await account.portal('POST', `/invoices/${waiting.number}/paid`);
    } finally {
      server.setOnline(true);
    }
    await server.outbound.mail.runDue();
    expect(deliveredTo('paid@example.com')).toHaveLength(0);
    expect(deliveredTo('waiting@example.com')).toHaveLength(0);
    const [held] = await reminders(account);
    expect(held).toMatchObject({ status: 'cancelled', reminder: 'invoice_overdue' });
    expect(held.last_error).toBe(`Invoice ${waiting.number} was paid in full before this e-mail went out.`);
  });

  it('after days switched off, send the latest step only and record the ones passed over', async () => {
    const account = await reminderAccount();
    // Due 12 October: the 3-, 7- and 14-day steps have all passed by 2 November.
    const invoice = await sentInvoice(account, 'late@example.com', '2026-09-28', 14);
    expect(await server.reminders.runNow()).toBe(1);
    await server.outbound.mail.runDue();
    expect(deliveredTo('late@example.com')).toHaveLength(1);
    expect(await occasions(invoice.id)).toEqual([
      { occasion: 'overdue+14d', outcome: 'queued' },
      { occasion: 'overdue+3d', outcome: 'skipped' },
      { occasion: 'overdue+7d', outcome: 'skipped' },
    ]);
  });

  it('wait while the SMTP server is unreachable, then go once', async () => {
    const closed = new SMTPServer({ logger: false });
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.server.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const account = await reminderAccount(closedPort);
    await sentInvoice(account, 'unreachable@example.com', '2026-10-16', 14);
    expect(await server.reminders.runNow()).toBe(1);
    await server.outbound.mail.runDue();
    const [waiting] = await reminders(account);
    expect(waiting).toMatchObject({ status: 'queued', attempts: 1 });
    expect(waiting.last_error).toMatch(/ECONNREFUSED/);
    // Passes meanwhile queue nothing more.
    expect(await server.reminders.runNow()).toBe(0);
    await account.portal('PUT', '/config', {
      body: { smtp: { host: '127.0.0.1', port: smtpPort, secure: false, from: 'billing@sparkle.example' } },
    });
    clock.advance(2 * MINUTE);
    await server.outbound.mail.runDue();
    clock.advance(10 * MINUTE);
    await server.outbound.mail.runDue();
    expect(deliveredTo('unreachable@example.com')).toHaveLength(1);
    expect((await reminders(account))[0]).toMatchObject({ status: 'sent', attempts: 2 });
  });
});

describe('visit reminders and quote follow-ups', () => {
  let account: TestAccount;

  beforeAll(async () => {
    account = await reminderAccount();
  });

  async function visit(email: string, start: string) {
    const created = await account.portal('POST', '/jobs/create', {
      body: {
        customer_email: email,
        customer_name: 'Grace Hopper',
        title: 'Window cleaning',
        address: '12 King St W',
        scheduled_start: start,
        scheduled_end: new Date(Date.parse(start) + 2 * 60 * MINUTE).toISOString(),
      },
    });
    expectStatus(created, 201);
    return created.body as { id: string; job_number: string };
  }

  it('remind the day before at the send hour, and drop a reminder whose visit was cancelled or moved', async () => {
    // Tuesday 3 November, 10:00 Toronto.
    const kept = await visit('kept@example.com', '2026-11-03T15:00:00Z');
    const cancelled = await visit('cancelled@example.com', '2026-11-03T16:00:00Z');
    const moved = await visit('moved@example.com', '2026-11-03T17:00:00Z');
    // Not a visit for the day after tomorrow.
    await visit('later@example.com', '2026-11-04T15:00:00Z');
    server.setOnline(false);
    try {
      expect(await server.reminders.runNow()).toBe(3);
      await account.portal('POST', `/jobs/${cancelled.job_number}/cancel`);
      await account.portal('PATCH', `/jobs/${moved.job_number}`, {
        body: { scheduled_start: '2026-11-03T19:00:00Z', scheduled_end: '2026-11-03T21:00:00Z' },
      });
    } finally {
      server.setOnline(true);
    }
    await server.outbound.mail.runDue();
    expect(deliveredTo('kept@example.com')).toHaveLength(1);
    expect(plain(deliveredTo('kept@example.com')[0]!.raw)).toContain(
      'your visit on Tuesday, November 3, 2026 at 10:00',
    );
    expect(deliveredTo('cancelled@example.com')).toHaveLength(0);
    expect(deliveredTo('moved@example.com')).toHaveLength(0);
    expect(deliveredTo('later@example.com')).toHaveLength(0);
    const byJob = new Map((await reminders(account)).map((m) => [m.document_id, m]));
    expect(byJob.get(cancelled.id)).toMatchObject({
      status: 'cancelled',
      last_error: `Visit ${cancelled.job_number} is cancelled.`,
    });
    expect(byJob.get(moved.id)).toMatchObject({
      status: 'cancelled',
      last_error: `Visit ${moved.job_number} was moved; a reminder for its new time goes by itself.`,
    });
    // The moved visit's new time is a new occasion: it is reminded once, at its new time.
    expect(await server.reminders.runNow()).toBe(1);
    await server.outbound.mail.runDue();
    expect(plain(deliveredTo('moved@example.com')[0]!.raw)).toContain('at 2:00');
    expect(await server.reminders.runNow()).toBe(0);
    expect(kept.id).toBeTruthy();
  });

  it('follow up a sent quote once, and not one that was accepted', async () => {
    const quote = async (email: string) => {
      const created = await account.portal('POST', '/quotes/create', {
        body: {
          customer_email: email,
          customer_name: 'Grace Hopper',
          issue_date: '2026-10-28',
          items: [{ description: 'Gutters', quantity: 1, unit_price: 480 }],
          taxes: [],
        },
      });
      expectStatus(created, 201);
      expect((await account.portal('POST', `/quotes/${created.body.number}/mark-sent`)).status).toBe(200);
      return created.body as { number: string };
    };
    const open = await quote('open@example.com');
    const accepted = await quote('accepted@example.com');
    await account.portal('POST', `/quotes/${accepted.number}/accept`);
    // Sent today: the follow-up is 3 days later, on Thursday at 09:00.
    expect(await server.reminders.runNow()).toBe(0);
    clock.advance(3 * DAY);
    expect(await server.reminders.runNow()).toBeGreaterThanOrEqual(1);
    await server.outbound.mail.runDue();
    expect(deliveredTo('open@example.com')).toHaveLength(1);
    expect(deliveredTo('open@example.com')[0]!.raw).toContain(
      `Subject: Your quote ${open.number} from Sparkle`,
    );
    expect(deliveredTo('accepted@example.com')).toHaveLength(0);
    clock.advance(DAY);
    await server.reminders.runNow();
    await server.outbound.mail.runDue();
    expect(deliveredTo('open@example.com')).toHaveLength(1);
  });
});

describe('across a restart', () => {
  it('a server started again on the same folder sends no occasion twice', async () => {
    const before = delivered.length;
    const queuedBefore = await server.ctx.db.selectFrom('reminder_sends').select('occasion').execute();
    await server.close();
    server = await startTestServer({ clock, dataDir });
    expect(await server.reminders.runNow()).toBe(0);
    await server.outbound.mail.runDue();
    expect(delivered.length).toBe(before);
    expect(await server.ctx.db.selectFrom('reminder_sends').select('occasion').execute()).toHaveLength(
      queuedBefore.length,
    );
  });
});

describe('on a synced business', { timeout: 90_000 }, () => {
  it('only the hub queues; the record reaches the device, which would not queue it again as hub', async () => {
    const account = await reminderAccount();
    const invoice = await sentInvoice(account, 'synced@example.com', '2026-10-16', 14);
    const pairing = await account.portal('POST', '/sync/pair', { body: { name: 'Van laptop' } });
    expectStatus(pairing, 200);
    const device = await startTestServer({ clock });
    try {
      await device.ctx.sync!.join({ url: server.url }, pairing.body.pairing_code, 'Van laptop');
      clock.advance(7 * DAY);
      expect(await device.reminders.runNow()).toBe(0);
      expect(await server.reminders.runNow()).toBeGreaterThanOrEqual(1);
      await server.ctx.sync!.syncNow(account.clientId);
      await device.ctx.sync!.syncNow(account.clientId);
      const onDevice = await device.ctx.db
        .selectFrom('reminder_sends')
        .select(['occasion', 'outcome', 'message_id'])
        .where('subject_id', '=', invoice.id)
        .execute();
      expect(onDevice.find((r) => r.outcome === 'queued')).toMatchObject({ message_id: expect.any(String) });
      // The device does not send the hub's message; the hub does, once.
      await device.outbound.mail.runDue();
      await server.outbound.mail.runDue();
      expect(deliveredTo('synced@example.com')).toHaveLength(1);
      // Were the device to become the hub, the occasion is already on record there.
      await device.ctx.db
        .updateTable('sync_settings')
        .set({ role: 'hub' })
        .where('account_id', '=', account.clientId)
        .execute();
      expect(await device.reminders.runNow()).toBe(0);
    } finally {
      await device.stop();
    }
  });
});
