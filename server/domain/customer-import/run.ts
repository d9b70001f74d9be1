import { once } from 'node:events';
import { createWriteStream, type WriteStream } from 'node:fs';
import type {
  ImportColumns,
  ImportRun,
  ImportSummary,
  RejectedRow,
} from '../../../shared/schemas/customer-import';
import type { AppContext } from '../../context';
import type { Queryable, Tx } from '../../db/database';
import { ApiError, conflict } from '../../lib/errors';
import { presentCustomer, selectCustomers, winbackDays } from '../customer-list';
import { recordEvent } from '../events';
import { type BatchContext, type Outcome, type PendingRow, writeBatch } from './batch';
import { type CsvShape, readRecords } from './csv-file';
import { mapRow } from './rows';
import { applyStage, openStage, stagedCustomerIds } from './stage';

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
 * The run going on, if any: one at a time, since two imports decide their rows against the same
 * customers, and each would find the other's work in its way when it applies.
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
  columns: ImportColumns;
  onMatch: 'update' | 'skip';
}

/**
 * Reads the whole file on `db`, a batch at a time, decides what each row does and stages it
 * (stage.ts: nothing is written but the run's own temporary tables), and says what the rows do.
 * A dry run is this alone; an import applies the stage afterwards, so its counts are the dry run's.
 */
export async function stageFile(
  db: Queryable,
  ctx: AppContext,
  file: ImportFile,
  choices: RunChoices,
  progress: LiveRun,
): Promise<ImportSummary> {
  const now = ctx.clock.now();
  const batchCtx: BatchContext = {
    db,
    accountId: file.accountId,
    importId: file.id,
    onMatch: choices.onMatch,
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
  const settle = async (outcomes: Outcome[]) => {
    for (const outcome of outcomes) {
      if (outcome.kind !== 'rejected') {
        summary[outcome.kind] += 1;
        continue;
      }
      summary.rejected += 1;
      if (summary.rejected_rows.length < REPORTED_REJECTIONS)
        summary.rejected_rows.push({ row: outcome.row.row, reason: outcome.reason } satisfies RejectedRow);
      await rejectedFile.add(outcome.row.values, outcome.row.row, outcome.reason);
    }
  };
  // Rows that cannot be mapped wait in the batch too, so rejections are reported in the file's order.
  let batch: Array<PendingRow | { row: number; values: string[]; error: string }> = [];
  const flush = async () => {
    if (progress.stopping) throw stoppedRun();
    const valid = batch.filter((entry): entry is PendingRow => 'customer' in entry);
    const decided = new Map((await writeBatch(batchCtx, valid)).map((o) => [o.row.row, o]));
    await settle(
      batch.map((entry) =>
        'customer' in entry
          ? decided.get(entry.row)!
          : { kind: 'rejected' as const, row: entry, reason: entry.error },
      ),
    );
    batch = [];
  };
  progress.rowsDone = 0;
  await openStage(db);
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
  } finally {
    await rejectedFile.close();
  }
  return summary;
}

/**
 * Writes what stageFile staged, in the caller's transaction, and queues customer.created for each
 * new customer when the owner asked: returns how many events it queued.
 */
export async function applyFile(tx: Tx, ctx: AppContext, accountId: string, sendEvents: boolean) {
  await applyStage(tx);
  if (!sendEvents) return 0;
  const now = ctx.clock.now();
  const days = await winbackDays(tx, accountId);
  let sent = 0;
  for await (const ids of stagedCustomerIds(tx)) {
    const rows = await selectCustomers(tx).where('c.id', 'in', ids).orderBy('c.id').execute();
    for (const row of rows) {
      await recordEvent(tx, ctx.clock, accountId, 'customer.created', presentCustomer(row, now, days));
      sent += 1;
    }
  }
  return sent;
}
