import type { StoredConfig } from '../../shared/schemas/config';
import type { ClientActionsTable, ClientLinksTable } from '../db/schema';
import { readStoredConfig } from '../domain/accounts';
import { formatHlc } from '../sync/hlc';
import type { HubStorage } from '../sync/hub/storage';
import type { BusinessView, ClientHubData, QuoteView } from './data';

/** The node id a hub-originated change's clocks carry. */
const HUB_NODE = 'hub';

/**
 * The client hub's data on a hosted hub: the business's synced rows as the hub holds them, while
 * every owner device may be off. An action is written into the business's log as a hub-originated
 * change (HubStorage.writeRow), which devices pull and apply.
 */
export function hubClientData(storage: HubStorage, now: () => number): ClientHubData {
  return {
    link: async (linkId) => {
      const row = await storage.readRow('client_links', JSON.stringify([linkId]));
      // The row's account is the business that holds it on the hub, never what the row says.
      return row && ({ ...row.v, account_id: row.account_id } as unknown as ClientLinksTable);
    },
    business: async (accountId) => {
      const [account] = await storage.readRows(accountId, 'accounts', 'id', [accountId]);
      if (!account) return undefined;
      return businessView(readStoredConfig(String(account.config)));
    },
    customer: async (accountId, customerId) => {
      const [row] = await storage.readRows(accountId, 'customers', 'id', [customerId]);
      return row && row.deleted_at == null ? { id: String(row.id), name: String(row.name) } : undefined;
    },
    quotes: async (accountId, customerId) => {
      const rows = (await storage.readRows(accountId, 'quotes', 'customer_id', [customerId])).filter(
        (q) => q.status !== 'draft',
      );
      const ids = rows.map((q) => String(q.id));
      const [lines, taxes] = await Promise.all([
        storage.readRows(accountId, 'document_lines', 'document_id', ids),
        storage.readRows(accountId, 'document_taxes', 'document_id', ids),
      ]);
      return rows
        .map(
          (q): QuoteView => ({
            id: String(q.id),
            number: String(q.number),
            status: q.status as QuoteView['status'],
            issue_date: String(q.issue_date),
            valid_until: String(q.valid_until),
            currency: String(q.currency),
            notes: (q.notes as string | null) ?? null,
            lines: byPosition(lines, q.id).map((l) => ({
              description: String(l.description),
              quantity: Number(l.quantity),
              unit_price: Number(l.unit_price),
            })),
            taxes: byPosition(taxes, q.id).map((t) => ({ name: String(t.name), rate: Number(t.rate) })),
          }),
        )
        .sort((a, b) => (a.id < b.id ? 1 : -1));
    },
    actions: async (accountId, customerId) =>
      (
        (await storage.readRows(accountId, 'client_actions', 'customer_id', [
          customerId,
        ])) as unknown as ClientActionsTable[]
      ).sort((a, b) => (a.id < b.id ? 1 : -1)),
    record: async (action) => {
      const clock = formatHlc({ ms: now(), counter: 0 }, HUB_NODE);
      const v: Record<string, unknown> = { ...action, _deleted: 0 };
      const c = Object.fromEntries(Object.keys(v).map((column) => [column, clock]));
      await storage.writeRow(action.account_id, 'client_actions', JSON.stringify([action.id]), { v, c });
    },
  };
}

function byPosition(rows: Array<Record<string, unknown>>, documentId: unknown) {
  return rows
    .filter((r) => r.document_id === documentId)
    .sort((a, b) => Number(a.position) - Number(b.position));
}

export function businessView(config: StoredConfig): BusinessView {
  return {
    name: config.business_name,
    email: config.business_email,
    phone: config.business_phone,
    address: config.business_address,
    currency: config.currency,
    locale: config.locale,
    timezone: config.timezone,
  };
}
