import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderInvoicePdf } from '../../server/documents/pdf';
import { manualClock } from '../../server/lib/clock';
import { expectStatus, okBody } from '../helpers/api-responses';
import { startTestServer, type TestAccount, type TestServer } from '../helpers/server';

interface Delivered {
  from: string;
  to: string[];
  raw: string;
}

const clock = manualClock('2026-11-22T09:00:00Z');
const MINUTE = 60_000;
let server: TestServer;
let smtp: SMTPServer;
let smtpPort: number;
const delivered: Delivered[] = [];

beforeAll(async () => {
  server = await startTestServer({ clock });
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (address.address.startsWith('nobody@')) {
        const refused = Object.assign(new Error('5.1.1 Mailbox does not exist'), { responseCode: 550 });
        return callback(refused);
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        delivered.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  smtpPort = (smtp.server.address() as AddressInfo).port;
});
afterAll(async () => {
  await server.stop();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

/** The parts of a multipart MIME message: headers (lower-cased names) and raw body. */
function mimeParts(raw: string): Array<{ headers: Record<string, string>; body: string }> {
  const boundary = /boundary="?([^";\r\n]+)"?/i.exec(raw)?.[1];
  if (!boundary) throw new Error('not a multipart message');
  return raw
    .split(`--${boundary}`)
    .slice(1, -1)
    .map((part) => {
      const [head, ...rest] = part.replace(/^\r\n/, '').split('\r\n\r\n');
      const headers: Record<string, string> = {};
      for (const line of head!.replace(/\r\n[ \t]+/g, ' ').split('\r\n')) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
      }
      return { headers, body: rest.join('\r\n\r\n') };
    });
}

async function configureSmtp(account: TestAccount, port = smtpPort) {
  const response = await account.portal('PUT', '/config', {
    body: { smtp: { host: '127.0.0.1', port, secure: false, from: 'billing@sparkle.example' } },
  });
  expectStatus(response, 200);
}

async function sendInvoice(account: TestAccount, email: string) {
  const created = await account.portal('POST', '/invoices/create', {
    body: {
      customer_name: 'Ada Lovelace',
      customer_email: email,
      items: [{ description: 'Deep clean', quantity: 2, unit_price: 120 }],
      taxes: [{ name: 'HST', rate: 0.13 }],
      due_days: 14,
    },
  });
  expectStatus(created, 201);
  const sent = await account.portal('POST', `/invoices/${created.body.number}/send`);
  expectStatus(sent, 200);
  return created.body;
}

async function messages(account: TestAccount) {
  return okBody(await account.portal('GET', '/messages')).data;
}

describe('mail outbox', () => {
  it('waits for SMTP settings, then sends the invoice with its PDF attached intact', async () => {
    const account = await server.createAccount({ business: 'Sparkle Cleaning' });
    const invoice = await sendInvoice(account, 'ada@example.com');
    await server.outbound.mail.runDue();
    const [waiting] = await messages(account);
    expect(waiting).toMatchObject({
      kind: 'invoice',
      status: 'queued',
      document_id: invoice.id,
      waiting_reason: 'smtp_not_configured',
    });

    await configureSmtp(account);
    await server.outbound.mail.runDue();
    const [sent] = await messages(account);
    expect(sent).toMatchObject({ status: 'sent', attempts: 1, last_error: null, waiting_reason: null });
    expect(sent!.sent_at).toBe('2026-11-22T09:00:00Z');
    // Only now, with the e-mail out, is the invoice sent.
    const after = okBody(await account.portal('GET', `/invoices/${invoice.number}`));
    expect(after).toMatchObject({ status: 'sent', sent_at: '2026-11-22T09:00:00Z' });

    const mail = delivered.find((d) => d.to.includes('ada@example.com'))!;
    expect(mail.from).toBe('billing@sparkle.example');
    expect(mail.raw).toMatch(/^From: Sparkle Cleaning <billing@sparkle\.example>/m);
    const attachment = mimeParts(mail.raw).find((p) =>
      p.headers['content-type']?.startsWith('application/pdf'),
    )!;
    expect(attachment.headers['content-disposition']).toContain(`${invoice.number}.pdf`);
    expect(attachment.headers['content-transfer-encoding']).toBe('base64');
    const pdf = Buffer.from(attachment.body.replace(/\s+/g, ''), 'base64');
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdf.equals(await renderInvoicePdf(server.ctx, account.clientId, invoice.id))).toBe(true);
  });

  it('writes a waiting invoice e-mail afresh when it leaves, and holds back one paid in full', async () => {
    const account = await server.createAccount({ business: 'Fresh Mail' });
    const partly = await sendInvoice(account, 'old-address@example.com');
    const settled = await sendInvoice(account, 'settled@example.com');
    await account.portal('POST', `/invoices/${partly.number}/payment`, { body: { amount: 100 } });
    await account.portal('POST', `/invoices/${settled.number}/paid`);
    const moved = await account.portal('PATCH', '/customers/old-address@example.com', {
      body: { email: 'new-address@example.com' },
    });
    expect(moved.status, moved.text).toBe(200);

    await configureSmtp(account);
    await server.outbound.mail.runDue();
    const byDocument = Object.fromEntries((await messages(account)).map((m: any) => [m.document_id, m]));
    expect(byDocument[settled.id]).toMatchObject({
      status: 'cancelled',
      last_error: `Invoice ${settled.number} was paid in full before this e-mail went out.`,
    });
    expect(delivered.some((d) => d.to.includes('settled@example.com'))).toBe(false);
    expect(byDocument[partly.id]).toMatchObject({ status: 'sent', to: 'new-address@example.com' });
    expect(byDocument[partly.id].body).toContain('balance of $171.20');
    expect(delivered.some((d) => d.to.includes('new-address@example.com'))).toBe(true);
  });

  it("fails at once on the server's refusal, shows its answer, and can be retried", async () => {
    const account = await server.createAccount({ business: 'Bounce' });
    await configureSmtp(account);
    await sendInvoice(account, 'nobody@example.com');
    await server.outbound.mail.runDue();
    const [failed] = await messages(account);
    expect(failed!.status).toBe('failed');
    expect(failed!.last_error).toMatch(/^550 .*Mailbox does not exist/);
    expect(okBody(await account.portal('GET', '/messages?status=failed')).data).toHaveLength(1);
    expect(okBody(await account.portal('GET', '/messages?status=sent')).data).toHaveLength(0);

    const retried = await account.portal('POST', `/messages/${failed!.id}/retry`);
    expectStatus(retried, 200);
    expect(retried.body).toMatchObject({ status: 'queued', attempts: 0 });
    const again = await account.portal('POST', `/messages/${failed!.id}/retry`);
    expectStatus(again, 409);
    expect(again.body.error.code).toBe('invalid_state');
    expect((await account.portal('POST', '/messages/msg_nope/retry')).status).toBe(404);
  });

  it('retries an unreachable server on its schedule', async () => {
    const account = await server.createAccount({ business: 'Patient' });
    await configureSmtp(account, 9);
    await sendInvoice(account, 'patient@example.com');
    await server.outbound.mail.runDue();
    const [first] = await messages(account);
    expect(first).toMatchObject({ status: 'queued', attempts: 1 });
    expect(first!.last_error).toBeTruthy();
    expect(first!.next_attempt_at).toBe(
      new Date(clock.now().getTime() + MINUTE).toISOString().replace('.000', ''),
    );

    await configureSmtp(account);
    await server.outbound.mail.runDue();
    expect((await messages(account))[0]!.status).toBe('queued');
    clock.advance(MINUTE);
    await server.outbound.mail.runDue();
    expect((await messages(account))[0]).toMatchObject({ status: 'sent', attempts: 2 });
  });

  it('waits while offline without spending attempts', async () => {
    const account = await server.createAccount({ business: 'Offline' });
    await configureSmtp(account);
    server.setOnline(false);
    try {
      await sendInvoice(account, 'later@example.com');
      await server.outbound.mail.runDue();
      expect((await messages(account))[0]).toMatchObject({
        status: 'queued',
        attempts: 0,
        waiting_reason: 'offline',
      });
    } finally {
      server.setOnline(true);
    }
    await server.outbound.mail.runDue();
    expect((await messages(account))[0]).toMatchObject({ status: 'sent', attempts: 1 });
    expect(delivered.some((d) => d.to.includes('later@example.com'))).toBe(true);
  });
});
