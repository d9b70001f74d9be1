import type SQLite from 'better-sqlite3-multiple-ciphers';
import { taxAmountCents } from '../../../shared/money';
import type { SyncSnapshotResponse } from '../../../shared/schemas/sync';
import { statusAfterPayments } from '../../domain/invoice-status';
import type { Capture } from '../capture';
import type { PulledRow } from '../hub/storage';
import { ALIAS_TABLE, DELETED, type SyncedTable } from '../synced-table';
import { SYNCED_TABLES, syncedTable } from '../tables';
import { applyPulledRows } from './apply';
import { noteForDecisions, type Touched } from './decisions';
import type { LocalState } from './local-state';
import { columnValue, hasColumn, type RowShape, SnapshotInserts } from './snapshot-inserts';
import { restoreAfterLoad, restoreIndexes, setAsideForLoad } from './snapshot-set-aside';
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
/**
 * Pages of SQLite's cache while loading (negative: KiB), against the default 2 MB. Rows go in in
 * key order and are summed in that order, so a small cache serves; SQLite also sizes its sorts'
 * memory by it (the indexes, the derived tables' rebuilds), and at 64 MB the join's peak was
 * ~130 MB higher (BENCHMARKS.md, first sync).
 */
const LOAD_CACHE_SIZE = -16_384;
/** SQLite's helper threads for a sort while loading (none otherwise). */
const SORT_THREADS = 1;
/**
 * Lines before taxes (a tax is a share of the lines), and all three before documents: a
 * document's figures are then summed from its rows already in, over their keys and indexes.
 */
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
  const threads = sqlite.pragma('threads', { simple: true }) as number;
  // A page may hold a job before the customer it names, as in a paged pull.
  sqlite.pragma('foreign_keys = OFF');
  sqlite.pragma(`cache_size = ${LOAD_CACHE_SIZE}`);
  const rollbackJournal = journalForLoad(sqlite);
  // Sorts bigger than the cache (the indexes, the derived tables' rebuilds) sort their parts on a
  // helper thread while this one reads on: the join's other work is single-threaded.
  sqlite.pragma(`threads = ${SORT_THREADS}`);
  sqlite.exec('BEGIN IMMEDIATE');
  let next: Promise<Page> | undefined;
  try {
    const setAside = setAsideForLoad(sqlite);
    let page: Page | undefined = first;
    let tableIndex = 0;
    let rows = 0;
    while (page) {
      const current: Page = page;
      const after: string | null = current.next;
      // The next page of the table is on its way while this one is written. The next table's
      // first is asked for once this table's indexes are sorted: a sort holds the event loop
      // for as long as it takes, and a request waiting meanwhile would run out of time.
      next = after === null ? undefined : fetchPage(transport, { table: ORDER[tableIndex]!, after, upTo });
      // In slices, giving the event loop a turn between them: the next page keeps arriving.
      for (let from = 0; from < current.rows.length; from += APPLY_SLICE) {
        capture.applying(() => loader.apply(current, from, from + APPLY_SLICE));
        await new Promise((resolve) => setImmediate(resolve));
      }
      if (after === null) {
        restoreIndexes(sqlite, setAside, current.table);
        // A turn of the event loop first, so a socket the hub closed meanwhile is seen closed.
        await new Promise((resolve) => setImmediate(resolve));
        if (++tableIndex < ORDER.length) {
          next = fetchPage(transport, { table: ORDER[tableIndex]!, after: '', upTo });
        }
      }
      rows += current.rows.length;
      page = next && (await next);
    }
    restoreAfterLoad(sqlite, setAside, accountId);
    capture.applying(() => loader.finish(upTo, now));
    sqlite.exec('COMMIT');
    return { cursor: upTo, rows };
  } catch (error) {
    if (sqlite.inTransaction) sqlite.exec('ROLLBACK');
    // The page fetched ahead may fail too once nobody waits for it.
    next?.catch(() => {});
    throw error;
  } finally {
    if (rollbackJournal) sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma(`cache_size = ${cacheSize}`);
    sqlite.pragma(`threads = ${threads}`);
  }
}

/**
 * In WAL mode the load writes every page of the business twice: into the WAL as the cache spills
 * and at the commit, then into the file at the checkpoint. A rollback journal writes the file's
 * pages in place and journals only the pages the file held before the load, a few for a folder
 * that holds none of the business: each page is written once, and the load is still all or
 * nothing (an interrupted one is rolled back from the journal when the file is next opened).
 * SQLite leaves WAL mode only for a connection alone on the file: with another open (a server's
 * read worker), the load keeps the WAL.
 */
function journalForLoad(sqlite: SQLite.Database): boolean {
  try {
    return sqlite.pragma('journal_mode = DELETE', { simple: true }) === 'delete';
  } catch (error) {
    if ((error as { code?: string }).code === 'SQLITE_BUSY') return false;
    throw error;
  }
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
  /** Per figure, the statement summing it for each document whose id lies in a range. */
  private readonly sums: Record<keyof Figures, SQLite.Statement>;
  private readonly inserts: SnapshotInserts;
  /** The derived figures of the row going in (one object for every row: no garbage per row). */
  private readonly derived: Record<string, unknown> = {};
  private readonly putClocks: SQLite.Statement;
  private latestClock = '';

  constructor(
    private readonly target: SnapshotTarget,
    private readonly accountId: string,
  ) {
    this.inserts = new SnapshotInserts(target.sqlite, target.local);
    this.putClocks = target.sqlite.prepare(
      'INSERT OR REPLACE INTO sync_clocks (tbl, pk, clocks) VALUES (?, ?, ?)',
    );
    const sum = (table: string, column: string) =>
      target.sqlite
        .prepare(
          `SELECT ${column} AS id, sum(amount_cents) AS cents FROM ${table}
           WHERE ${column} BETWEEN ? AND ? GROUP BY ${column}`,
        )
        .raw();
    this.sums = {
      subtotal: sum('document_lines', 'document_id'),
      taxTotal: sum('document_taxes', 'document_id'),
      paid: sum('payments', 'invoice_id'),
    };
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
    const derived = DERIVED_OF[table.name] ?? [];
    const { inserts } = this;
    const ready: Array<Record<string, unknown>> = [];
    const shapes: RowShape[] = [];
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
      const shape = inserts.shapeOf(table, values, derived);
      if (clocks) {
        const key = table.pk.map((column, i) =>
          hasColumn(shape, column) ? columnValue(shape, values, column) : pk[i],
        );
        this.keepClocks(table, key, values, clocks, this.target.local.columnsOf(table));
      }
      if (values[DELETED] === 1) continue;
      ready.push(values);
      shapes.push(shape);
    }
    const figures = this.figuresOf(table.name, ready, shapes);
    for (let i = 0; i < ready.length; i++) {
      if (figures) this.derive(table.name, ready[i]!, shapes[i]!, figures);
      inserts.add(shapes[i]!, ready[i]!, this.derived);
    }
    // Later tables' figures are summed from these rows.
    inserts.flush();
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
    // Most businesses never merged a record: then no row names one.
    if (this.aliases.size === 0 || !table.refs) return false;
    for (const column in table.refs) {
      const target = table.refs[column]!;
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

  /**
   * The sums a slice's rows are derived from, per document: a tax's from its document's lines, a
   * document's from its lines, taxes and payments, all already in. One query per figure for the
   * whole slice, each document's rows found through their key or index.
   */
  private figuresOf(
    table: string,
    rows: Array<Record<string, unknown>>,
    shapes: RowShape[],
  ): Sums | undefined {
    const wanted = FIGURES_OF[table];
    if (!wanted || rows.length === 0) return undefined;
    const key = table === 'document_taxes' ? 'document_id' : 'id';
    // A slice's documents are neighbours in key order: one range of each table's key or index
    // holds their rows (and those of the few documents of the range the slice left out).
    let first = String(columnValue(shapes[0]!, rows[0]!, key));
    let last = first;
    for (let i = 1; i < rows.length; i++) {
      const id = String(columnValue(shapes[i]!, rows[i]!, key));
      if (id < first) first = id;
      else if (id > last) last = id;
    }
    const figures: Sums = { subtotal: new Map(), taxTotal: new Map(), paid: new Map() };
    for (const figure of wanted) {
      for (const [id, cents] of this.sums[figure].all(first, last) as Array<[string, number]>) {
        figures[figure].set(id, cents);
      }
    }
    return figures;
  }

  /** Figures no device sends (device/derived.ts), from the sums of the row's slice, into `derived`. */
  private derive(table: string, values: Record<string, unknown>, shape: RowShape, figures: Sums): void {
    const derived = this.derived;
    if (table === 'document_taxes') {
      const subtotal = figures.subtotal.get(String(columnValue(shape, values, 'document_id'))) ?? 0;
      derived.amount_cents = taxAmountCents(subtotal, Number(columnValue(shape, values, 'rate')));
      return;
    }
    const id = String(columnValue(shape, values, 'id'));
    const subtotal = figures.subtotal.get(id) ?? 0;
    const taxTotal = figures.taxTotal.get(id) ?? 0;
    const total = subtotal + taxTotal;
    derived.subtotal_cents = subtotal;
    derived.tax_total_cents = taxTotal;
    derived.total_cents = total;
    if (table === 'invoices') {
      const paid = figures.paid.get(id) ?? 0;
      derived.amount_paid_cents = paid;
      derived.status = statusAfterPayments(String(columnValue(shape, values, 'status')), paid, total);
    }
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

/** Per figure, each document's cents (a document without rows of it has none: 0). */
type Sums = Record<keyof Figures, Map<string, number>>;

/** The columns derive() works out per table (each row's own values of them are not used). */
const DERIVED_OF: Partial<Record<string, string[]>> = {
  document_taxes: ['amount_cents'],
  quotes: ['subtotal_cents', 'tax_total_cents', 'total_cents'],
  invoices: ['subtotal_cents', 'tax_total_cents', 'total_cents', 'amount_paid_cents', 'status'],
};

/** The figures a table's rows are derived from; other tables have none. */
const FIGURES_OF: Partial<Record<string, Array<keyof Figures>>> = {
  document_taxes: ['subtotal'],
  quotes: ['subtotal', 'taxTotal'],
  invoices: ['subtotal', 'taxTotal', 'paid'],
};
