import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectOk, expectStatus, type Method, okBody } from '../helpers/api-responses';
import { csvLine, jobberExport } from '../helpers/client-files';
import { startTestServer, type TestAccount, type TestServer } from '../helpers/server';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.stop());

async function owner(shop: TestAccount, on: TestServer = server) {
  const cookie = await shop.signIn();
  const call = <M extends Method, P extends string>(
    method: M,
    path: P,
    body?: unknown,
    headers: Record<string, string> = {},
  ) =>
    shop.portal(method, path, {
      key: null,
      headers: { cookie, ...headers },
      ...(body !== undefined && { body }),
    });
  const upload = async (csv: string) => {
    const response = await fetch(`${on.url}/api/portal/${shop.clientId}/customer-imports`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'text/csv' },
      body: csv,
    });
    expectStatus(response, 201);
    return (await response.json()) as { id: string; columns: unknown[] };
  };
  const finished = async (id: string) => {
    for (;;) {
      const state = expectOk(await call('GET', `/customer-imports/${id}`));
      if (state.body.run?.state !== 'running') return state.body;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  return { call, upload, finished };
}

describe('customer import runs', () => {
  it('run in the background, one at a time: a second while one runs is 409', async () => {
    const shop = await owner(await server.createAccount());
    // Big enough that the run is still going when the next request arrives, a few milliseconds later.
    const first = await shop.upload(jobberExport(5_000).csv);
    const second = await shop.upload(jobberExport(3).csv);
    const started = await shop.call('POST', `/customer-imports/${first.id}/import`, {
      columns: first.columns,
    });
    expectStatus(started, 202);
    expect(started.body).toMatchObject({
      status: 'uploaded',
      run: { phase: 'import', state: 'running', rows_done: 0, rows_total: 5_000, error: null },
    });
    const blocked = await shop.call('POST', `/customer-imports/${second.id}/dry-run`, {
      columns: second.columns,
    });
    expectStatus(blocked, 409);
    expect(blocked.body.error).toMatchObject({ type: 'invalid_request_error', code: 'conflict' });
    expect(blocked.body.error.message).toMatch(/running/);
    const done = await shop.finished(first.id);
    expect(done).toMatchObject({
      status: 'imported',
      run: { phase: 'import', state: 'succeeded', rows_done: 5_000, rows_total: 5_000, error: null },
      result: { added: 5_000 },
    });
    const again = await shop.call('POST', `/customer-imports/${second.id}/dry-run`, {
      columns: second.columns,
    });
    expectStatus(again, 202);
    expect((await shop.finished(second.id)).dry_run).toMatchObject({ rows: 3, skipped: 3 });
  });

  it('lets ordinary writes go on while an import runs, and imports against what they changed', async () => {
    const account = await server.createAccount();
    const shop = await owner(account);
    const ROWS = 5_000;
    const file = await shop.upload(jobberExport(ROWS).csv);
    const started = await shop.call('POST', `/customer-imports/${file.id}/import`, {
      columns: file.columns,
      on_match: 'skip',
    });
    expectStatus(started, 202);
    // Once the first batch (500 rows) is decided, a write adds the customer the file's first row
    // names: the import, having staged that row as new, must find out and skip it (or, had it
    // committed first, the write is the one refused): never both, never a failure.
    const firstEmail = 'client1@example.com';
    let clash: number | null = null;
    const writes: number[] = [];
    for (let i = 0; ; i += 1) {
      const { run } = okBody(await shop.call('GET', `/customer-imports/${file.id}`));
      if (run!.state !== 'running') break;
      if (clash === null && run!.rows_done > 500) {
        clash = (await shop.call('POST', '/customers', { name: 'Client 1 Example', email: firstEmail }))
          .status;
      } else {
        const write = await shop.call('POST', '/customers', {
          name: `Walk-in ${i}`,
          email: `walkin${i}@example.com`,
        });
        writes.push(write.status);
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(clash).not.toBeNull();
    expect(writes.filter((status) => status !== 201)).toEqual([]);
    const done = await shop.finished(file.id);
    expect(done.run).toMatchObject({ state: 'succeeded', error: null });
    if (clash === 201) expect(done.result).toMatchObject({ added: ROWS - 1, skipped: 1, rejected: 0 });
    else {
      expect(clash).toBe(409);
      expect(done.result).toMatchObject({ added: ROWS, skipped: 0 });
    }
    const named = await server.ctx.db
      .selectFrom('customers')
      .select('id')
      .where('account_id', '=', account.clientId)
      .where('email_lower', '=', firstEmail)
      .execute();
    expect(named).toHaveLength(1);
  });

  it('answers a repeated Idempotency-Key with the first answer instead of a second run', async () => {
    const shop = await owner(await server.createAccount());
    const file = await shop.upload(csvLine(['Name', 'Email']) + csvLine(['Ann', 'ann@example.com']));
    const body = { columns: file.columns };
    const key = { 'idempotency-key': `import-${file.id}` };
    const first = await shop.call('POST', `/customer-imports/${file.id}/import`, body, key);
    expectStatus(first, 202);
    const done = await shop.finished(file.id);
    expect(done.result).toMatchObject({ added: 1 });
    const again = await shop.call('POST', `/customer-imports/${file.id}/import`, body, key);
    expectStatus(again, 202);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await shop.call('GET', `/customer-imports/${file.id}`)).toMatchObject({ body: done });
    const otherBody = await shop.call(
      'POST',
      `/customer-imports/${file.id}/import`,
      { ...body, on_match: 'update' },
      key,
    );
    expectStatus(otherBody, 409);
    expect(otherBody.body.error.code).toBe('idempotency_key_reused');
  });

  it('gives a dry run the very counts and verdicts the import then has, across batches', async () => {
    const shop = await owner(await server.createAccount());
    await shop.call('POST', '/customers', {
      name: 'Old Friend',
      email: 'friend@example.com',
      phone: '555 0101',
    });
    await shop.call('POST', '/customers', { name: 'Phone Only', phone: '555 0102' });
    const rows: string[][] = [];
    for (let i = 1; i <= 1_200; i += 1)
      rows.push([`Client ${i}`, `client${i}@example.com`, `416 555 ${1000 + i}`, '']);
    // Matches of existing customers, by e-mail and by name and phone, twice each, in different batches.
    rows[10] = ['Old Friend Renamed', 'FRIEND@example.com', '555 0199', 'vip'];
    rows[700] = ['Old Friend Renamed', '', '555 0199', ''];
    rows[20] = ['phone only', '', '(555) 0102', ''];
    rows[900] = ['Someone Else', 'friend@example.com', '', ''];
    // Repeats of earlier rows of the file, far apart: same e-mail, and same name and phone.
    rows[800] = ['Client 3 Again', 'client3@example.com', '', ''];
    rows[1_100] = ['Client 5', '', '416 555 1005', ''];
    rows[1_150] = ['', 'nameless@example.com', '', ''];
    const csv = csvLine(['Name', 'Email', 'Phone', 'Tags']) + rows.map(csvLine).join('');
    for (const onMatch of ['update', 'skip'] as const) {
      const file = await shop.upload(csv);
      const body = { columns: file.columns, on_match: onMatch };
      expect((await shop.call('POST', `/customer-imports/${file.id}/dry-run`, body)).status).toBe(202);
      const dry = (await shop.finished(file.id)).dry_run;
      expect(dry!.rejected).toBe(onMatch === 'update' ? 5 : 3);
      expect((await shop.call('POST', `/customer-imports/${file.id}/import`, body)).status).toBe(202);
      const imported = await shop.finished(file.id);
      expect(imported.result).toEqual({ ...dry, events_sent: 0 });
      expect((await shop.call('POST', `/customer-imports/${file.id}/undo`)).status).toBe(202);
      expect((await shop.finished(file.id)).status).toBe('undone');
    }
  });
});

describe('a run the app did not live to finish', () => {
  it('is marked failed at the next start, the file left uploaded to run again', async () => {
    const first = await startTestServer();
    const shop = await owner(await first.createAccount(), first);
    const file = await shop.upload(csvLine(['Name', 'Email']) + csvLine(['Ann', 'ann@example.com']));
    // What a crash in the middle of the import leaves: the run stored as running, its transaction
    // (and every customer it wrote) rolled back by SQLite when the process died.
    const running = {
      phase: 'import',
      state: 'running',
      rows_done: 0,
      rows_total: 1,
      error: null,
      started_at: '2026-11-24T09:00:00.000Z',
      finished_at: null,
    };
    await first.ctx.db
      .updateTable('customer_imports')
      .set({ run: JSON.stringify(running) })
      .where('id', '=', file.id)
      .execute();
    const dataDir = first.dataDir;
    await first.close();
    const second = await startTestServer({ dataDir });
    try {
      const after = await second.ctx.db
        .selectFrom('customer_imports')
        .select(['status', 'run'])
        .where('id', '=', file.id)
        .executeTakeFirstOrThrow();
      expect(after.status).toBe('uploaded');
      expect(JSON.parse(after.run!)).toMatchObject({
        state: 'failed',
        error: { code: 'import_interrupted', message: expect.stringMatching(/nothing of it was kept/) },
        finished_at: expect.any(String),
      });
    } finally {
      await second.stop();
    }
  });
});
