import type { HistoryEntry, HistoryRecordType } from '../../shared/schemas/history';
import type { AppContext } from '../context';
import type { Queryable } from '../db/database';
import type { RecordChangesTable } from '../db/schema';
import { isoNow } from '../lib/clock';
import { conflict, invalidState, notFound } from '../lib/errors';
import { type ChangeAuthor, nameAuthors } from './change-authors';

/** Fields that move only through their own actions (send, void, complete…). */
export const NOT_RESTORABLE = new Set(['status']);

/**
 * A record's history and putting a replaced value back (docs/sync.md, "Decisions and history").
 * The entries themselves are written by triggers and by the sync applier (sync/history.ts).
 */

/** What a record keeps: 90 days, and at most this many entries (the newest), pruned hourly. */
export const HISTORY_RETENTION_DAYS = 90;
export const HISTORY_PER_RECORD = 200;

type Row = Omit<RecordChangesTable, 'id'> & { id: number };

export async function listHistory(
  ctx: AppContext,
  accountId: string,
  type: HistoryRecordType,
  recordId: string,
): Promise<HistoryEntry[]> {
  const record = await ctx.db
    .selectFrom(type)
    .select('id')
    .where('account_id', '=', accountId)
    .where('id', '=', recordId)
    .executeTakeFirst();
  if (!record) throw notFound(`No ${type.slice(0, -1)} ${recordId}`);
  const rows = await ctx.db
    .selectFrom('record_changes')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('record_type', '=', type)
    .where('record_id', '=', recordId)
    .orderBy('id', 'desc')
    .limit(HISTORY_PER_RECORD)
    .execute();
  const node = await ownNode(ctx.db);
  const named = await nameAuthors(
    ctx.db,
    accountId,
    rows.map((r) => r.author),
  );
  return rows.map((row) => present(row, node, named(row.author)));
}

/** Puts a replaced value back as a new ordinary edit, which syncs like any other and wins by its clock. */
export async function restoreHistoryEntry(
  ctx: AppContext,
  accountId: string,
  entryId: string,
): Promise<HistoryEntry> {
  const id = Number(entryId.replace(/^chg_/, ''));
  return ctx.db.transaction().execute(async (tx) => {
    const row = Number.isSafeInteger(id)
      ? await tx
          .selectFrom('record_changes')
          .selectAll()
          .where('account_id', '=', accountId)
          .where('id', '=', id)
          .executeTakeFirst()
      : undefined;
    if (!row) throw notFound(`No history entry ${entryId}`);
    if (!row.replaced) throw invalidState('Only a value that a sync replaced can be put back.');
    if (row.restored_at) throw invalidState('This value was already put back.');
    if (NOT_RESTORABLE.has(row.field))
      throw invalidState('A status is not put back: use its own action (send, void, complete…).');
    const table = row.record_type as HistoryRecordType;
    const value = JSON.parse(row.old_value ?? 'null') as string | number | null;
    const exists = await tx
      .selectFrom(table)
      .select('id')
      .where('account_id', '=', accountId)
      .where('id', '=', row.record_id)
      .executeTakeFirst();
    if (!exists) throw notFound(`The ${table.slice(0, -1)} ${row.record_id} is gone.`);
    if (row.field === 'customer_id') {
      const customer = await tx
        .selectFrom('customers')
        .select('id')
        .where('account_id', '=', accountId)
        .where('id', '=', String(value))
        .executeTakeFirst();
      if (!customer) throw conflict('That customer no longer exists.', 'customer_id');
    }
    if (table === 'customers' && row.field === 'email') {
      const holder = await tx
        .selectFrom('customers')
        .select('id')
        .where('account_id', '=', accountId)
        .where('email_lower', '=', String(value).toLowerCase())
        .where('id', '<>', row.record_id)
        .executeTakeFirst();
      if (holder) throw conflict(`A customer with e-mail ${String(value)} already exists`, 'email');
    }
    const now = isoNow(ctx.clock);
    const patch: Record<string, unknown> = { [row.field]: value, updated_at: now };
    if (table === 'customers' && row.field === 'email') patch.email_lower = String(value).toLowerCase();
    await tx
      .updateTable(table)
      .set(patch as never)
      .where('account_id', '=', accountId)
      .where('id', '=', row.record_id)
      .execute();
    await tx.updateTable('record_changes').set({ restored_at: now }).where('id', '=', row.id).execute();
    const named = await nameAuthors(tx, accountId, [row.author]);
    return present({ ...row, restored_at: now }, await ownNode(tx), named(row.author));
  });
}

async function ownNode(db: Queryable): Promise<string> {
  return (await db.selectFrom('sync_node').select('id').executeTakeFirst())?.id ?? '';
}

function present(row: Row, node: string, author: ChangeAuthor): HistoryEntry {
  return {
    id: `chg_${row.id}`,
    object: 'history_entry',
    record: `${row.record_type}/${row.record_id}`,
    field: row.field,
    old_value: JSON.parse(row.old_value ?? 'null'),
    new_value: JSON.parse(row.new_value ?? 'null'),
    author: row.author,
    author_kind: author.kind,
    author_name: author.name,
    device: { node: row.node, this_device: row.node === node, name: row.device_name },
    changed_at: row.changed_at,
    replaced: row.replaced === 1,
    restored_at: row.restored_at,
    restorable: row.replaced === 1 && row.restored_at === null && !NOT_RESTORABLE.has(row.field),
  };
}
