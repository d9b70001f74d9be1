import { formatHlc } from '../sync/hlc';
import type { HubStorage } from '../sync/hub/storage';
import type { ClientHubRows } from './rows';

/** The node id a hub-originated change's clocks carry. */
const HUB_NODE = 'hub';

/**
 * The client hub's rows on a hosted hub: the business's synced rows as the hub holds them, while
 * every owner device may be off. A written row goes into the business's log as a hub-originated
 * change (HubStorage.writeRow), which devices pull and apply.
 */
export function hubRows(storage: HubStorage, now: () => number): ClientHubRows {
  return {
    readRow: async (accountId, table, id) => {
      const found = accountId
        ? (await storage.readRows(accountId, table, 'id', [id])).map((row) => ({
            account_id: accountId,
            v: row,
          }))[0]
        : await storage.readRow(table, JSON.stringify([id]));
      // The row's business is the one that holds it on the hub, never what the row says.
      if (!found) return undefined;
      const row = 'account_id' in found.v ? { ...found.v, account_id: found.account_id } : found.v;
      return { accountId: found.account_id, row };
    },
    readRows: (accountId, table, where) => storage.readRows(accountId, table, where.column, where.values),
    writeRow: async (accountId, table, row) => {
      const clock = formatHlc({ ms: now(), counter: 0 }, HUB_NODE);
      const v: Record<string, unknown> = { ...row, _deleted: 0 };
      const c = Object.fromEntries(Object.keys(v).map((column) => [column, clock]));
      await storage.writeRow(accountId, table, JSON.stringify([row.id]), { v, c });
    },
  };
}
