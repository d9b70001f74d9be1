import { randomUUID } from 'node:crypto';
import type { Hub } from '../../server/sync/hub/service';
import type { HubDevice, PulledRow, PushedChange } from '../../server/sync/hub/storage';

/** What the hub tests build their cases from: stamped rows, a business with devices, a full pull. */

export const clockAt = (n: number) =>
  `${String(1_800_000_000_000 + n).padStart(15, '0')}.${'0'.repeat(10)}.node`;

export function member(accountId: string, id: string, name: string, n: number): PushedChange['state'] {
  const values = { id, account_id: accountId, name, created_at: '2026-11-22T09:00:00Z', _deleted: 0 };
  return { v: values, c: Object.fromEntries(Object.keys(values).map((k) => [k, clockAt(n)])) };
}

export function customer(accountId: string, id: string, email: string, n: number): PushedChange['state'] {
  const values = {
    id,
    account_id: accountId,
    name: `Customer ${id}`,
    email,
    email_lower: email.toLowerCase(),
    created_at: '2026-11-22T09:00:00Z',
    _deleted: 0,
  };
  return { v: values, c: Object.fromEntries(Object.keys(values).map((k) => [k, clockAt(n)])) };
}

let tick = 0;
/** A clock later than every one before it (and than every clockAt), in the hub's clock format. */
const later = () => `${String(1_900_000_000_000 + ++tick).padStart(15, '0')}.${'0'.repeat(10)}.probe`;

/** A row's values, each column stamped with a clock of its own. */
export const stamped = (v: Record<string, unknown>) => ({
  v,
  c: Object.fromEntries(Object.keys(v).map((column) => [column, later()])),
});

/** A business with its hub device and `devices` joined devices. */
export async function business(hub: Hub, devices: number) {
  const accountId = `acct_${randomUUID()}`;
  const own = await hub.adopt(accountId, 'Hub');
  const joined: HubDevice[] = [];
  for (let i = 0; i < devices; i++) {
    const pairing = await hub.createPairing(accountId, 'http://hub.invalid');
    joined.push((await hub.join(pairing.pairing_code, `Device ${i}`)).device);
  }
  return { accountId, own, devices: joined };
}

export async function pullAll(hub: Hub, accountId: string, limit = 1000): Promise<PulledRow[]> {
  const rows: PulledRow[] = [];
  let cursor = 0;
  for (;;) {
    const page = await hub.pull(accountId, cursor, limit);
    rows.push(...page.rows);
    cursor = page.cursor;
    if (!page.has_more) return rows;
  }
}
