import path from 'node:path';
import SQLite from 'better-sqlite3';
import Fastify, { type FastifyInstance } from 'fastify';
import { newId } from '../server/lib/ids';

/**
 * The floor the real routes are compared with: a bare Fastify instance with its own connection,
 * running the statements the real route's domain code runs, prepared once, with no auth, rate
 * limit, validation, zod serialisation or error envelope. What the real route costs above this is
 * the price of the framework layers.
 */
export async function startBareFloor(
  dataDir: string,
  accountId: string,
): Promise<{ url: string; close(): Promise<void> }> {
  const db = new SQLite(path.join(dataDir, 'shopdesk.sqlite'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');

  const account = db.prepare('select * from accounts where id = ?');
  const firstPage = db.prepare('select * from customers where account_id = ? order by id desc limit ?');
  const pageBefore = db.prepare(
    'select * from customers where account_id = ? and id < ? order by id desc limit ?',
  );
  const inList = (n: number) => Array.from({ length: n }, () => '?').join(',');
  const present = (ids: string[]) => ({
    tags: db
      .prepare(
        `select customer_id, tag from customer_tags where customer_id in (${inList(ids.length)}) order by tag`,
      )
      .all(...ids),
    notes: db
      .prepare(
        `select id, customer_id, text, created_at from customer_notes where customer_id in (${inList(ids.length)}) order by id desc`,
      )
      .all(...ids),
    paid: db
      .prepare(
        `select customer_id, sum(amount_paid_cents) as paid from invoices where customer_id in (${inList(ids.length)}) group by customer_id`,
      )
      .all(...ids),
    lastJobs: db
      .prepare(
        `select customer_id, max(completed_at) as last from jobs where customer_id in (${inList(ids.length)}) and status = 'completed' group by customer_id`,
      )
      .all(...ids),
  });

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

  const app: FastifyInstance = Fastify({ logger: false });
  app.get('/customers', (request) => {
    const before = (request.query as { before?: string }).before;
    account.get(accountId);
    const rows = (before ? pageBefore.all(accountId, before, 26) : firstPage.all(accountId, 26)) as Array<{
      id: string;
    }>;
    return { rows, ...present(rows.map((r) => r.id)) };
  });
  app.post('/invoices', (request) => createInvoice(request.body as BareInvoiceBody));
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
