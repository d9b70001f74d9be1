import { text } from 'node:stream/consumers';
import { exportAccount } from '../../../server/documents/export';
import { visitId } from '../../../server/domain/plan-visits';
import { subscribes } from '../../../server/domain/webhook-fanout';
import { checkClientActions } from './client-action-checks';
import type { Ledger } from './operations';
import type { Replica, World } from './world';

/** The portal export of a replica, less what differs by design (when it was taken). */
export async function exportOf(replica: Replica, accountId: string): Promise<unknown> {
  const { stream } = await exportAccount(replica.ctx, accountId, 'json', '2026-11-22');
  const body = JSON.parse(await text(stream)) as Record<string, unknown>;
  delete body.exported_at;
  return body;
}

const tableOf = (id: string) =>
  id.startsWith('inv_')
    ? 'invoices'
    : id.startsWith('quo_')
      ? 'quotes'
      : id.startsWith('job_')
        ? 'jobs'
        : id.startsWith('plan_')
          ? 'service_plans'
          : 'customers';

/** Every invariant of docs/sync.md section 2, after a final round; throws with what broke. */
export async function checkInvariants(world: World, ledger: Ledger): Promise<void> {
  const { accountId } = world;
  const problems: string[] = [];
  const reference = JSON.stringify(await exportOf(world.hub, accountId));
  for (const replica of world.replicas.slice(1)) {
    const other = JSON.stringify(await exportOf(replica, accountId));
    if (other !== reference)
      problems.push(
        `convergence: ${replica.name}'s export differs from the hub's (${firstDifference(reference, other)})`,
      );
  }

  for (const replica of world.replicas) {
    const sqlite = replica.database.sqlite;
    const pending = sqlite.prepare('SELECT count(*) AS n FROM sync_outbox').get() as { n: number };
    if (pending.n > 0) problems.push(`${replica.name}: ${pending.n} changes still waiting after healing`);

    const payments = new Set(
      (sqlite.prepare('SELECT id FROM payments').all() as Array<{ id: string }>).map((p) => p.id),
    );
    for (const id of ledger.payments)
      if (!payments.has(id)) problems.push(`money: payment ${id} is missing on ${replica.name}`);

    for (const id of ledger.deleted) {
      const table = tableOf(id);
      if (sqlite.prepare(`SELECT 1 FROM ${table} WHERE id = ?`).get(id))
        problems.push(`deleted ${id} is back on ${replica.name}`);
    }
    const aliases = new Set(
      (sqlite.prepare('SELECT from_id FROM sync_aliases').all() as Array<{ from_id: string }>).map(
        (a) => a.from_id,
      ),
    );
    for (const id of ledger.created) {
      if (ledger.deleted.has(id) || aliases.has(id)) continue;
      const table = tableOf(id);
      if (!sqlite.prepare(`SELECT 1 FROM ${table} WHERE id = ?`).get(id)) {
        const deletedElsewhere = sqlite
          .prepare(`SELECT clocks FROM sync_clocks WHERE tbl = ? AND pk = ?`)
          .get(table, JSON.stringify([id])) as { clocks: string } | undefined;
        if (!deletedElsewhere || !('_deleted' in JSON.parse(deletedElsewhere.clocks))) {
          problems.push(`lost: ${id} made on some device is missing on ${replica.name}`);
        }
      }
    }

    const dupes = sqlite
      .prepare(
        `SELECT number FROM (SELECT number FROM invoices UNION ALL SELECT number FROM quotes UNION ALL SELECT number FROM jobs)
         GROUP BY number HAVING count(*) > 1`,
      )
      .all();
    if (dupes.length) problems.push(`numbers: ${JSON.stringify(dupes)} issued twice on ${replica.name}`);

    // A plan's visit is generated once: one job per (plan, rule date), with the id derived from them.
    const visits = sqlite
      .prepare('SELECT id, plan_id, plan_occurrence FROM jobs WHERE plan_id IS NOT NULL')
      .all() as Array<{ id: string; plan_id: string; plan_occurrence: string }>;
    const seen = new Set<string>();
    for (const visit of visits) {
      const key = `${visit.plan_id}:${visit.plan_occurrence}`;
      if (seen.has(key)) problems.push(`recurring: ${key} has two visits on ${replica.name}`);
      seen.add(key);
      if (visit.id !== visitId(visit.plan_id, visit.plan_occurrence))
        problems.push(`recurring: visit ${visit.id} has an id of its own on ${replica.name}`);
    }
    const billedTwice = sqlite
      .prepare(
        `SELECT job_id FROM invoices WHERE job_id IN (SELECT id FROM jobs WHERE plan_id IS NOT NULL)
         GROUP BY job_id HAVING count(*) > 1`,
      )
      .all();
    if (billedTwice.length)
      problems.push(`recurring: visits ${JSON.stringify(billedTwice)} billed twice on ${replica.name}`);

    const emails = sqlite
      .prepare('SELECT email_lower FROM customers GROUP BY account_id, email_lower HAVING count(*) > 1')
      .all();
    if (emails.length)
      problems.push(`customers: duplicate e-mails ${JSON.stringify(emails)} on ${replica.name}`);
    const dangling = sqlite
      .prepare(
        `SELECT 'invoice' AS t, id FROM invoices WHERE customer_id NOT IN (SELECT id FROM customers)
         UNION ALL SELECT 'job', id FROM jobs WHERE customer_id NOT IN (SELECT id FROM customers)
         UNION ALL SELECT 'quote', id FROM quotes WHERE customer_id NOT IN (SELECT id FROM customers)`,
      )
      .all() as Array<{ t: string; id: string }>;
    for (const row of dangling) {
      if (!ledger.deleted.size)
        problems.push(`${row.t} ${row.id} names a customer missing on ${replica.name}`);
    }

    const wrongTotals = sqlite
      .prepare(
        `SELECT i.id FROM invoices i WHERE i.subtotal_cents <> (SELECT coalesce(sum(amount_cents), 0) FROM document_lines WHERE document_id = i.id)
           OR i.total_cents <> i.subtotal_cents + (SELECT coalesce(sum(amount_cents), 0) FROM document_taxes WHERE document_id = i.id)
           OR i.amount_paid_cents <> (SELECT coalesce(sum(amount_cents), 0) FROM payments WHERE invoice_id = i.id)
           OR (i.amount_paid_cents > 0 AND i.status NOT IN ('paid', 'partially_paid'))`,
      )
      .all();
    if (wrongTotals.length)
      problems.push(
        `derived: invoices ${JSON.stringify(wrongTotals)} disagree with their rows on ${replica.name}`,
      );
  }

  problems.push(...checkDecisions(world, ledger));
  problems.push(...checkClientActions(world, ledger));

  // A slot that went up and back down to nothing on one replica is the same figure as no slot.
  const rollups = (replica: Replica) =>
    JSON.stringify(
      ['overview_days', 'overview_slots'].map((table) =>
        (
          replica.database.sqlite.prepare(`SELECT * FROM ${table} ORDER BY 1, 2`).all() as Array<
            Record<string, unknown>
          >
        ).filter((row) =>
          Object.entries(row).some(
            ([column, value]) => typeof value === 'number' && value !== 0 && column !== 'account_id',
          ),
        ),
      ),
    );
  const hubRollups = rollups(world.hub);
  for (const replica of world.replicas.slice(1)) {
    if (rollups(replica) !== hubRollups)
      problems.push(`derived: ${replica.name}'s overview rollups differ from the hub's`);
  }

  // Each event reaches each endpoint once, from the one node that delivers it: every event that
  // node learned of after the endpoint was made there, whatever the raising machine's clock said,
  // and none it held before (invariant 9).
  const hubSqlite = world.hub.database.sqlite;
  const endpoints = hubSqlite
    .prepare('SELECT id, account_id, interface, events, enabled FROM webhook_endpoints')
    .all() as Array<{
    id: string;
    account_id: string;
    interface: 'portal' | 'v1';
    events: string;
    enabled: number;
  }>;
  const events = hubSqlite.prepare('SELECT id, type FROM events').all() as Array<{
    id: string;
    type: string;
  }>;
  const deliveries = new Map<string, number>();
  for (const replica of world.replicas) {
    for (const d of replica.database.sqlite
      .prepare('SELECT event_id, endpoint_id FROM webhook_deliveries')
      .all() as Array<{
      event_id: string;
      endpoint_id: string;
    }>) {
      const key = `${d.event_id}>${d.endpoint_id}`;
      deliveries.set(key, (deliveries.get(key) ?? 0) + 1);
    }
  }
  for (const endpoint of endpoints) {
    const heldBefore = ledger.endpoints.get(endpoint.id);
    if (!heldBefore) {
      problems.push(`webhooks: endpoint ${endpoint.id} was never made by an operation`);
      continue;
    }
    for (const event of events) {
      const expected =
        endpoint.enabled && !heldBefore.has(event.id) && subscribes(endpoint, event.type) ? 1 : 0;
      const got = deliveries.get(`${event.id}>${endpoint.id}`) ?? 0;
      if (got !== expected)
        problems.push(
          `webhooks: ${event.type} ${event.id} went ${got} times to ${endpoint.id} (expected ${expected})`,
        );
    }
  }

  if (problems.length) throw new Error(problems.slice(0, 12).join('\n'));
}

/**
 * Decisions are true and shared (invariant 11): every machine holds the same decision rows; each
 * one listed names a situation the final rows and the run's history show (a deleted invoice was
 * deleted by an operation and had a payment; a missing customer was deleted by one); and every
 * such situation is listed, or was dealt with.
 */
function checkDecisions(world: World, ledger: Ledger): string[] {
  const problems: string[] = [];
  const decisionsOf = (replica: Replica) =>
    replica.database.sqlite
      .prepare('SELECT id, kind, record_type, record_id, status FROM decisions ORDER BY id')
      .all() as Array<{ id: string; kind: string; record_type: string; record_id: string; status: string }>;
  const reference = decisionsOf(world.hub);
  for (const replica of world.replicas.slice(1)) {
    if (JSON.stringify(decisionsOf(replica)) !== JSON.stringify(reference))
      problems.push(
        `decisions: ${replica.name} lists ${JSON.stringify(decisionsOf(replica))}, the hub ${JSON.stringify(reference)}`,
      );
  }
  const sqlite = world.hub.database.sqlite;
  const one = (text: string, ...params: unknown[]) =>
    sqlite.prepare(text).get(...params) as Record<string, unknown> | undefined;
  const truth = (kind: string, id: string): boolean => {
    switch (kind) {
      case 'paid_invoice_deleted':
        return (
          ledger.deleted.has(id) &&
          !one('SELECT 1 FROM invoices WHERE id = ?', id) &&
          !!one('SELECT 1 FROM payments WHERE invoice_id = ?', id)
        );
      case 'overpaid_invoice':
        return !!one('SELECT 1 FROM invoices WHERE id = ? AND amount_paid_cents > total_cents', id);
      case 'paid_invoice_voided':
        return !!one(
          'SELECT 1 FROM invoices WHERE id = ? AND amount_paid_cents > 0 AND voided_at IS NOT NULL',
          id,
        );
      case 'quote_accepted_and_declined':
        return !!one(
          'SELECT 1 FROM quotes WHERE id = ? AND accepted_at IS NOT NULL AND declined_at IS NOT NULL',
          id,
        );
      case 'job_completed_and_cancelled':
        return !!one(
          `SELECT 1 FROM jobs WHERE id = ? AND status = 'completed' AND cancelled_at IS NOT NULL`,
          id,
        );
      case 'customer_deleted': {
        const customer = one(
          `SELECT customer_id FROM invoices WHERE id = :id UNION ALL SELECT customer_id FROM quotes WHERE id = :id
           UNION ALL SELECT customer_id FROM jobs WHERE id = :id`,
          { id },
        )?.customer_id as string | undefined;
        return (
          customer !== undefined &&
          ledger.deleted.has(customer) &&
          !one('SELECT 1 FROM customers WHERE id = ?', customer)
        );
      }
      default:
        return false;
    }
  };
  for (const decision of reference) {
    if (decision.status === 'open' && !truth(decision.kind, decision.record_id))
      problems.push(`decisions: ${decision.id} is listed but did not happen`);
  }
  const listed = new Set(reference.filter((d) => d.status !== 'cleared').map((d) => d.id));
  const happened = sqlite
    .prepare(
      `SELECT 'overpaid_invoice:' || id AS id FROM invoices WHERE amount_paid_cents > total_cents
       UNION ALL SELECT 'paid_invoice_voided:' || id FROM invoices WHERE amount_paid_cents > 0 AND voided_at IS NOT NULL
       UNION ALL SELECT 'quote_accepted_and_declined:' || id FROM quotes WHERE accepted_at IS NOT NULL AND declined_at IS NOT NULL
       UNION ALL SELECT 'job_completed_and_cancelled:' || id FROM jobs WHERE status = 'completed' AND cancelled_at IS NOT NULL
       UNION ALL SELECT DISTINCT 'paid_invoice_deleted:' || invoice_id FROM payments WHERE invoice_id NOT IN (SELECT id FROM invoices)
       UNION ALL SELECT 'customer_deleted:' || id FROM (SELECT id, customer_id FROM invoices UNION ALL
         SELECT id, customer_id FROM quotes UNION ALL SELECT id, customer_id FROM jobs) WHERE customer_id NOT IN (SELECT id FROM customers)`,
    )
    .all() as Array<{ id: string }>;
  for (const { id } of happened) {
    if (!listed.has(id)) problems.push(`decisions: ${id} happened but is not listed`);
  }
  return problems;
}

function firstDifference(a: string, b: string): string {
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  return `at ${i}: hub …${a.slice(Math.max(0, i - 80), i + 60)}… vs …${b.slice(Math.max(0, i - 80), i + 60)}…`;
}
