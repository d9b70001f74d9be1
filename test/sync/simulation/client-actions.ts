import { hubRows } from '../../../server/client-hub/hub-rows';
import type { ClientActionsTable } from '../../../server/db/schema';
import { actionOrigin } from '../../../server/domain/client-actions';
import { newId } from '../../../server/lib/ids';
import type { Ledger } from './operations';
import type { Rng, World } from './world';

/**
 * A customer answers a sent quote on the hosted hub's page while the owner's devices do what they
 * do (docs/sync.md, invariant 12): the hub writes the action into the business's log as the page
 * does (hub-rows.ts), only for a quote it holds as sent with no answer already on its way, and now
 * and then the same submission arrives twice.
 */
export async function recordCustomerAction(world: World, random: Rng, ledger: Ledger): Promise<void> {
  const { accountId } = world;
  const rows = hubRows(world.hub.engine.hub.storage, () => world.hub.clock.now().getTime());
  const quotes = (
    await rows.readRows(accountId, 'quotes', { column: 'account_id', values: [accountId] })
  ).filter((q) => q.status === 'sent');
  if (!quotes.length) return;
  const quote = random.pick(quotes);
  const customerId = String(quote.customer_id);
  const customer = await rows.readRow(accountId, 'customers', customerId);
  if (!customer || customer.row.deleted_at != null) return;
  const actions = (await rows.readRows(accountId, 'client_actions', {
    column: 'customer_id',
    values: [customerId],
  })) as unknown as ClientActionsTable[];
  if (actions.some((a) => a.subject_id === quote.id && a.status !== 'refused')) return;
  const now = world.hub.clock.now();
  const approve = random.chance(0.6);
  const action: ClientActionsTable = {
    id: newId('act', now.getTime()),
    account_id: accountId,
    customer_id: customerId,
    link_id: newId('lnk', now.getTime()),
    kind: approve ? 'quote.approve' : 'quote.decline',
    subject_id: String(quote.id),
    payload: JSON.stringify(approve ? { name: 'Maya Chen' } : { reason: 'Too dear' }),
    ip: '203.0.113.7',
    created_at: now.toISOString(),
    status: 'pending',
    outcome: null,
    applied_at: null,
  };
  await rows.writeRow(accountId, 'client_actions', { ...action });
  if (random.chance(0.2)) await rows.writeRow(accountId, 'client_actions', { ...action });
  ledger.actions.set(action.id, action);
}

/**
 * Invariant 12 after healing: every recorded action is one row, settled the same way on every
 * machine (12a, 12c); an applied one made its event once, with the id derived from the action, and
 * left the quote answered as the customer said, at the action's time, unless an owner also answered
 * that quote (then the status merges by rank); a refused one made no event (12b, 12c). Its
 * deliveries are counted with every other event's by the webhook check.
 */
export function checkClientActions(world: World, ledger: Ledger): string[] {
  const problems: string[] = [];
  for (const replica of world.replicas) {
    const sqlite = replica.database.sqlite;
    for (const action of ledger.actions.values()) {
      const rows = sqlite
        .prepare('SELECT status, outcome FROM client_actions WHERE id = ?')
        .all(action.id) as Array<{ status: string; outcome: string | null }>;
      const settled = JSON.stringify(rows);
      const onHub = JSON.stringify(
        world.hub.database.sqlite
          .prepare('SELECT status, outcome FROM client_actions WHERE id = ?')
          .all(action.id),
      );
      if (rows.length !== 1 || rows[0]!.status === 'pending' || settled !== onHub) {
        problems.push(`client actions: ${action.id} is ${settled} on ${replica.name}, ${onHub} on the hub`);
        continue;
      }
      const applied = rows[0]!.status === 'applied';
      const eventId = actionOrigin(action).id;
      const events = (
        sqlite.prepare('SELECT count(*) AS n FROM events WHERE id = ?').get(eventId) as { n: number }
      ).n;
      if (events !== (applied ? 1 : 0))
        problems.push(
          `client actions: ${action.id} (${rows[0]!.status}) has ${events} events on ${replica.name}`,
        );
      if (!applied || ledger.answered.has(action.subject_id)) continue;
      const quote = sqlite
        .prepare('SELECT status, accepted_at, declined_at FROM quotes WHERE id = ?')
        .get(action.subject_id) as { status: string; accepted_at: string; declined_at: string } | undefined;
      const [status, at] =
        action.kind === 'quote.approve' ? ['accepted', quote?.accepted_at] : ['declined', quote?.declined_at];
      if (quote?.status !== status || at !== action.created_at)
        problems.push(
          `client actions: ${action.kind} ${action.id} left quote ${action.subject_id} ${JSON.stringify(quote)} on ${replica.name}`,
        );
      // Only the customer answered this quote: one answer event in all, whatever its id.
      const answers = sqlite
        .prepare(
          `SELECT count(*) AS n FROM events WHERE type IN ('quote.accepted', 'quote.declined') AND instr(payload, ?) > 0`,
        )
        .get(action.subject_id) as { n: number };
      if (answers.n !== 1)
        problems.push(
          `client actions: quote ${action.subject_id} has ${answers.n} answer events on ${replica.name}`,
        );
    }
  }
  return problems;
}
