import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SyncSnapshotResponse } from '../../../shared/schemas/sync';
import { httpTransport, joinHub, SyncError } from './transport';

/**
 * A hub that answers what the test sets: the transport must refuse an answer that is not the wire
 * shape (shared/schemas/sync.ts) with a sync error, and hand on one that is.
 */
let answer: { status: number; type: string; text: string };
let server: Server;
let url: string;

beforeAll(async () => {
  server = createServer((_request, response) => {
    response.writeHead(answer.status, { 'content-type': answer.type });
    response.end(answer.text);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const json = (value: unknown, status = 200) => ({
  status,
  type: 'application/json',
  text: JSON.stringify(value),
});

async function failure(promise: Promise<unknown>): Promise<SyncError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SyncError);
  return error as SyncError;
}

describe('the device reads its hub’s answers with the wire schemas', () => {
  it('hands on a pull answer of the wire shape', async () => {
    const page = {
      rows: [
        { seq: 7, table: 'customers', pk: '["cus_1"]', state: { v: { name: 'Ada' }, c: { name: 'h1' } } },
      ],
      cursor: 7,
      has_more: false,
      hub_time: '2026-11-24T10:00:00Z',
    };
    answer = json(page);
    await expect(httpTransport({ url }, 'sd_sync_x').pull(0, 500, 0)).resolves.toEqual(page);
  });

  it('refuses a pull answer whose rows are not rows, naming where', async () => {
    answer = json({
      rows: [{ seq: 'seven', table: 'customers' }],
      cursor: 7,
      has_more: false,
      hub_time: '2026-11-24T10:00:00Z',
    });
    const error = await failure(httpTransport({ url }, 'sd_sync_x').pull(0, 500, 0));
    expect(error.code).toBe('hub_bad_answer');
    expect(error.status).toBe(502);
    expect(error.message).toContain(`The hub at ${url} sent an answer to /pull this install cannot read`);
    expect(error.message).toContain('at rows.0.seq');
  });

  it('hands on a snapshot page of the wire shape as it came', async () => {
    const page = {
      table: 'customers',
      up_to: 42,
      rows: [
        [['cus_1'], { name: 'Ada', tags: ['vip'] }, 0],
        [['cus_2'], { name: 'Grace' }, { name: '0000001a-node' }],
      ],
      next: '["cus_2"]',
    };
    answer = json(page);
    const snapshot = httpTransport({ url }, 'sd_sync_x').snapshot({
      table: 'customers',
      after: '',
      limit: 2,
    });
    await expect(snapshot).resolves.toEqual(page);
  });

  it('refuses a snapshot page with a row out of shape, naming where, as the schema would', async () => {
    const rows = [
      [['cus_1'], { name: 'Ada' }, 0],
      [['cus_2'], { name: 'Grace' }, { name: 7 }],
    ];
    answer = json({ table: 'customers', up_to: 42, rows, next: null });
    const error = await failure(
      httpTransport({ url }, 'sd_sync_x').snapshot({ table: 'customers', after: '', limit: 2 }),
    );
    expect(error.code).toBe('hub_bad_answer');
    expect(error.message).toContain('/snapshot');
    expect(error.message).toContain('at rows.1.2.name');
    for (const row of [
      [['cus_1'], { name: 'Ada' }],
      [['cus_1'], ['Ada'], 0],
      ['cus_1', {}, 0],
      [[], {}, 1],
    ]) {
      answer = json({ table: 'customers', up_to: 42, rows: [row], next: null });
      const refused = await failure(
        httpTransport({ url }, 'sd_sync_x').snapshot({ table: 'customers', after: '', limit: 1 }),
      );
      expect(refused.message).toContain('at rows.0');
      expect(
        SyncSnapshotResponse.safeParse({ table: 'customers', up_to: 42, rows: [row], next: null }).success,
      ).toBe(false);
    }
  });

  it('refuses a push answer without its figures', async () => {
    answer = json({ ok: true });
    const error = await failure(httpTransport({ url }, 'sd_sync_x').push([]));
    expect(error.code).toBe('hub_bad_answer');
    expect(error.message).toContain('/push');
  });

  it('refuses an answer that is not JSON, such as a proxy’s page', async () => {
    answer = { status: 200, type: 'text/html', text: '<html><body>Sign in to the Wi-Fi</body></html>' };
    const error = await failure(joinHub({ url }, 'ABCD-1234'));
    expect(error.code).toBe('hub_bad_answer');
    expect(error.message).toBe(
      `The hub at ${url} sent an answer to /join this install cannot read (not JSON).`,
    );
  });

  it('still reports the hub’s own refusal as it words it', async () => {
    answer = json({ error: { code: 'pairing_code_invalid', message: 'That code is not valid.' } }, 400);
    const error = await failure(joinHub({ url }, 'ABCD-1234'));
    expect(error.code).toBe('pairing_code_invalid');
    expect(error.message).toBe('That code is not valid.');
    expect(error.hubStatus).toBe(400);
  });
});
