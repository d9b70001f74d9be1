import { createReadStream, existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { AccountingExportQuery } from '../shared/schemas/accounting-export';
import { type ImportColumns, ImportField, type ImportSummary } from '../shared/schemas/customer-import';
import { UsageError } from './cli-args';
import type { AppContext } from './context';
import { accountingExport } from './documents/accounting-export';
import * as imports from './domain/customer-import/imports';
import { RunBoard } from './domain/customer-import/run';
import { ApiError } from './lib/errors';

type Out = (json: unknown, text: string) => void;

export const IMPORT_EXPORT_HELP = `  import customers FILE [--dry-run] [--on-match skip|update] [--send-events] [--columns F,F,,F]
                        customers from a CSV file (docs/import-export.md): Jobber, Housecall Pro and
                        QuickBooks Online exports are mapped by their headers, others by --columns
                        (one field per column, empty to leave one out); --dry-run writes nothing
  import undo ID        take an import back whole (refused once its customers changed)
  export accounting --from DATE --to DATE --format quickbooks|xero|plain --records invoices|payments
                    [--out FILE]  the period's invoices or payments for the accountant`;

function describe(summary: ImportSummary, dryRun: boolean): string {
  const verb = dryRun ? 'would be' : 'were';
  return [
    `${summary.rows} rows: ${summary.added} customers ${verb} added, ${summary.updated} updated, ${summary.skipped} skipped (on match: ${summary.on_match}), ${summary.rejected} rejected.`,
    ...summary.rejected_rows.map((r) => `  row ${r.row}: ${r.reason}`),
    summary.rejected > summary.rejected_rows.length ? '  (the CSV of rejected rows has them all)' : '',
  ]
    .filter(Boolean)
    .join('\n');
}

function parseColumns(value: string): ImportColumns {
  return value.split(',').map((name) => {
    if (!name.trim()) return null;
    const field = ImportField.safeParse(name.trim());
    if (!field.success)
      throw new UsageError(`--columns: ${name} is not a field (${ImportField.options.join(', ')})`);
    return field.data;
  });
}

/** `import customers FILE` and `import undo ID`: what Settings > Import does, on a data folder. */
export async function runImportCommand(
  args: string[],
  values: { 'dry-run': boolean; 'on-match'?: string; 'send-events': boolean; columns?: string },
  ctx: AppContext,
  accountId: () => Promise<string>,
  out: Out,
  dataDir: string,
): Promise<void> {
  const [what, target] = args;
  // The command's own connection runs the import: nothing else is served from it meanwhile.
  const place: imports.ImportPlace = {
    folder: path.join(dataDir, 'imports'),
    runs: new RunBoard(),
    connect: () => ({ db: ctx.db, close: async () => {} }),
    logError: (error) => console.error(error),
  };
  /** Waits for the run just started and answers with the import as it left it, or its failure. */
  const finished = async (account: string, id: string) => {
    await place.runs.idle();
    const done = await imports.getImport(ctx, place, account, id);
    if (done.run?.error) throw new ApiError(409, done.run.error.code, done.run.error.message);
    return done;
  };
  if (what === 'undo') {
    if (!target) throw new UsageError('import undo needs the import id (imp_…)');
    const account = await accountId();
    await imports.undoImport(ctx, place, account, target);
    const undone = await finished(account, target);
    out(undone, `Undone: the customers of ${undone.file_name} are as they were before it.`);
    return;
  }
  if (what !== 'customers' || !target) throw new UsageError('import takes customers FILE, or undo ID');
  if (!existsSync(target)) throw new UsageError(`No file ${target}`);
  const onMatch = values['on-match'] ?? 'skip';
  if (onMatch !== 'skip' && onMatch !== 'update') throw new UsageError('--on-match must be skip or update');
  const account = await accountId();
  const uploaded = await imports.uploadImport(
    ctx,
    place,
    account,
    path.basename(target),
    createReadStream(target),
  );
  const columns = values.columns ? parseColumns(values.columns) : uploaded.columns;
  const body = { columns, on_match: onMatch, send_events: values['send-events'] } as const;
  const ticker = setInterval(() => {
    const live = place.runs.live(account, uploaded.id);
    if (live) process.stderr.write(`  ${live.rowsDone} rows read\n`);
  }, 1000);
  try {
    const dryRun = values['dry-run'];
    await (dryRun ? imports.dryRunImport : imports.runImport)(ctx, place, account, uploaded.id, body);
    const done = await finished(account, uploaded.id);
    const summary = (dryRun ? done.dry_run : done.result)!;
    const recognised = done.preset ? `Recognised a ${done.preset} export.\n` : '';
    const undo = dryRun ? '' : `\nUndo with: import undo ${done.id}`;
    out(done, `${recognised}${describe(summary, dryRun)}${undo}`);
  } finally {
    clearInterval(ticker);
  }
}

/** `export accounting …`: the accountant's file, to --out or standard output. */
export async function runExportCommand(
  args: string[],
  values: { from?: string; to?: string; format?: string; records?: string; out?: string },
  ctx: AppContext,
  accountId: () => Promise<string>,
  print: (text: string) => void,
): Promise<void> {
  if (args[0] !== 'accounting') throw new UsageError('export takes accounting');
  const query = AccountingExportQuery.safeParse({
    from: values.from,
    to: values.to,
    format: values.format,
    records: values.records ?? 'invoices',
  });
  if (!query.success) {
    const issue = query.error.issues[0]!;
    throw new UsageError(`--${String(issue.path[0] ?? 'from')}: ${issue.message}`);
  }
  const file = await accountingExport(ctx, await accountId(), query.data);
  if (values.out) {
    writeFileSync(values.out, file.csv);
    print(`Wrote ${file.totals.rows} rows to ${values.out}`);
  } else {
    process.stdout.write(file.csv);
  }
}
