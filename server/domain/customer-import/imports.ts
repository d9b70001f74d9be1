import { createWriteStream, existsSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type {
  CustomerImport,
  ImportColumns,
  ImportRunBody,
  ImportSummary,
  PreviewRow,
} from '../../../shared/schemas/customer-import';
import type { AppContext } from '../../context';
import type { CustomerImportsTable } from '../../db/import-schema';
import { isoNow } from '../../lib/clock';
import { invalidState, notFound, payloadTooLarge, validationError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { type CsvShape, readHead, sniffShape } from './csv-file';
import { suggestColumns } from './presets';
import { mapRow } from './rows';
import { type ImportFile, importRows, type ProgressBoard } from './run';
import { touchedCustomers, undoRows } from './undo';

/** Where uploads wait (a folder of the data folder) and who is reading which. */
export interface ImportPlace {
  folder: string;
  progress: ProgressBoard;
}

/** 50,000 rows of a client export are about 15 MB; this leaves room for long notes. */
export const MAX_UPLOAD_BYTES = 200 * 1024 * 1024;
const PREVIEW_ROWS = 5;

const uploadPath = (place: ImportPlace, id: string) => path.join(place.folder, `${id}.csv`);
const rejectedPath = (place: ImportPlace, id: string) => path.join(place.folder, `${id}.rejected.csv`);

/** Dry runs roll their transaction back by throwing this, carrying the counts out. */
class DryRunFinished extends Error {
  constructor(readonly summary: ImportSummary) {
    super('dry run');
  }
}

async function present(
  ctx: AppContext,
  place: ImportPlace,
  row: CustomerImportsTable,
): Promise<CustomerImport> {
  const headers = JSON.parse(row.headers) as string[];
  const suggestion = suggestColumns(headers);
  const settings = row.settings ? (JSON.parse(row.settings) as { columns: ImportColumns }) : null;
  const progress = place.progress.get(row.account_id, row.id)?.progress ?? null;
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
    undoable: row.status === 'imported' && !progress && (await touchedCustomers(ctx.db, row.id)) === 0,
    progress,
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
  const run = place.progress.get(accountId, id);
  if (run?.snapshot) return { ...run.snapshot, progress: { ...run.progress } };
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
  try {
    await pipeline(body, limit, createWriteStream(file));
    if (size === 0) throw validationError('The file is empty: it needs a header row and data rows', 'file');
    shape = await sniffShape(file);
    headers = (await readHead(file, shape, 0))[0]!.values;
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

async function readWhole(
  ctx: AppContext,
  place: ImportPlace,
  accountId: string,
  id: string,
  body: ImportRunBody,
  dryRun: boolean,
): Promise<CustomerImport> {
  const row = await getRow(ctx, accountId, id);
  if (row.status !== 'uploaded') throw invalidState(`This file was ${row.status} already`);
  const file = importFile(place, row, body.columns);
  const choices = { columns: body.columns, onMatch: body.on_match, sendEvents: body.send_events && !dryRun };
  const snapshot = await present(ctx, place, row);
  const run = place.progress.start(accountId, id, dryRun ? 'dry_run' : 'import', row.size_bytes);
  run.snapshot = snapshot;
  const progress = run.progress;
  try {
    if (dryRun) {
      const summary = await ctx.db
        .transaction()
        .execute(async (tx) => {
          throw new DryRunFinished(await importRows(tx, ctx, file, choices, progress));
        })
        .catch((error: unknown) => {
          if (error instanceof DryRunFinished) return error.summary;
          throw error;
        });
      await ctx.db
        .updateTable('customer_imports')
        .set({ dry_run: JSON.stringify(summary), settings: JSON.stringify(body) })
        .where('id', '=', id)
        .execute();
    } else {
      await ctx.db.transaction().execute(async (tx) => {
        const summary = await importRows(tx, ctx, file, choices, progress);
        await tx
          .updateTable('customer_imports')
          .set({
            status: 'imported',
            result: JSON.stringify(summary),
            settings: JSON.stringify(body),
            imported_at: isoNow(ctx.clock),
          })
          .where('id', '=', id)
          .execute();
      });
      // The customers are in the database now; the copy of the file holds their details for nothing.
      rmSync(file.path, { force: true });
    }
  } finally {
    place.progress.finish(id);
  }
  return present(ctx, place, await getRow(ctx, accountId, id));
}

export const dryRunImport = (
  ctx: AppContext,
  place: ImportPlace,
  accountId: string,
  id: string,
  body: ImportRunBody,
) => readWhole(ctx, place, accountId, id, body, true);

export const runImport = (
  ctx: AppContext,
  place: ImportPlace,
  accountId: string,
  id: string,
  body: ImportRunBody,
) => readWhole(ctx, place, accountId, id, body, false);

/** The rejected rows of the last dry run or import, as a CSV file's path. */
export async function rejectedRowsFile(ctx: AppContext, place: ImportPlace, accountId: string, id: string) {
  const row = await getRow(ctx, accountId, id);
  const file = rejectedPath(place, row.id);
  if (!existsSync(file) || (!row.dry_run && !row.result)) {
    throw notFound('No rejected rows yet: run a dry run first');
  }
  return { file, filename: `${path.parse(row.file_name).name || 'import'}-rejected.csv` };
}

export async function undoImport(ctx: AppContext, place: ImportPlace, accountId: string, id: string) {
  const row = await getRow(ctx, accountId, id);
  if (row.status !== 'imported')
    throw invalidState(`Only an imported file can be undone; this one is ${row.status}`);
  place.progress.start(accountId, id, 'undo', row.size_bytes);
  try {
    await ctx.db.transaction().execute(async (tx) => {
      const now = isoNow(ctx.clock);
      await undoRows(tx, id, now);
      await tx
        .updateTable('customer_imports')
        .set({ status: 'undone', undone_at: now })
        .where('id', '=', id)
        .execute();
    });
  } finally {
    place.progress.finish(id);
  }
  return present(ctx, place, await getRow(ctx, accountId, id));
}
