import { sql } from 'kysely';
import { expect, it } from 'vitest';
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

    let refused: ApiResponse | undefined;
    for (let i = 0; i < 200 && !refused; i++) {
      const response = await shop.portal('POST', '/customers', {
        body: { name: `Customer ${i}`, email: `c${i}@example.com`, address: 'x'.repeat(300) },
      });
      if (response.status !== 201) refused = response;
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
    expect(list.status).toBe(200);
    expect(list.body.data.length).toBeGreaterThan(0);
    expect((await shop.portal('GET', '/customers?limit=5')).status).toBe(200);
  } finally {
    await server.stop();
  }
});
