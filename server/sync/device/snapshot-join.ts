import type SQLite from 'better-sqlite3-multiple-ciphers';
import { taxAmountCents } from '../../../shared/money';
import type { SyncSnapshotResponse } from '../../../shared/schemas/sync';
import { CUSTOMER_FIGURES_TRIGGERS, rebuildCustomerFigures } from '../../db/customer-figures';
import { PAYMENT_TAX_SHARES_TRIGGERS, rebuildPaymentTaxShares } from '../../db/payment-tax-shares';
import { statusAfterPayments } from '../../domain/invoice-status';
import type { Capture } from '../capture';
import type { PulledRow } from '../hub/storage';
import { ALIAS_TABLE, DELETED, type SyncedTable } from '../synced-table';
import { SYNCED_TABLES, syncedTable } from '../tables';
import { applyPulledRows, sqlValue } from './apply';
import { noteForDecisions, type Touched } from './decisions';
import type { LocalState } from './local-state';
import { type HubTransport, SyncError } from './transport';

/**
 * A device's first sync from the hub's snapshot (docs/sync.md, "First sync"): the business as it
 * stood at one sequence number, read a table at a time while the previous page is written, in one
 * transaction (a half-loaded business never shows; an interrupted one starts again). The result is
 * what a paged pull from 0 leaves: the same rows, clocks, aliases, derived figures and conflicts.
 * Then the ordinary pull goes on from that number.
 */

const PAGE_ROWS = 5000;
const APPLY_SLICE = 500;
/** Pages of SQLite's cache while loading (negative: KiB), against the default 2 MB. */
const LOAD_CACHE_SIZE = -65_536;
/** Lines before taxes (a tax is a share of the lines), and both with payments before documents. */
const FIRST = ['document_lines', 'document_taxes', 'payments'];
const ORDER = [ALIAS_TABLE, ...FIRST, ...SYNCED_TABLES.map((t) => t.name).filter((n) => !FIRST.includes(n))];

type Page = SyncSnapshotResponse;

export interface SnapshotTarget {
  sqlite: SQLite.Database;
  capture: Capture;
  local: LocalState;
}

/**
 * Loads the business from the hub's snapshot into a folder that holds none of it. Returns the
 * cursor to pull on from and the rows read; undefined when the folder has rows of the business
 * already or the hub serves no snapshot (an older hub), and the paged pull does it all. Call while
 * holding the database (`exclusive`), outside a transaction.
 */
export async function loadSnapshot(
  target: SnapshotTarget,
  transport: HubTransport,
  accountId: string,
  now: string,
): Promise<{ cursor: number; rows: number } | undefined> {
  const { sqlite, capture } = target;
  if (sqlite.prepare('SELECT 1 FROM accounts WHERE id = ?').get(accountId)) return undefined;
  const first = await fetchPage(transport, { table: ORDER[0]!, after: '' }).catch((error: unknown) => {
    if (error instanceof SyncError && error.hubStatus === 404) return undefined;
    throw error;
  });
  if (!first) return undefined;
  const upTo = first.up_to;
  const loader = new SnapshotLoader(target, accountId);
  const cacheSize = sqlite.pragma('cache_size', { simple: true }) as number;
  // A page may hold a job before the customer it names, as in a paged pull.
  sqlite.pragma('foreign_keys = OFF');
  sqlite.pragma(`cache_size = ${LOAD_CACHE_SIZE}`);
  sqlite.exec('BEGIN IMMEDIATE');
  let next: Promise<Page> | undefined;
  try {
    const deferred = dropForLoad(sqlite);
    let page: Page | undefined = first;
    let tableIndex = 0;
    let rows = 0;
    while (page) {
      // The next page is on its way while this one is written.
      const after = page.next;
      if (after !== null) {
        next = fetchPage(transport, { table: ORDER[tableIndex]!, after, upTo });
      } else if (++tableIndex < ORDER.length) {
        next = fetchPage(transport, { table: ORDER[tableIndex]!, after: '', upTo });
      } else {
        next = undefined;
      }
      const current = page;
      // In slices, giving the event loop a turn between them: the next page keeps arriving.
      for (let from = 0; from < current.rows.length; from += APPLY_SLICE) {
        capture.applying(() => loader.apply(current, from, from + APPLY_SLICE));
        await new Promise((resolve) => setImmediate(resolve));
      }
      rows += current.rows.length;
      page = next && (await next);
    }
    for (const index of deferred) sqlite.exec(index);
    rebuildCustomerFigures(sqlite, accountId);
    rebuildPaymentTaxShares(sqlite, accountId);
    capture.applying(() => loader.finish(upTo, now));
    sqlite.exec('COMMIT');
    return { cursor: upTo, rows };
  } catch (error) {
    if (sqlite.inTransaction) sqlite.exec('ROLLBACK');
    // The page fetched ahead may fail too once nobody waits for it.
    next?.catch(() => {});
    throw error;
  } finally {
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma(`cache_size = ${cacheSize}`);
  }
}

/**
 * Drops what the load does without, returning what recreates it: the business tables' indexes
 * that no constraint needs (one sort per index at the end costs a fraction of keeping eleven
 * B-trees of invoices in order a row at a time), the capture triggers (off while applying
 * anyway; asking them costs a call per row), the customer figures' and the payments' tax shares'
 * triggers (rebuilt for the whole business at the end, db/customer-figures.ts and
 * db/payment-tax-shares.ts). Inside the load's transaction, so a failed load
 * leaves them as they were.
 */
function dropForLoad(sqlite: SQLite.Database): string[] {
  const tables = SYNCED_TABLES.map((t) => t.name);
  const objects = sqlite
    .prepare(
      `SELECT type, name, sql FROM sqlite_master WHERE tbl_name IN (${tables.map(() => '?').join(', ')})
       AND ((type = 'index' AND sql IS NOT NULL AND sql NOT LIKE 'CREATE UNIQUE%')
         OR (type = 'trigger' AND (substr(name, 1, 13) = 'sync_capture_' OR substr(name, 1, ?) = ?
           OR substr(name, 1, ?) = ?)))`,
    )
    .all(
      ...tables,
      CUSTOMER_FIGURES_TRIGGERS.length,
      CUSTOMER_FIGURES_TRIGGERS,
      PAYMENT_TAX_SHARES_TRIGGERS.length,
      PAYMENT_TAX_SHARES_TRIGGERS,
    ) as Array<{
    type: 'index' | 'trigger';
    name: string;
    sql: string;
  }>;
  for (const object of objects) sqlite.exec(`DROP ${object.type.toUpperCase()} ${object.name}`);
  return objects.map((object) => object.sql);
}

function fetchPage(
  transport: HubTransport,
  query: { table: string; after: string; upTo?: number },
): Promise<Page> {
  return transport.snapshot({ ...query, limit: PAGE_ROWS });
}

/** Writes snapshot pages: each row once, with its derived figures worked out as it goes in. */
class SnapshotLoader {
  /** Merged-away records per table: from id, to the record they merged into. */
  private readonly aliases = new Map<string, Map<string, string>>();
  /** Rows that name a merged-away record: the ordinary applier takes them at the end. */
  private readonly named: PulledRow[] = [];
  /** Per document, from the rows already in; lines and taxes arrive in document order. */
  private readonly figures = new Map<string, Figures>();
  private lastFigures: { id: string; figures: Figures } | undefined;
  private readonly inserts = new Map<string, SQLite.Statement>();
  private readonly lastInsert = new Map<string, { names: string[]; statement: SQLite.Statement }>();
  private readonly putClocks: SQLite.Statement;
  private latestClock = '';

  constructor(
    private readonly target: SnapshotTarget,
    private readonly accountId: string,
  ) {
    this.putClocks = target.sqlite.prepare(
      'INSERT OR REPLACE INTO sync_clocks (tbl, pk, clocks) VALUES (?, ?, ?)',
    );
  }

  apply(page: Page, from: number, to: number): void {
    const rows = page.rows.slice(from, to);
    if (page.table === ALIAS_TABLE) {
      for (const [pk, values] of rows) {
        const [tbl, from] = pk as [string, string];
        if (!syncedTable(tbl)) continue;
        const map = this.aliases.get(tbl) ?? new Map<string, string>();
        this.aliases.set(tbl, map);
        map.set(from, String(values.to_id));
      }
      return;
    }
    const table = syncedTable(page.table);
    if (!table) return;
    const { local } = this.target;
    const columns = local.columnsOf(table);
    const defaults = local.requiredDefaultsOf(table);
    for (const [pk, values, clocks] of rows) {
      // A merged-away record's own row is history: the hub has merged its changes into the survivor.
      if (table.naturalKey && this.aliasOf(table.name, pk[0])) continue;
      if (this.namesMergedRecord(table, pk, values)) {
        this.named.push({
          seq: 0,
          table: table.name,
          pk: JSON.stringify(pk),
          state: { v: values, c: clocks || {} },
        });
        continue;
      }
      const row: Record<string, unknown> = { ...defaults };
      for (const column in values) if (columns.has(column)) row[column] = values[column];
      if (clocks) {
        const key = table.pk.map((column, i) => (column in row ? row[column] : pk[i]));
        this.keepClocks(table, key, values, clocks, columns);
      }
      if (values[DELETED] === 1) continue;
      this.derive(table.name, row);
      this.insert(table.name, row);
    }
  }

  /** After the last page: merges, the rows that named merged records, conflicts, events, the cursor. */
  finish(upTo: number, now: string): void {
    const { sqlite, local, capture } = this.target;
    const alias = sqlite.prepare(
      'INSERT OR REPLACE INTO sync_aliases (tbl, from_id, to_id) VALUES (?, ?, ?)',
    );
    for (const [tbl, map] of this.aliases) {
      for (const from of map.keys()) alias.run(tbl, from, this.aliasOf(tbl, from));
    }
    if (this.named.length > 0) applyPulledRows(local, capture, this.accountId, this.named, now);
    noteForDecisions(local, this.accountId, this.decisionCandidates());
    sqlite
      .prepare(
        'INSERT OR IGNORE INTO sync_event_fanout (event_id) SELECT id FROM events WHERE account_id = ?',
      )
      .run(this.accountId);
    capture.hlc.observe(this.latestClock);
    sqlite.prepare('UPDATE sync_settings SET cursor = ? WHERE account_id = ?').run(upTo, this.accountId);
  }

  /** The record a merged-away one ends in (merges chain: a survivor may merge later itself). */
  private aliasOf(tbl: string, id: unknown): string | undefined {
    const map = this.aliases.get(tbl);
    let to = map?.get(String(id));
    for (let hops = 0; to !== undefined && hops < 64; hops++) {
      const further = map!.get(to);
      if (further === undefined) break;
      to = further;
    }
    return to;
  }

  private namesMergedRecord(table: SyncedTable, pk: unknown[], values: Record<string, unknown>): boolean {
    for (const [column, target] of Object.entries(table.refs ?? {})) {
      const i = table.pk.indexOf(column);
      const id = column in values ? values[column] : i >= 0 ? pk[i] : undefined;
      if (id !== undefined && id !== null && this.aliasOf(target, id)) return true;
    }
    return false;
  }

  /** The clocks a paged pull would store: those of the columns this device has, empty ones left out. */
  private keepClocks(
    table: SyncedTable,
    key: unknown[],
    values: Record<string, unknown>,
    clocks: Record<string, string>,
    columns: Set<string>,
  ): void {
    const kept: Record<string, string> = {};
    let any = false;
    for (const column in values) {
      if (column !== DELETED && !columns.has(column)) continue;
      const clock = clocks[column];
      if (!clock) continue;
      kept[column] = clock;
      any = true;
      if (clock > this.latestClock) this.latestClock = clock;
    }
    if (any) this.putClocks.run(table.name, JSON.stringify(key), JSON.stringify(kept));
  }

  /** Figures no device sends (device/derived.ts), from the rows already in: lines, taxes, payments. */
  private derive(table: string, row: Record<string, unknown>): void {
    switch (table) {
      case 'document_lines':
        this.figuresOf(row.document_id).subtotal += Number(row.amount_cents);
        break;
      case 'document_taxes': {
        const figures = this.figuresOf(row.document_id);
        const amount = taxAmountCents(figures.subtotal, Number(row.rate));
        row.amount_cents = amount;
        figures.taxTotal += amount;
        break;
      }
      case 'payments':
        this.figuresOf(row.invoice_id).paid += Number(row.amount_cents);
        break;
      case 'quotes':
      case 'invoices': {
        const id = String(row.id);
        const { subtotal, taxTotal, paid } = this.figures.get(id) ?? NO_FIGURES;
        this.figures.delete(id);
        const total = subtotal + taxTotal;
        row.subtotal_cents = subtotal;
        row.tax_total_cents = taxTotal;
        row.total_cents = total;
        if (table === 'invoices') {
          row.amount_paid_cents = paid;
          row.status = statusAfterPayments(String(row.status), paid, total);
        }
        break;
      }
    }
  }

  /** Rows of a table nearly always carry the same columns: the last statement is tried first. */
  private figuresOf(documentId: unknown): Figures {
    const id = String(documentId);
    if (this.lastFigures?.id === id) return this.lastFigures.figures;
    let figures = this.figures.get(id);
    if (!figures) {
      figures = { subtotal: 0, taxTotal: 0, paid: 0 };
      this.figures.set(id, figures);
    }
    this.lastFigures = { id, figures };
    return figures;
  }

  private insert(table: string, row: Record<string, unknown>): void {
    const names = Object.keys(row);
    let last = this.lastInsert.get(table);
    if (!last || !sameNames(last.names, names)) {
      const signature = `${table}(${names.join(',')})`;
      let statement = this.inserts.get(signature);
      if (!statement) {
        statement = this.target.sqlite.prepare(
          `INSERT INTO ${table} (${names.join(', ')}) VALUES (${names.map(() => '?').join(', ')})`,
        );
        this.inserts.set(signature, statement);
      }
      last = { names, statement };
      this.lastInsert.set(table, last);
    }
    const values = new Array<unknown>(names.length);
    for (let i = 0; i < names.length; i++) values[i] = sqlValue(row[names[i]!]);
    last.statement.run(values);
  }

  /** Records the rules may flag for the owner (device/decisions.ts): few, so checked one by one. */
  private decisionCandidates(): Touched {
    const { sqlite } = this.target;
    const ids = (text: string) =>
      new Set(
        (sqlite.prepare(text).all({ account: this.accountId }) as Array<{ id: string }>).map((r) => r.id),
      );
    const customerGone = (t: string) =>
      `NOT EXISTS (SELECT 1 FROM customers c WHERE c.id = ${t}.customer_id)`;
    return {
      documents: ids(
        `SELECT id FROM invoices WHERE account_id = :account AND (amount_paid_cents > total_cents
           OR (amount_paid_cents > 0 AND voided_at IS NOT NULL) OR ${customerGone('invoices')})
         UNION SELECT id FROM quotes WHERE account_id = :account AND ${customerGone('quotes')}
         UNION SELECT invoice_id AS id FROM payments p WHERE account_id = :account
           AND NOT EXISTS (SELECT 1 FROM invoices i WHERE i.id = p.invoice_id)`,
      ),
      jobs: ids(
        `SELECT id FROM jobs WHERE account_id = :account
           AND ((status = 'completed' AND cancelled_at IS NOT NULL) OR ${customerGone('jobs')})`,
      ),
      placeOwners: ids(
        `SELECT customer_id AS id FROM properties WHERE account_id = :account
         GROUP BY customer_id HAVING sum(status = 'active' AND is_default = 1) <> 1
           OR sum(status = 'archived' AND is_default = 1) > 0`,
      ),
      quotes: ids(
        'SELECT id FROM quotes WHERE account_id = :account AND accepted_at IS NOT NULL AND declined_at IS NOT NULL',
      ),
      deletedCustomers: new Set(),
    };
  }
}

interface Figures {
  subtotal: number;
  taxTotal: number;
  paid: number;
}

const NO_FIGURES: Figures = { subtotal: 0, taxTotal: 0, paid: 0 };

function sameNames(a: string[], b: string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
