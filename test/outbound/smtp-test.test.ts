import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectStatus, okBody } from '../helpers/api-responses';
import { startTestServer, type TestAccount, type TestServer } from '../helpers/server';

/** Settings › E-mail's "Send a test e-mail", against a real SMTP server on 127.0.0.1. */

let server: TestServer;
let smtp: SMTPServer;
let smtpPort: number;
const received: Array<{ to: string[]; raw: string }> = [];

beforeAll(async () => {
  server = await startTestServer();
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (address.address.startsWith('nobody@')) {
        return callback(Object.assign(new Error('5.1.1 Mailbox does not exist'), { responseCode: 550 }));
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push({
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback(null, 'Ok: queued as TEST42');
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

async function owner(shop: TestAccount) {
  const cookie = await shop.signIn();
  return (body?: unknown) =>
    shop.portal('POST', '/config/smtp/test', { key: null, headers: { cookie }, body });
}

async function configure(shop: TestAccount, port: number, from = 'billing@sparkle.example') {
  const saved = await shop.portal('PUT', '/config', {
    body: { business_name: 'Sparkle Cleaning', smtp: { host: '127.0.0.1', port, secure: false, from } },
  });
  expectStatus(saved, 200);
}

/** A port nothing listens on: taken from the system, then given back. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

describe('POST /config/smtp/test', () => {
  it('sends a test to the sender address and reports the server’s reply line', async () => {
    const shop = await server.createAccount();
    await configure(shop, smtpPort);
    const test = await owner(shop);
    const result = await test();
    expectStatus(result, 200);
    expect(result.body).toEqual({
      object: 'smtp_test',
      to: 'billing@sparkle.example',
      delivered: true,
      response: expect.stringMatching(/^250 .*Ok: queued as TEST42/),
      response_code: 250,
    });
    const message = received.at(-1)!;
    expect(message.to).toEqual(['billing@sparkle.example']);
    expect(message.raw).toContain('Subject: Test e-mail from Sparkle Cleaning');
    // Outside the outbox: nothing waits in Messages.
    expect(okBody(await shop.portal('GET', '/messages')).data).toEqual([]);

    const elsewhere = await test({ to: 'owner@example.com' });
    expect(elsewhere.body).toMatchObject({ delivered: true, to: 'owner@example.com' });
    expect(received.at(-1)!.to).toEqual(['owner@example.com']);
  });

  it('reports the server’s refusal in its own words, and an unreachable server', async () => {
    const shop = await server.createAccount();
    await configure(shop, smtpPort);
    const test = await owner(shop);
    const refused = await test({ to: 'nobody@example.com' });
    expectStatus(refused, 200);
    expect(refused.body).toMatchObject({ delivered: false, response_code: 550 });
    expect(refused.body.response).toContain('5.1.1 Mailbox does not exist');

    await configure(shop, await closedPort());
    const unreachable = await test();
    expectStatus(unreachable, 200);
    expect(unreachable.body).toMatchObject({ delivered: false, response_code: null });
    expect(unreachable.body.response).toContain('ECONNREFUSED');
  });

  it('says what is missing when e-mail is not set up, and refuses a bad address', async () => {
    const shop = await server.createAccount();
    const test = await owner(shop);
    const notSetUp = await test();
    expectStatus(notSetUp, 409);
    expect(notSetUp.body.error).toMatchObject({ code: 'invalid_state' });
    expect(notSetUp.body.error.message).toContain('save the SMTP settings first');
    const invalid = await test({ to: 'not an address' });
    expectStatus(invalid, 400);
    expect(invalid.body.error).toMatchObject({ code: 'validation_failed', param: 'to' });
  });

  it('is the signed-in owner’s alone: a portal key or another account’s session is refused', async () => {
    const shop = await server.createAccount();
    await configure(shop, smtpPort);
    const before = received.length;
    const withKey = await shop.portal('POST', '/config/smtp/test');
    expectStatus(withKey, 403);
    expect(withKey.body.error.message).toContain('signed-in portal UI');
    const other = await server.createAccount();
    const cookie = await other.signIn();
    const foreign = await server.request('POST', `/api/portal/${shop.clientId}/config/smtp/test`, {
      headers: { cookie },
    });
    expectStatus(foreign, 403);
    const anonymous = await server.request('POST', `/api/portal/${shop.clientId}/config/smtp/test`);
    expectStatus(anonymous, 401);
    expect(received.length).toBe(before);
  });
});
