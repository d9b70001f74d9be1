import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ErrorBody, expectError, expectStatus, okBody } from '../helpers/api-responses';
import { startTestServer, type TestServer } from '../helpers/server';

/** The reminder settings an owner edits (Settings > Reminders); what they send: reminders.test.ts. */

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.stop());

describe('reminder settings', () => {
  it('are off until the owner switches them on, and refuse a placeholder their reminder cannot fill', async () => {
    const account = await server.createAccount();
    const config = okBody(await account.portal('GET', '/config'));
    expect(config.reminders).toMatchObject({
      send_hour: 9,
      invoice_overdue: { enabled: false, days_after_due: [3, 7, 14] },
      appointment: { enabled: false },
      quote_follow_up: { enabled: false, days_after_sent: 3 },
    });
    const bad = await account.portal('PUT', '/config', {
      body: {
        reminders: {
          ...config.reminders,
          invoice_overdue: {
            ...config.reminders.invoice_overdue,
            body: 'Hi {customer_name}, you owe {amount}.',
          },
        },
      },
    });
    expectStatus(bad, 400);
    expect(bad.body.error).toMatchObject({
      code: 'validation_failed',
      param: 'reminders.invoice_overdue.body',
    });
    expect(bad.body.error.message).toContain('unknown placeholder {amount}; use {customer_name}');
    const backwards = await account.portal('PUT', '/config', {
      body: {
        reminders: {
          ...config.reminders,
          invoice_overdue: { ...config.reminders.invoice_overdue, days_after_due: [7, 3] },
        },
      },
    });
    expectStatus(backwards, 400);
    expect(backwards.body.error.param).toBe('reminders.invoice_overdue.days_after_due');

    // The same settings on their own route, on both interfaces.
    const v1 = await account.v1('PUT', '/reminders/settings', {
      body: {
        ...config.reminders,
        send_hour: 8,
        appointment: { ...config.reminders.appointment, enabled: true },
      },
    });
    expectStatus(v1, 200);
    expect(v1.body).toMatchObject({ send_hour: 8, appointment: { enabled: true } });
    expect(okBody(await account.portal('GET', '/reminders/settings'))).toEqual(v1.body);
    const unknown = await account.v1('PUT', '/reminders/settings', {
      body: {
        ...config.reminders,
        appointment: { ...config.reminders.appointment, subject: 'See you {when}' },
      },
    });
    expectStatus(unknown, 400);
    expect(unknown.body.error).toMatchObject({ param: 'appointment.subject' });
  });

  it('refuse an unknown field anywhere in the body, as every other body does', async () => {
    const account = await server.createAccount();
    const { reminders } = okBody(await account.portal('GET', '/config'));
    const bodies: Array<[unknown, string]> = [
      [{ ...reminders, send_hours: 8 }, 'send_hours'],
      [{ ...reminders, appointment: { ...reminders.appointment, enable: true } }, 'appointment.enable'],
      [
        { ...reminders, invoice_overdue: { ...reminders.invoice_overdue, days: [1] } },
        'invoice_overdue.days',
      ],
    ];
    for (const [body, param] of bodies) {
      for (const call of [account.portal, account.v1]) {
        const refused = expectError(await call<ErrorBody>('PUT', '/reminders/settings', { body }));
        expect(refused.status, param).toBe(400);
        expect(refused.body.error).toMatchObject({ code: 'validation_failed', param });
      }
      const viaConfig = expectError(await account.portal('PUT', '/config', { body: { reminders: body } }));
      expect(viaConfig.status, param).toBe(400);
      expect(viaConfig.body.error.param).toBe(`reminders.${param}`);
    }
    expect(okBody(await account.portal('GET', '/reminders/settings'))).toEqual(reminders);
  });
});
