import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { type ErrorBody, expectError, expectStatus } from '../helpers/api-responses';
import { type ApiResponse, startTestServer } from '../helpers/server';

it('a full disk: writes answer 507 insufficient_storage in the error shape, reads keep working', async () => {
  const server = await startTestServer();
  try {
    const shop = await server.createAccount();
    expect(
      (await shop.v1('POST', '/clients', { body: { name: 'Ada', email: 'ada@example.com' } })).status,
    ).toBe(201);
    // The file may not grow by a single page any more: SQLite answers SQLITE_FULL, as on a full disk.
    const { rows } = await sql<{ page_count: number }>`PRAGMA page_count`.execute(server.ctx.db);
    await sql.raw(`PRAGMA max_page_count = ${rows[0]!.page_count}`).execute(server.ctx.db);

    let refused: ApiResponse<ErrorBody> | undefined;
    for (let i = 0; i < 200 && !refused; i++) {
      const response = await shop.portal('POST', '/customers', {
        body: { name: `Customer ${i}`, email: `c${i}@example.com`, address: 'x'.repeat(300) },
      });
      if (response.status !== 201) refused = expectError(response);
    }
    expect(refused?.status).toBe(507);
    expect(refused?.body.error).toMatchObject({
      type: 'api_error',
      code: 'insufficient_storage',
      request_id: expect.any(String),
    });
    expect(refused?.body.error.message).toContain('disk');
    expect(refused?.body.error.message).toContain('Free some space');

    const list = await shop.v1('GET', '/clients?limit=5');
    expectStatus(list, 200);
    expect(list.body.data.length).toBeGreaterThan(0);
    expect((await shop.portal('GET', '/customers?limit=5')).status).toBe(200);
  } finally {
    await server.stop();
  }
});

it('a full disk that also refuses releasing the idempotency claim: still 507 with its code, and the retry runs once space is back', async () => {
  const server = await startTestServer();
  try {
    const shop = await server.createAccount();
    const { rows } = await sql<{ page_count: number }>`PRAGMA page_count`.execute(server.ctx.db);
    await sql.raw(`PRAGMA max_page_count = ${rows[0]!.page_count}`).execute(server.ctx.db);
    // On a full disk the write-ahead log may not grow even for a delete: the claim's release
    // fails after the write did, while the 507 is on its way out.
    await sql`CREATE TRIGGER full_disk_release BEFORE DELETE ON idempotency_keys
      BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END`.execute(server.ctx.db);

    for (let i = 0; i < 200; i++) {
      const filler = await shop.portal('POST', '/customers', {
        body: { name: `Filler ${i}`, email: `f${i}@example.com`, address: 'x'.repeat(300) },
      });
      if ((filler.status as number) === 507) break;
    }
    const create = () =>
      shop.v1('POST', '/clients', {
        body: { name: 'Grace', email: 'grace@example.com', address: 'x'.repeat(300) },
        headers: { 'Idempotency-Key': 'full-disk-retry' },
      });
    const refused = expectError(await create());
    expect(refused.status).toBe(507);
    expect(refused.body.error).toMatchObject({
      type: 'api_error',
      code: 'insufficient_storage',
      request_id: expect.any(String),
    });

    await sql`DROP TRIGGER full_disk_release`.execute(server.ctx.db);
    await sql.raw('PRAGMA max_page_count = 1073741823').execute(server.ctx.db);
    const retried = await create();
    expectStatus(retried, 201);
    const replayed = await create();
    expectStatus(replayed, 201);
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect(replayed.body.id).toBe(retried.body.id);
  } finally {
    await server.stop();
  }
});
