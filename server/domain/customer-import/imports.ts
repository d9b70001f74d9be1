import { createWriteStream, existsSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { sql } from 'kysely';
import type {
  CustomerImport,
  ImportColumns,
  ImportRun,
  ImportRunBody,
  PreviewRow,
} from '../../../shared/schemas/customer-import';
import type { AppContext } from '../../context';
import type { Db } from '../../db/database';
import type { CustomerImportsTable } from '../../db/import-schema';
import type { WriterConnection } from '../../db/writer-connection';
import { isoNow } from '../../lib/clock';
import { ApiError, invalidState, notFound, payloadTooLarge, validationError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { type CsvShape, countDataRows, readHead, sniffShape } from './csv-file';
import { suggestColumns } from './presets';
import { mapRow } from './rows';
import { applyFile, type ImportFile, type LiveRun, type RunBoard, stageFile, stoppedRun } from './run';
import { closeStage, dataVersion, stageHolds } from './stage';
import { touchedCustomers, undoRows } from './undo';

/** Where uploads wait (a folder of the data folder), the run going on, and where runs write. */
export interface ImportPlace {
  folder: string;
  runs: RunBoard;
  /** The connection a run writes on (its own in the server, so the server keeps answering meanwhile). */
  connect(): WriterConnection;
  /** Where a run that failed for a reason of the app's own (not the file's) is reported. */
  logError(error: unknown): void;
}

/** 50,000 rows of a client export are about 15 MB; this leaves room for long notes. */
export const MAX_UPLOAD_BYTES = 200 * 1024 * 1024;
const PREVIEW_ROWS = 5;

const uploadPath = (place: ImportPlace, id: string) => path.join(place.folder, `${id}.csv`);
const rejectedPath = (place: ImportPlace, id: string) => path.join(place.folder, `${id}.rejected.csv`);

async function present(
  ctx: AppContext,
  place: ImportPlace,
  row: CustomerImportsTable,
): Promise<CustomerImport> {
  const headers = JSON.parse(row.headers) as string[];
  const suggestion = suggestColumns(headers);
  const settings = row.settings ? (JSON.parse(row.settings) as { columns: ImportColumns }) : null;
  const live = place.runs.live(row.account_id, row.id);
  const stored = row.run ? (JSON.parse(row.run) as ImportRun) : null;
  const run = live ? { ...live.started, rows_done: live.rowsDone } : stored;
  return {
    id: row.id,
    object: 'customer_import',
    file_name: row.file_name,
    size_bytes: row.size_bytes,
    encoding: row.encoding as CustomerImport['encoding'],
    delimiter: row.delimiter,
    headers,
    preset: suggestion.preset,
    columns: settings?.columns ?? suggestion.columns,
    status: row.status,
    dry_run: row.dry_run ? JSON.parse(row.dry_run) : null,
    result: row.result ? JSON.parse(row.result) : null,
    undoable: row.status === 'imported' && !live && (await touchedCustomers(ctx.db, row.id)) === 0,
    run,
    created_at: row.created_at,
    imported_at: row.imported_at,
    undone_at: row.undone_at,
  };
}

async function getRow(ctx: AppContext, accountId: string, id: string): Promise<CustomerImportsTable> {
  const row = await ctx.db
    .selectFrom('customer_imports')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) throw notFound(`No customer import ${id}`);
  return row;
}

export async function getImport(ctx: AppContext, place: ImportPlace, accountId: string, id: string) {
  return present(ctx, place, await getRow(ctx, accountId, id));
}

/** Stores an uploaded file (streamed to disk, never whole in memory) and reads its header row. */
export async function uploadImport(
  ctx: AppContext,
  place: ImportPlace,
  accountId: string,
  fileName: string,
  body: Readable,
): Promise<CustomerImport> {
  mkdirSync(place.folder, { recursive: true });
  const id = newId('imp', ctx.clock.now().getTime());
  const file = uploadPath(place, id);
  let size = 0;
  const limit = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      if (size > MAX_UPLOAD_BYTES) {
        done(payloadTooLarge(`The file is over ${MAX_UPLOAD_BYTES / 1024 / 1024} MB`));
      } else done(null, chunk);
    },
  });
  let shape: CsvShape;
  let headers: string[];
  let dataRows: number;
  try {
    await pipeline(body, limit, createWriteStream(file));
    if (size === 0) throw validationError('The file is empty: it needs a header row and data rows', 'file');
    shape = await sniffShape(file);
    headers = (await readHead(file, shape, 0))[0]!.values;
    dataRows = await countDataRows(file, shape);
  } catch (error) {
    rmSync(file, { force: true });
    throw error;
  }
  const row: CustomerImportsTable = {
    id,
    account_id: accountId,
    file_name: fileName,
    size_bytes: size,
    encoding: shape.encoding,
    delimiter: shape.delimiter,
    headers: JSON.stringify(headers),
    status: 'uploaded',
    settings: null,
    dry_run: null,
    result: null,
    run: null,
    data_rows: dataRows,
    created_at: isoNow(ctx.clock),
    imported_at: null,
    undone_at: null,
  };
  await ctx.db.insertInto('customer_imports').values(row).execute();
  return present(ctx, place, row);
}

function importFile(place: ImportPlace, row: CustomerImportsTable, columns: ImportColumns): ImportFile {
  const headers = JSON.parse(row.headers) as string[];
  if (columns.length !== headers.length) {
    throw validationError(
      `columns must have one entry per column of the file (${headers.length})`,
      'columns',
    );
  }
  if (!columns.some((c) => c === 'name' || c === 'first_name' || c === 'last_name' || c === 'company')) {
    throw validationError('Map a column to the name (or first name, last name or company)', 'columns');
  }
  if (!existsSync(uploadPath(place, row.id)))
    throw invalidState('The uploaded file is gone: upload it again');
  return {
    id: row.id,
    accountId: row.account_id,
    path: uploadPath(place, row.id),
    rejectedPath: rejectedPath(place, row.id),
    shape: { encoding: row.encoding as CsvShape['encoding'], delimiter: row.delimiter },
    headers,
  };
}

/** The first rows as they will be saved with these columns. */
export async function previewImport(
  ctx: AppContext,
  place: ImportPlace,
  accountId: string,
  id: string,
  columns: ImportColumns,
): Promise<{ rows: PreviewRow[] }> {
  const row = await getRow(ctx, accountId, id);
  const file = importFile(place, row, columns);
  const head = await readHead(file.path, file.shape, PREVIEW_ROWS);
  return {
    rows: head.slice(1).map((r) => ({ row: r.row, ...mapRow(columns, r.values, file.headers.length) })),
  };
}

type Phase = ImportRun['phase'];

/**
 * Starts a dry run, import or undo in the background and answers at once with the import, its
 * run `running`: a 50,000-row file outlasts what a proxy or a browser lets one request take.
 * What can be refused is refused here, before anything starts; the run itself is one
 * transaction, so a failure (or the app closing) leaves nothing of it.
 */
async function startRun(
  ctx: AppContext,
  place: ImportPlace,
  accountId: string,
  id: string,
  phase: Phase,
  body: ImportRunBody | null,
): Promise<CustomerImport> {
  const row = await getRow(ctx, accountId, id);
  let work: (db: Db, live: LiveRun) => Promise<void>;
  let total: number;
  if (phase === 'undo') {
    if (row.status !== 'imported')
      throw invalidState(`Only an imported file can be undone; this one is ${row.status}`);
    const touched = await touchedCustomers(ctx.db, id);
    if (touched > 0) {
      throw invalidState(
        `This import can no longer be undone: ${touched} of its customers changed since (edited, given work, or synced from another device)`,
        { touched },
      );
    }
    total = Number(
      (
        await ctx.db
          .selectFrom('customer_import_rows')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('import_id', '=', id)
          .executeTakeFirstOrThrow()
      ).n,
    );
    work = (db, live) => undoWhole(ctx, db, id, live, total);
  } else {
    if (row.status !== 'uploaded') throw invalidState(`This file was ${row.status} already`);
    const file = importFile(place, row, body!.columns);
    total = row.data_rows ?? (await countDataRows(file.path, file.shape));
    work = (db, live) => readWhole(ctx, db, file, body!, phase === 'dry_run', live);
  }
  const started: ImportRun = {
    phase,
    state: 'running',
    rows_done: 0,
    rows_total: total,
    error: null,
    started_at: isoNow(ctx.clock),
    finished_at: null,
  };
  const live = place.runs.begin(accountId, id, started);
  live.done = runInBackground(ctx, place, live, work);
  return present(ctx, place, row);
}

async function runInBackground(
  ctx: AppContext,
  place: ImportPlace,
  live: LiveRun,
  work: (db: Db, live: LiveRun) => Promise<void>,
): Promise<void> {
  let connection: WriterConnection | null = null;
  const store = (db: Db, run: ImportRun) =>
    db
      .updateTable('customer_imports')
      .set({ run: JSON.stringify(run) })
      .where('id', '=', live.id)
      .execute();
  const finish = (db: Db, outcome: Pick<ImportRun, 'state' | 'error'>) =>
    store(db, { ...live.started, ...outcome, rows_done: live.rowsDone, finished_at: isoNow(ctx.clock) });
  try {
    connection = place.connect();
    // Stored before the run's transaction begins: a crash from here on leaves it marked running,
    // which the next start turns into failed (failInterruptedRuns).
    await store(connection.db, live.started);
    await work(connection.db, live);
    await finish(connection.db, { state: 'succeeded', error: null });
  } catch (error) {
    if (!(error instanceof ApiError) || error.status >= 500) place.logError(error);
    const known = error instanceof ApiError;
    await finish(connection?.db ?? ctx.db, {
      state: 'failed',
      error: {
        code: known ? error.code : 'internal_error',
        message: known ? error.message : 'The run failed on an error of the app; nothing of it was kept.',
      },
    }).catch(place.logError);
  } finally {
    await connection?.close().catch(place.logError);
    place.runs.end(live);
  }
}

async function readWhole(
  ctx: AppContext,
  db: Db,
  file: ImportFile,
  body: ImportRunBody,
  dryRun: boolean,
  live: LiveRun,
): Promise<void> {
  const choices = { columns: body.columns, onMatch: body.on_match };
  // Taken before the file is read: any commit by another connection from here on changes it.
  const version = await dataVersion(db);
  try {
    const staged = await stageFile(db, ctx, file, choices, live);
    if (dryRun) {
      await db
        .updateTable('customer_imports')
        .set({ dry_run: JSON.stringify(staged), settings: JSON.stringify(body) })
        .where('id', '=', file.id)
        .execute();
      return;
    }
    const summary = await db.transaction().execute(async (tx) => {
      if (live.stopping) throw stoppedRun();
      // Someone changed what the rows were matched against while the file was read: read it
      // again under the lock (slow, but rare), so the import is what the customers are now.
      const result = (await stageHolds(tx, file.accountId, version))
        ? staged
        : await stageFile(tx, ctx, file, choices, live);
      const sent = await applyFile(tx, ctx, file.accountId, body.send_events);
      const final = { ...result, events_sent: sent };
      await tx
        .updateTable('customer_imports')
        .set({
          status: 'imported',
          result: JSON.stringify(final),
          settings: JSON.stringify(body),
          imported_at: isoNow(ctx.clock),
        })
        .where('id', '=', file.id)
        .execute();
      return final;
    });
    // Workers wake on this to deliver the customer.created events the import queued.
    if (summary.events_sent) ctx.signals.emit('outbox');
    // The customers are in the database now; the copy of the file holds their details for nothing.
    rmSync(file.path, { force: true });
  } finally {
    await closeStage(db);
  }
}

async function undoWhole(ctx: AppContext, db: Db, id: string, live: LiveRun, total: number) {
  await db.transaction().execute(async (tx) => {
    const now = isoNow(ctx.clock);
    await undoRows(tx, id, now);
    await tx
      .updateTable('customer_imports')
      .set({ status: 'undone', undone_at: now })
      .where('id', '=', id)
      .execute();
  });
  live.rowsDone = total;
}

export const dryRunImport = (
  ctx: AppContext,
  place: ImportPlace,
  accountId: string,
  id: string,
  body: ImportRunBody,
) => startRun(ctx, place, accountId, id, 'dry_run', body);

export const runImport = (
  ctx: AppContext,
  place: ImportPlace,
  accountId: string,
  id: string,
  body: ImportRunBody,
) => startRun(ctx, place, accountId, id, 'import', body);

export const undoImport = (ctx: AppContext, place: ImportPlace, accountId: string, id: string) =>
  startRun(ctx, place, accountId, id, 'undo', null);

/**
 * Runs the app did not live to finish, marked failed: each was one transaction, which SQLite
 * rolled back when the process died, so nothing of it is in the database.
 */
export async function failInterruptedRuns(ctx: AppContext): Promise<number> {
  const rows = await ctx.db
    .selectFrom('customer_imports')
    .select(['id', 'run'])
    .where(sql<boolean>`json_extract(run, '$.state') = 'running'`)
    .execute();
  for (const row of rows) {
    const run: ImportRun = {
      ...(JSON.parse(row.run!) as ImportRun),
      state: 'failed',
      error: {
        code: 'import_interrupted',
        message: 'The app stopped while this ran; nothing of it was kept. Run it again.',
      },
      finished_at: isoNow(ctx.clock),
    };
    await ctx.db
      .updateTable('customer_imports')
      .set({ run: JSON.stringify(run) })
      .where('id', '=', row.id)
      .execute();
  }
  return rows.length;
}

/** The rejected rows of the last dry run or import, as a CSV file's path. */
export async function rejectedRowsFile(ctx: AppContext, place: ImportPlace, accountId: string, id: string) {
  const row = await getRow(ctx, accountId, id);
  const file = rejectedPath(place, row.id);
  if (!existsSync(file) || (!row.dry_run && !row.result)) {
    throw notFound('No rejected rows yet: run a dry run first');
  }
  return { file, filename: `${path.parse(row.file_name).name || 'import'}-rejected.csv` };
}
