import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectStatus, type Method, okBody } from '../helpers/api-responses';
import { jobberExport } from '../helpers/client-files';
import { startTestServer, type TestServer } from '../helpers/server';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.stop());

/**
 * How many rows: 2,250 by default, to keep `npm test` quick, the fewest that still cross every
 * chunk of the run with a part-filled last one (5 batches of 500 rows read and checked, 3 staging
 * pages of 1,000, 2 applied and 2 undone chunks of 2,000); IMPORT_ROWS=50000 runs the full
 * size (the bench, BENCHMARKS.md "Import", times it and measures memory).
 */
const ROWS = Number(process.env.IMPORT_ROWS ?? 2_250);

// Not timed: a file of many batches goes in whole and comes out whole through the portal API, each
// run in the background while the test follows its progress as the UI does.
describe(`a ${ROWS.toLocaleString('en')}-row import`, { timeout: 600_000 }, () => {
  it('uploads, dry-runs, imports and undoes it, each run followed to its end', async () => {
    const shop = await server.createAccount();
    const cookie = await shop.signIn();
    const call = <M extends Method, P extends string>(method: M, path: P, body?: unknown) =>
      shop.portal(method, path, { key: null, headers: { cookie }, ...(body !== undefined && { body }) });
    const response = await fetch(`${server.url}/api/portal/${shop.clientId}/customer-imports`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'text/csv' },
      body: jobberExport(ROWS).csv,
    });
    const uploaded = (await response.json()) as { id: string; columns: unknown[]; preset: string };
    expect(uploaded.preset).toBe('jobber');
    const follow = async (path: string, body?: unknown) => {
      const started = await call('POST', `/customer-imports/${uploaded.id}/${path}`, body);
      expectStatus(started, 202);
      for (;;) {
        const state = okBody(await call('GET', `/customer-imports/${uploaded.id}`));
        if (state.run!.state !== 'running') return { state };
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    };
    const count = async () =>
      Number(
        (
          await server.ctx.db
            .selectFrom('customers')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('account_id', '=', shop.clientId)
            .executeTakeFirstOrThrow()
        ).n,
      );
    const body = { columns: uploaded.columns, on_match: 'skip' };
    const dry = await follow('dry-run', body);
    expect(dry.state.run).toMatchObject({ state: 'succeeded', rows_done: ROWS, rows_total: ROWS });
    expect(dry.state.dry_run).toMatchObject({ rows: ROWS, added: ROWS, rejected: 0 });
    expect(await count()).toBe(0);
    const done = await follow('import', body);
    expect(done.state.result).toEqual({ ...dry.state.dry_run, events_sent: 0 });
    expect(await count()).toBe(ROWS);
    const undone = await follow('undo');
    expect(undone.state).toMatchObject({ status: 'undone', run: { phase: 'undo', state: 'succeeded' } });
    expect(await count()).toBe(0);
  });
});
