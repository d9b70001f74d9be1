import { once } from 'node:events';
import { createWriteStream, type WriteStream } from 'node:fs';
import type {
  CustomerImport,
  ImportColumns,
  ImportProgress,
  ImportSummary,
  RejectedRow,
} from '../../../shared/schemas/customer-import';
import type { AppContext } from '../../context';
import type { Tx } from '../../db/database';
import { invalidState } from '../../lib/errors';
import { presentCustomer, selectCustomers, winbackDays } from '../customer-list';
import { recordEvent } from '../events';
import { type BatchContext, type Outcome, type PendingRow, writeBatch } from './batch';
import { type CsvShape, readRecords } from './csv-file';
import { mapRow } from './rows';

/** Rows written per batch: big enough that statements are few, small enough that memory stays flat. */
const BATCH_ROWS = 500;
const REPORTED_REJECTIONS = 100;

interface Running {
  accountId: string;
  progress: ImportProgress;
  /** The import as it stood when the run began: a running import holds the database, so polls read this. */
  snapshot: CustomerImport | null;
}

/** What a running dry run, import or undo has done so far, per import id; kept in memory, for polling. */
export class ProgressBoard {
  private readonly running = new Map<string, Running>();
  get(accountId: string, id: string): Running | null {
    const run = this.running.get(id);
    return run && run.accountId === accountId ? run : null;
  }
  start(accountId: string, id: string, phase: ImportProgress['phase'], size: number): Running {
    if (this.running.has(id)) throw invalidState('This file is being read already: wait for it to finish');
    const run = { accountId, progress: { phase, rows: 0, bytes: 0, size_bytes: size }, snapshot: null };
    this.running.set(id, run);
    return run;
  }
  finish(id: string): void {
    this.running.delete(id);
  }
}

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
  sendEvents: boolean;
}

/**
 * Reads the whole file in `tx`, writing customers a batch at a time, and says what it did. The
 * caller decides whether the transaction commits (an import) or rolls back (a dry run), so a dry
 * run's counts are exactly what the import will do.
 */
export async function importRows(
  tx: Tx,
  ctx: AppContext,
  file: ImportFile,
  choices: RunChoices,
  progress: ImportProgress,
): Promise<ImportSummary> {
  const now = ctx.clock.now();
  const batchCtx: BatchContext = {
    tx,
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
  try {
    for await (const record of readRecords(file.path, file.shape, (bytes) => {
      progress.bytes = bytes;
    })) {
      if (record.row === 1) continue;
      summary.rows += 1;
      progress.rows = summary.rows;
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
