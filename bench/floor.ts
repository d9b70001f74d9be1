import path from 'node:path';
import SQLite from 'better-sqlite3-multiple-ciphers';
import Fastify, { type FastifyInstance } from 'fastify';
import { Kysely, SqliteDialect } from 'kysely';
import type { Database } from '../server/db/schema';
import { selectCustomers } from '../server/domain/customer-list';
import { newId } from '../server/lib/ids';

/**
 * The floor the real routes are compared with: a bare Fastify instance with its own connection,
 * running the statements the real route's domain code runs, prepared once, with no auth, rate
 * limit, validation, zod serialisation or error envelope. What the real route costs above this is
 * the price of the framework layers.
 */
/**
 * The real list routes' customer page query (portal customers, v1 clients), compiled by the same
 * code, so a floor runs exactly the SQL the route runs. Parameters: account id, [cursor id,] limit.
 */
export function customerPageStatements(db: SQLite.Database) {
  const compiler = new Kysely<Database>({ dialect: new SqliteDialect({ database: db }) });
  const compile = (before: boolean) => {
    let q = selectCustomers(compiler).where('c.account_id', '=', 'account');
    if (before) q = q.where('c.id', '<', 'cursor');
    return db.prepare(q.orderBy('c.id', 'desc').limit(1).compile().sql);
  };
  return { first: compile(false), before: compile(true) };
}

export async function startBareFloor(
  dataDir: string,
  accountId: string,
): Promise<{ url: string; close(): Promise<void> }> {
  const db = new SQLite(path.join(dataDir, 'shopdesk.sqlite'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  // Change capture's and history's triggers call functions only the app's connection defines; the floor's
  // account does not sync, so it reports itself as applying and the triggers stay quiet.
  db.function('sync_applying', { deterministic: false }, () => 1);
  db.function('sync_tick', { deterministic: false }, () => '');
  db.function('change_actor', { deterministic: false }, () => 'system');

  const account = db.prepare('select * from accounts where id = ?');
  const pages = customerPageStatements(db);
  // The least any customer page can cost: 25 customers' own rows by the keyset index, nothing beside.
  const barePage = db.prepare('select * from customers where account_id = ? order by id desc limit ?');

  const customerByEmail = db.prepare('select * from customers where account_id = ? and email_lower = ?');
  const counter = db.prepare(
    `insert into counters (account_id, name, value) values (?, 'invoice', 1)
     on conflict (account_id, name) do update set value = counters.value + 1 returning value`,
  );
  const insertInvoice = db.prepare(
    `insert into invoices (id, account_id, number, customer_id, status, currency, issue_date, due_date,
       subtotal_cents, tax_total_cents, total_cents, amount_paid_cents, created_at, updated_at)
     values (?, ?, ?, ?, 'draft', 'CAD', ?, ?, ?, ?, ?, 0, ?, ?)`,
  );
  const insertLine = db.prepare(
    'insert into document_lines (document_id, position, description, quantity, unit_price, amount_cents) values (?, ?, ?, ?, ?, ?)',
  );
  const insertTax = db.prepare(
    'insert into document_taxes (document_id, position, name, rate, amount_cents) values (?, ?, ?, ?, ?)',
  );
  const linesOf = db.prepare('select * from document_lines where document_id = ? order by position');
  const taxesOf = db.prepare('select * from document_taxes where document_id = ? order by position');
  const paymentsOf = db.prepare('select * from payments where invoice_id = ? order by id');
  const createInvoice = db.transaction((body: BareInvoiceBody) => {
    account.get(accountId);
    const customer = customerByEmail.get(accountId, body.customer_email.toLowerCase()) as { id: string };
    const number = (counter.get(accountId) as { value: number }).value;
    const id = newId('inv');
    const now = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
    const lines = body.items.map((item) => Math.round(item.quantity * item.unit_price * 100));
    const subtotal = lines.reduce((a, b) => a + b, 0);
    const tax = Math.round(subtotal * body.taxes[0]!.rate);
    insertInvoice.run(
      id,
      accountId,
      `BARE-${number}`,
      customer.id,
      now.slice(0, 10),
      now.slice(0, 10),
      subtotal,
      tax,
      subtotal + tax,
      now,
      now,
    );
    body.items.forEach((item, i) => {
      insertLine.run(id, i, item.description, String(item.quantity), String(item.unit_price), lines[i]);
    });
    insertTax.run(id, 0, body.taxes[0]!.name, String(body.taxes[0]!.rate), tax);
    return { id, lines: linesOf.all(id), taxes: taxesOf.all(id), customer, payments: paymentsOf.all(id) };
  });

  // Errors only: a floor answering 500s would otherwise fail the case without saying why.
  const app: FastifyInstance = Fastify({ logger: { level: 'error' } });
  // A page of 25 unless `limit` says otherwise (v1 serves 100), one row more to tell whether there is a next.
  app.get('/customers', (request) => {
    const { before, limit } = request.query as { before?: string; limit?: string };
    const rows = Number(limit ?? 25) + 1;
    account.get(accountId);
    return before ? pages.before.all(accountId, before, rows) : pages.first.all(accountId, rows);
  });
  app.get('/customers/bare', () => {
    account.get(accountId);
    return barePage.all(accountId, 26);
  });
  // BEGIN IMMEDIATE, as the server's transactions: a deferred one that reads first fails at once
  // with SQLITE_BUSY, without waiting, when the server (another process) wrote in between.
  app.post('/invoices', (request) => createInvoice.immediate(request.body as BareInvoiceBody));
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      await app.close();
      db.close();
    },
  };
}

interface BareInvoiceBody {
  customer_email: string;
  items: Array<{ description: string; quantity: number; unit_price: number }>;
  taxes: Array<{ name: string; rate: number }>;
}
