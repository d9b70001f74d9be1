import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as imports from '../../server/domain/customer-import/imports';
import { ProgressBoard } from '../../server/domain/customer-import/run';
import { jobberExport } from '../helpers/client-files';
import { startTestServer, type TestServer } from '../helpers/server';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.stop());

// Not timed (BENCHMARKS.md, "Import", has the time and memory): every row goes in whole and comes
// out whole, over many of the import's 500-row batches; 5,000 rows by default, CI's 50,000 with
// IMPORT_ROWS (.ci/run). It calls the use cases the routes call, in process: on a loaded machine a
// run this size can outlast an HTTP request's time limits, which are not what this test is about.
const ROWS = Number(process.env.IMPORT_ROWS ?? 5_000);

describe(`a ${ROWS.toLocaleString('en')}-row import`, { timeout: 600_000 }, () => {
  it(`uploads, dry-runs, imports and undoes ${ROWS.toLocaleString('en')} clients`, async () => {
    const shop = await server.createAccount();
    const place = { folder: path.join(server.dataDir, 'imports'), progress: new ProgressBoard() };
    const { ctx } = server;
    const uploaded = await imports.uploadImport(
      ctx,
      place,
      shop.clientId,
      'big.csv',
      Readable.from([jobberExport(ROWS).csv]),
    );
    expect(uploaded.preset).toBe('jobber');
    const body = { columns: uploaded.columns, on_match: 'skip' as const, send_events: false };
    const dry = await imports.dryRunImport(ctx, place, shop.clientId, uploaded.id, body);
    expect(dry.dry_run).toMatchObject({ rows: ROWS, added: ROWS, rejected: 0 });
    const count = async () =>
      Number(
        (
          await ctx.db
            .selectFrom('customers')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('account_id', '=', shop.clientId)
            .executeTakeFirstOrThrow()
        ).n,
      );
    expect(await count()).toBe(0);
    const done = await imports.runImport(ctx, place, shop.clientId, uploaded.id, body);
    expect(done.result).toMatchObject({ added: ROWS });
    expect(await count()).toBe(ROWS);
    expect((await imports.undoImport(ctx, place, shop.clientId, uploaded.id)).status).toBe('undone');
    expect(await count()).toBe(0);
  });
});
