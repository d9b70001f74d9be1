import type SQLite from 'better-sqlite3-multiple-ciphers';
import type { ClientActionsTable } from '../../../server/db/schema';
import { actionOrigin } from '../../../server/domain/client-actions';
import { derivedId, idTime } from '../../../server/lib/ids';
import type { Ledger } from './operations';
import type { World } from './world';

/** The kinds whose application raises an event (the rest only note and tell the owner). */
const EVENT_KINDS = new Set<ClientActionsTable['kind']>([
  'quote.approve',
  'quote.decline',
  'review.submit',
  'booking.request',
  'booking.page',
]);

interface Settled {
  status: string;
  outcome: string | null;
  customer_id: string;
}

/**
 * Invariant 12 after healing (docs/sync.md), for every action customers took (client-actions.ts),
 * on every machine:
 * - 12a: it is one row, settled (applied or refused) the same way as on the hub;
 * - 12b: an applied one made its effects once, each with the id derived from the action's (the
 *   event, the customer's note, the review, the booking request, the owner's e-mail), and a refused
 *   one made none; a customer's answer left the quote as they said, at the action's time, unless an
 *   owner also answered it (then the status merges by rank);
 * - 12c: its event is the one row with its derived id; each delivery of it is counted with every
 *   other event's by the webhook check.
 */
export function checkClientActions(world: World, ledger: Ledger): string[] {
  const problems: string[] = [];
  const hub = world.hub.database.sqlite;
  for (const replica of world.replicas) {
    const sqlite = replica.database.sqlite;
    for (const action of ledger.actions.values()) {
      const rows = settledOf(sqlite, action.id);
      const onHub = JSON.stringify(settledOf(hub, action.id));
      const settled = JSON.stringify(rows);
      if (rows.length !== 1 || rows[0]!.status === 'pending' || settled !== onHub) {
        problems.push(`client actions: ${action.id} is ${settled} on ${replica.name}, ${onHub} on the hub`);
        continue;
      }
      const row = rows[0]!;
      const applied = row.status === 'applied';
      const eventId = actionOrigin(action).id;
      const events = count(sqlite, 'SELECT count(*) AS n FROM events WHERE id = ?', eventId);
      if (events !== (applied && EVENT_KINDS.has(action.kind) ? 1 : 0))
        problems.push(
          `client actions: ${action.kind} ${action.id} (${row.status}) has ${events} events on ${replica.name}`,
        );
      for (const problem of effects(sqlite, ledger, action, row))
        problems.push(
          `client actions: ${action.kind} ${action.id} (${row.status}) ${problem} on ${replica.name}`,
        );
    }
  }
  problems.push(...checkOutcomes(hub, ledger));
  return problems;
}

/**
 * An action's outcome tells of its status (12a): every applied action of a kind reads the same
 * (the applier's answer; the forms here send the same name), and none reads as a refusal does.
 */
function checkOutcomes(hub: SQLite.Database, ledger: Ledger): string[] {
  const outcomes = new Map<string, Set<string>>();
  for (const action of ledger.actions.values()) {
    const [row] = settledOf(hub, action.id);
    if (!row || (row.status !== 'applied' && row.status !== 'refused')) continue;
    const key = `${action.kind} ${row.status}`;
    outcomes.set(key, (outcomes.get(key) ?? new Set()).add(String(row.outcome)));
  }
  const problems: string[] = [];
  for (const [key, applied] of outcomes) {
    const [kind, status] = key.split(' ');
    if (status !== 'applied') continue;
    const refused = [...(outcomes.get(`${kind} refused`) ?? [])];
    if (applied.size !== 1 || refused.some((outcome) => applied.has(outcome)))
      problems.push(`client actions: applied ${kind} actions read ${JSON.stringify([...applied])}`);
  }
  return problems;
}

function settledOf(sqlite: SQLite.Database, id: string): Settled[] {
  return sqlite
    .prepare('SELECT status, outcome, customer_id FROM client_actions WHERE id = ?')
    .all(id) as Settled[];
}

function count(sqlite: SQLite.Database, text: string, ...params: unknown[]): number {
  return (sqlite.prepare(text).get(...params) as { n: number }).n;
}

/** What the action left besides its event, by kind: nothing at all when it was refused. */
function effects(
  sqlite: SQLite.Database,
  ledger: Ledger,
  action: ClientActionsTable,
  row: Settled,
): string[] {
  const problems: string[] = [];
  const applied = row.status === 'applied';
  const time = idTime(action.id) ?? Date.parse(action.created_at);
  const payload = JSON.parse(action.payload) as Record<string, unknown>;
  const expect = (what: string, got: number, wanted: number) => {
    if (got !== wanted) problems.push(`has ${got} ${what} (expected ${wanted})`);
  };
  // A deleted customer's notes go with them; the action's row names the customer it ended with
  // (a customer merged into another by e-mail is followed).
  const customerStands =
    count(sqlite, 'SELECT count(*) AS n FROM customers WHERE id = ?', row.customer_id) > 0;
  const notes = (wanted: boolean) => {
    if (!customerStands) return;
    const id = derivedId('note', time, action.id);
    expect(
      'customer notes',
      count(sqlite, 'SELECT count(*) AS n FROM customer_notes WHERE id = ?', id),
      wanted ? 1 : 0,
    );
  };
  const alert = alertKey(action, time);
  if (alert) {
    // One e-mail to the owner per action, whichever machine applied it and whatever its clock said.
    const id = derivedId('msg', time, `owner_alert:${alert}`);
    const alike = count(
      sqlite,
      'SELECT count(*) AS n FROM mail_messages WHERE substr(id, 15) = ?',
      id.slice(14),
    );
    expect('owner alerts', alike, applied ? 1 : 0);
    if (alike === 1 && !count(sqlite, 'SELECT count(*) AS n FROM mail_messages WHERE id = ?', id))
      problems.push(`has its owner alert under another id than ${id}`);
  }
  switch (action.kind) {
    case 'quote.approve':
    case 'quote.decline': {
      notes(applied && action.kind === 'quote.decline' && Boolean(payload.reason));
      if (!applied || ledger.answered.has(action.subject_id)) break;
      const quote = sqlite
        .prepare('SELECT status, accepted_at, declined_at FROM quotes WHERE id = ?')
        .get(action.subject_id) as { status: string; accepted_at: string; declined_at: string } | undefined;
      const [status, at] =
        action.kind === 'quote.approve' ? ['accepted', quote?.accepted_at] : ['declined', quote?.declined_at];
      if (quote?.status !== status || at !== action.created_at)
        problems.push(`left quote ${action.subject_id} ${JSON.stringify(quote)}`);
      // Only the customer answered this quote: one answer event in all, whatever its id.
      expect(
        'answer events',
        count(
          sqlite,
          `SELECT count(*) AS n FROM events WHERE type IN ('quote.accepted', 'quote.declined') AND instr(payload, ?) > 0`,
          action.subject_id,
        ),
        1,
      );
      break;
    }
    case 'quote.changes':
    case 'invoice.payment_notice':
    case 'visit.reschedule':
    case 'link.renew':
      notes(applied);
      break;
    case 'review.submit': {
      const id = derivedId('rev', time, action.id);
      expect('reviews', count(sqlite, 'SELECT count(*) AS n FROM reviews WHERE id = ?', id), applied ? 1 : 0);
      if (applied)
        expect(
          'review requests answered by it',
          count(
            sqlite,
            'SELECT count(*) AS n FROM review_requests WHERE id = ? AND review_id = ?',
            action.subject_id,
            id,
          ),
          1,
        );
      break;
    }
    case 'booking.request':
    case 'booking.page': {
      const wanted = applied ? 1 : 0;
      expect(
        'bookings',
        count(sqlite, 'SELECT count(*) AS n FROM bookings WHERE id = ?', action.subject_id),
        wanted,
      );
      expect(
        'booking requests',
        count(sqlite, 'SELECT count(*) AS n FROM booking_requests WHERE booking_id = ?', action.subject_id),
        wanted,
      );
      break;
    }
  }
  return problems;
}

/** What the owner's e-mail about the action is keyed by (owner-alerts.ts); none for a new link. */
function alertKey(action: ClientActionsTable, time: number): string | null {
  switch (action.kind) {
    case 'link.renew':
      return null;
    case 'review.submit':
      return `review:${derivedId('rev', time, action.id)}`;
    case 'booking.request':
    case 'booking.page':
      return `booking_request:${action.subject_id}`;
    default:
      return `client_action:${action.id}`;
  }
}
