import { Readable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import SQLite from 'better-sqlite3-multiple-ciphers';
import { sql } from 'kysely';
import type { ExportFormat } from '../../shared/schemas/export';
import type { AppContext } from '../context';
import { type Account, presentConfig, readStoredConfig } from '../domain/accounts';
import { isoNow } from '../lib/clock';
import { csvRow } from '../lib/csv';
import { notFound } from '../lib/errors';

/**
 * The whole account, streamed: rows are read from a separate read-only connection inside one read
 * transaction (a consistent snapshot that neither blocks nor waits for the server's writes) and
 * written out as they are read, so memory stays flat however large the account is.
 */

type Row = Record<string, unknown>;

/** Output is handed to the socket in pieces of about this many characters. */
const CHUNK_CHARS = 64 * 1024;

const lines = (alias: string) => `(select json_group_array(json(x)) from (
    select json_object('description', description, 'quantity', cast(quantity as real),
      'unit_price', cast(unit_price as real), 'amount', amount_cents / 100.0) as x
    from document_lines where document_id = ${alias}.id order by position)) as items`;
const taxes = (alias: string) => `(select json_group_array(json(x)) from (
    select json_object('name', name, 'rate', cast(rate as real), 'amount', amount_cents / 100.0) as x
    from document_taxes where document_id = ${alias}.id order by position)) as taxes`;

interface Source {
  name: string;
  /** Selects the account's rows, newest last; the only parameter is the account id. */
  query: string;
  /** Columns holding JSON text, parsed into the JSON export. */
  json?: string[];
}

/** The JSON export: one key per resource, children (tags, notes, lines, taxes, assignees) nested. */
const JSON_SOURCES: Source[] = [
  {
    name: 'customers',
    query: `select c.id, c.name, c.email, c.phone, c.address, c.created_at, c.updated_at,
      (select json_group_array(tag) from (select tag from customer_tags where customer_id = c.id order by tag)) as tags,
      (select json_group_array(json_object('id', id, 'text', text, 'created_at', created_at))
         from (select * from customer_notes where customer_id = c.id order by id)) as notes
      from customers c where c.account_id = ? order by c.id`,
    json: ['tags', 'notes'],
  },
  {
    name: 'team_members',
    query: 'select id, name, created_at, deactivated_at from team_members where account_id = ? order by id',
  },
  {
    name: 'jobs',
    query: `select j.*, (select json_group_array(name) from (select m.name from job_assignees a
        join team_members m on m.id = a.member_id where a.job_id = j.id order by m.name)) as assignees
      from jobs j where j.account_id = ? order by j.id`,
    json: ['assignees'],
  },
  { name: 'bookings', query: 'select * from bookings where account_id = ? order by id' },
  {
    name: 'quotes',
    query: `select q.*, ${lines('q')}, ${taxes('q')} from quotes q where q.account_id = ? order by q.id`,
    json: ['items', 'taxes'],
  },
  {
    name: 'invoices',
    query: `select i.*, ${lines('i')}, ${taxes('i')} from invoices i where i.account_id = ? order by i.id`,
    json: ['items', 'taxes'],
  },
  { name: 'payments', query: 'select * from payments where account_id = ? order by id' },
  { name: 'reviews', query: 'select * from reviews where account_id = ? order by id' },
  { name: 'mail_messages', query: 'select * from mail_messages where account_id = ? order by id' },
  {
    name: 'events',
    query: 'select id, type, created_at, payload from events where account_id = ? order by id',
    json: ['payload'],
  },
  {
    name: 'service_plans',
    query: 'select * from service_plans where account_id = ? order by id',
    json: ['assignees', 'weekdays', 'holidays'],
  },
  // Customers' places, access notes included: the export is the owner's, not the customer's.
  { name: 'properties', query: 'select * from properties where account_id = ? order by id' },
];

const documentIds = `with account(id) as (select ?)
  select i.id from invoices i, account where i.account_id = account.id
  union all select q.id from quotes q, account where q.account_id = account.id`;

/** The CSV export: one flat file per table; children get files of their own, keyed by parent id. */
const CSV_SOURCES: Source[] = [
  {
    name: 'customers',
    query: `select c.id, c.name, c.email, c.phone, c.address, c.created_at, c.updated_at,
      (select group_concat(tag, ';') from (select tag from customer_tags where customer_id = c.id order by tag)) as tags
      from customers c where c.account_id = ? order by c.id`,
  },
  {
    name: 'customer_notes',
    query: `select n.id, n.customer_id, n.text, n.created_at from customer_notes n
      join customers c on c.id = n.customer_id where c.account_id = ? order by n.id`,
  },
  JSON_SOURCES[1]!,
  {
    name: 'jobs',
    query: `select j.*, (select group_concat(name, ';') from (select m.name from job_assignees a
        join team_members m on m.id = a.member_id where a.job_id = j.id order by m.name)) as assignees
      from jobs j where j.account_id = ? order by j.id`,
  },
  JSON_SOURCES[3]!,
  { name: 'quotes', query: 'select * from quotes where account_id = ? order by id' },
  { name: 'invoices', query: 'select * from invoices where account_id = ? order by id' },
  {
    name: 'document_lines',
    query: `select l.document_id, l.position, l.description, l.quantity, l.unit_price, l.amount_cents
      from document_lines l where l.document_id in (${documentIds})
      order by l.document_id, l.position`,
  },
  {
    name: 'document_taxes',
    query: `select t.document_id, t.position, t.name, t.rate, t.amount_cents
      from document_taxes t where t.document_id in (${documentIds})
      order by t.document_id, t.position`,
  },
  JSON_SOURCES[6]!,
  JSON_SOURCES[7]!,
  JSON_SOURCES[8]!,
  { name: 'events', query: JSON_SOURCES[9]!.query },
  { name: 'service_plans', query: JSON_SOURCES[10]!.query },
  JSON_SOURCES[11]!,
];

/** Column names as the API spells them: money columns lose their _cents suffix. */
function fieldName(column: string): string {
  return column.endsWith('_cents') ? column.slice(0, -'_cents'.length) : column;
}

/** Money in major units, as everywhere in the API; JSON columns parsed. */
function present(row: Row, jsonColumns: string[] = []): Row {
  const out: Row = {};
  for (const [column, value] of Object.entries(row)) {
    if (column.endsWith('_cents') && typeof value === 'number') out[fieldName(column)] = value / 100;
    else if (jsonColumns.includes(column) && typeof value === 'string') out[column] = JSON.parse(value);
    else out[column] = value;
  }
  return out;
}

/** A read-only connection holding one read transaction; close() ends any iteration still open. */
class Snapshot {
  private readonly open = new Set<IterableIterator<unknown>>();

  constructor(private readonly conn: SQLite.Database) {
    conn.pragma('busy_timeout = 5000');
    conn.exec('BEGIN');
  }

  get(query: string, accountId: string): Row | undefined {
    return this.conn.prepare(query).get(accountId) as Row | undefined;
  }

  columns(query: string): string[] {
    return this.conn
      .prepare(query)
      .columns()
      .map((c) => c.name);
  }

  /** Rows one at a time, giving the event loop a turn every chunk so other requests keep flowing. */
  async *rows(query: string, accountId: string): AsyncGenerator<Row> {
    const iterator = this.conn.prepare(query).iterate(accountId) as IterableIterator<Row>;
    this.open.add(iterator);
    try {
      let count = 0;
      for (const row of iterator) {
        yield row;
        if (++count % 1000 === 0) await nextTurn();
      }
    } finally {
      this.open.delete(iterator);
      iterator.return?.();
    }
  }

  close(): void {
    if (!this.conn.open) return;
    for (const iterator of this.open) iterator.return?.();
    this.open.clear();
    this.conn.exec('COMMIT');
    this.conn.close();
  }
}

async function openSnapshot(ctx: AppContext): Promise<Snapshot> {
  const { rows } = await sql<{
    file: string;
  }>`select file from pragma_database_list where name = 'main'`.execute(ctx.db);
  const file = rows[0]?.file;
  if (!file) throw new Error('The database has no file to export from');
  return new Snapshot(new SQLite(file, { readonly: true, fileMustExist: true }));
}

function accountConfig(snapshot: Snapshot, accountId: string) {
  const row = snapshot.get(
    'select id, plan, api_plan, config, created_at from accounts where id = ?',
    accountId,
  );
  if (!row) throw notFound(`No account ${accountId}`);
  return presentConfig({
    id: accountId,
    plan: row.plan as Account['plan'],
    api_plan: row.api_plan as Account['api_plan'],
    config: readStoredConfig(String(row.config)),
    created_at: String(row.created_at),
  });
}

/** Joins small strings into chunks so the socket gets fewer, larger writes. */
async function* chunked(parts: AsyncIterable<string>): AsyncGenerator<string> {
  let buffer = '';
  for await (const part of parts) {
    buffer += part;
    if (buffer.length >= CHUNK_CHARS) {
      yield buffer;
      buffer = '';
    }
  }
  if (buffer) yield buffer;
}

async function* jsonParts(snapshot: Snapshot, accountId: string, exportedAt: string): AsyncGenerator<string> {
  const config = accountConfig(snapshot, accountId);
  yield `{"object":"export","format_version":1,"exported_at":${JSON.stringify(exportedAt)},"account":${JSON.stringify(config)}`;
  for (const source of JSON_SOURCES) {
    yield `,${JSON.stringify(source.name)}:[`;
    let first = true;
    for await (const row of snapshot.rows(source.query, accountId)) {
      yield (first ? '' : ',') + JSON.stringify(present(row, source.json));
      first = false;
    }
    yield ']';
  }
  yield '}\n';
}

async function* csvParts(snapshot: Snapshot, source: Source, accountId: string): AsyncGenerator<string> {
  yield csvRow(snapshot.columns(source.query).map(fieldName));
  for await (const row of snapshot.rows(source.query, accountId)) yield csvRow(Object.values(present(row)));
}

export interface ExportStream {
  stream: Readable;
  contentType: string;
  filename: string;
}

/** The account as one JSON document or a zip of CSV files, streamed; the snapshot closes when the stream ends or is abandoned. */
export async function exportAccount(
  ctx: AppContext,
  accountId: string,
  format: ExportFormat,
  date: string,
): Promise<ExportStream> {
  const snapshot = await openSnapshot(ctx);
  try {
    const base = `shopdesk-export-${date}`;
    if (format === 'json') {
      const stream = Readable.from(chunked(jsonParts(snapshot, accountId, isoNow(ctx.clock))), {
        objectMode: false,
      });
      stream.once('close', () => snapshot.close());
      return { stream, contentType: 'application/json; charset=utf-8', filename: `${base}.json` };
    }
    const config = accountConfig(snapshot, accountId);
    // Loaded on the first zip export: archiver brings zlib and a stream library that no start needs.
    const { ZipArchive } = await import('archiver');
    const archive = new ZipArchive({ zlib: { level: 6 } });
    const entries: Readable[] = [];
    archive.append(
      csvRow(['field', 'value']) +
        Object.entries(config)
          .map(([field, value]) =>
            csvRow([field, typeof value === 'object' && value !== null ? JSON.stringify(value) : value]),
          )
          .join(''),
      { name: 'account.csv' },
    );
    for (const source of CSV_SOURCES) {
      const entry = Readable.from(chunked(csvParts(snapshot, source, accountId)), { objectMode: false });
      entries.push(entry);
      archive.append(entry, { name: `${source.name}.csv` });
    }
    const finish = () => {
      for (const entry of entries) entry.destroy();
      snapshot.close();
    };
    archive.once('end', finish);
    archive.once('error', finish);
    archive.once('close', finish);
    void archive.finalize().catch(finish);
    return { stream: archive, contentType: 'application/zip', filename: `${base}.zip` };
  } catch (error) {
    snapshot.close();
    throw error;
  }
}
