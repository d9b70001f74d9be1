import { once } from 'node:events';
import { createWriteStream, type WriteStream } from 'node:fs';
import type {
  ImportColumns,
  ImportRun,
  ImportSummary,
  RejectedRow,
} from '../../../shared/schemas/customer-import';
import type { AppContext } from '../../context';
import type { Tx } from '../../db/database';
import { ApiError, conflict } from '../../lib/errors';
import { presentCustomer, selectCustomers, winbackDays } from '../customer-list';
import { recordEvent } from '../events';
import { type BatchContext, closeSeen, type Outcome, openSeen, type PendingRow, writeBatch } from './batch';
import { type CsvShape, readRecords } from './csv-file';
import { mapRow } from './rows';

/** Rows written per batch: big enough that statements are few, small enough that memory stays flat. */
const BATCH_ROWS = 500;
const REPORTED_REJECTIONS = 100;

/** A dry run, import or undo going on in the background: how far it is, and whether to stop. */
export interface LiveRun {
  accountId: string;
  id: string;
  rowsDone: number;
  /** The run as it began, shown (with rowsDone) until it ends, whether or not it was stored yet. */
  started: ImportRun;
  /** Set when the app is closing: the run stops at its next batch, and its transaction rolls back. */
  stopping: boolean;
  done: Promise<void>;
}

/**
 * The run going on, if any: one at a time, since each holds the database's write lock from its
 * first row to its last, and a second would only wait behind it.
 */
export class RunBoard {
  private current: LiveRun | null = null;
  live(accountId: string, id: string): LiveRun | null {
    const run = this.current;
    return run && run.accountId === accountId && run.id === id ? run : null;
  }
  begin(accountId: string, id: string, started: ImportRun): LiveRun {
    if (this.current) throw conflict('An import is running: wait for it to finish, then try again');
    this.current = { accountId, id, rowsDone: 0, started, stopping: false, done: Promise.resolve() };
    return this.current;
  }
  end(run: LiveRun): void {
    if (this.current === run) this.current = null;
  }
  /** Waits for the run going on, if any, to end. */
  async idle(): Promise<void> {
    await this.current?.done;
  }
  /** Stops the run going on, nothing of it kept, and waits for it to end. */
  async stop(): Promise<void> {
    if (this.current) this.current.stopping = true;
    await this.idle();
  }
}

/** Thrown into a run the app stops: its transaction rolls back. */
export const stoppedRun = () =>
  new ApiError(
    503,
    'import_interrupted',
    'The app closed while this ran; nothing of it was kept. Run it again.',
  );

const csvCell = (value: string | number) => {
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};

/** The rejected rows as a CSV the owner can fix and upload again: the file's columns, then row and reason. */
class RejectedFile {
  private readonly out: WriteStream;
  constructor(path: string, headers: string[]) {
    this.out = createWriteStream(path);
    this.out.write(`${[...headers, 'row', 'reason'].map(csvCell).join(',')}\r\n`);
  }
  async add(values: string[], row: number, reason: string) {
    if (!this.out.write(`${[...values, row, reason].map(csvCell).join(',')}\r\n`))
      await once(this.out, 'drain');
  }
  async close() {
    this.out.end();
    await once(this.out, 'finish');
  }
}

export interface ImportFile {
  id: string;
  accountId: string;
  path: string;
  rejectedPath: string;
  shape: CsvShape;
  headers: string[];
}

export interface RunChoices {
  /** false for a dry run: the same rules, nothing written (the caller rolls back even so). */
  write: boolean;
  columns: ImportColumns;
  onMatch: 'update' | 'skip';
  sendEvents: boolean;
}

/**
 * Reads the whole file in `tx`, a batch at a time, and says what it did (or, with `write: false`,
 * would do). A dry run walks the very same path and skips only the writes: the matches, repeats
 * and tag limits are decided by the same code on the same data, so its counts are the import's.
 */
export async function importRows(
  tx: Tx,
  ctx: AppContext,
  file: ImportFile,
  choices: RunChoices,
  progress: LiveRun,
): Promise<ImportSummary> {
  const now = ctx.clock.now();
  const batchCtx: BatchContext = {
    tx,
    accountId: file.accountId,
    importId: file.id,
    onMatch: choices.onMatch,
    write: choices.write,
    // Milliseconds, where every other write stamps whole seconds: any later change, even within
    // the same second, leaves an updated_at that differs from this one.
    now: now.toISOString(),
    nowMs: now.getTime(),
  };
  const summary: ImportSummary = {
    rows: 0,
    added: 0,
    updated: 0,
    skipped: 0,
    rejected: 0,
    rejected_rows: [],
    on_match: choices.onMatch,
    events_sent: 0,
  };
  const rejectedFile = new RejectedFile(file.rejectedPath, file.headers);
  const reject = async (row: number, values: string[], reason: string) => {
    summary.rejected += 1;
    if (summary.rejected_rows.length < REPORTED_REJECTIONS)
      summary.rejected_rows.push({ row, reason } satisfies RejectedRow);
    await rejectedFile.add(values, row, reason);
  };
  const settle = async (outcomes: Outcome[]) => {
    const added: string[] = [];
    for (const outcome of outcomes) {
      if (outcome.kind === 'rejected') await reject(outcome.row.row, outcome.row.values, outcome.reason);
      else summary[outcome.kind] += 1;
      if (outcome.kind === 'added') added.push(outcome.id);
    }
    if (!choices.sendEvents || !added.length) return;
    const rows = await selectCustomers(tx).where('c.id', 'in', added).orderBy('c.id').execute();
    const days = await winbackDays(tx, file.accountId);
    for (const row of rows) {
      await recordEvent(tx, ctx.clock, file.accountId, 'customer.created', presentCustomer(row, now, days));
      summary.events_sent += 1;
    }
  };
  // Rows that cannot be mapped wait in the batch too, so rejections are reported in the file's order.
  let batch: Array<PendingRow | { row: number; values: string[]; error: string }> = [];
  const flush = async () => {
    if (progress.stopping) throw stoppedRun();
    const valid = batch.filter((entry): entry is PendingRow => 'customer' in entry);
    const written = new Map((await writeBatch(batchCtx, valid)).map((o) => [o.row.row, o]));
    await settle(
      batch.map((entry) =>
        'customer' in entry
          ? written.get(entry.row)!
          : { kind: 'rejected' as const, row: entry, reason: entry.error },
      ),
    );
    batch = [];
  };
  await openSeen(tx);
  try {
    for await (const record of readRecords(file.path, file.shape)) {
      if (record.row === 1) continue;
      summary.rows += 1;
      progress.rowsDone = summary.rows;
      const mapped = mapRow(choices.columns, record.values, file.headers.length);
      batch.push(
        mapped.error === null
          ? { row: record.row, values: record.values, customer: mapped.customer }
          : { row: record.row, values: record.values, error: mapped.error },
      );
      if (batch.length >= BATCH_ROWS) await flush();
    }
    if (batch.length) await flush();
    await closeSeen(tx);
  } finally {
    await rejectedFile.close();
  }
  return summary;
}
