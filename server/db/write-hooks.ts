import { AsyncLocalStorage } from 'node:async_hooks';
import { type Kysely, sql, type Transaction } from 'kysely';
import type { Database } from './schema';

/**
 * Work that must share a write's transaction without the domain code knowing of it: an
 * Idempotency-Key request stores its answer in the transaction of the write it answers for
 * (server/http/idempotency.ts), so no crash can leave the write committed and the answer lost.
 */
export interface WriteHook {
  /** Whether the hook still has work: work started from a request can outlive it (a worker's tick). */
  wanted(): boolean;
  /** Inside a transaction that wrote, just before it commits, with what the transaction returns. */
  beforeCommit(tx: Transaction<Database>, result: unknown): Promise<void>;
  /** Right after that transaction committed. */
  afterCommit(): void;
}

const hooks = new AsyncLocalStorage<WriteHook>();

/** Runs `work` (and everything it starts) with `hook` on the transactions that write. */
export function runWithWriteHook<T>(hook: WriteHook, work: () => T): T {
  return hooks.run(hook, work);
}

const totalChanges = async (tx: Transaction<Database>) =>
  (await sql<{ n: number }>`SELECT total_changes() AS n`.execute(tx)).rows[0]!.n;

/** Makes every `db.transaction().execute(…)` run the current write hook, if any. */
export function hookWrites(db: Kysely<Database>): void {
  const transaction = db.transaction.bind(db);
  db.transaction = () => {
    const builder = transaction();
    const execute = builder.execute.bind(builder);
    builder.execute = async <T>(callback: (tx: Transaction<Database>) => Promise<T>): Promise<T> => {
      const hook = hooks.getStore();
      if (!hook?.wanted()) return execute(callback);
      let wrote = false;
      const result = await execute(async (tx) => {
        const before = await totalChanges(tx);
        const value = await callback(tx);
        wrote = (await totalChanges(tx)) !== before;
        if (wrote) await hook.beforeCommit(tx, value);
        return value;
      });
      if (wrote) hook.afterCommit();
      return result;
    };
    return builder;
  };
}
