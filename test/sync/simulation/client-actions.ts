import { businessConfig } from '../../../server/client-hub/data';
import { hubRows } from '../../../server/client-hub/hub-rows';
import type { ClientHubRows } from '../../../server/client-hub/rows';
import type { ClientActionsTable } from '../../../server/db/schema';
import { newId } from '../../../server/lib/ids';
import type { Ledger } from './operations';
import type { Rng, World } from './world';

type Kind = ClientActionsTable['kind'];
type Row = Record<string, unknown>;

/**
 * Every kind the applier knows (server/domain/client-actions.ts); answers to quotes and reviews
 * are tried first more often.
 */
const KINDS: Kind[] = [
  'quote.approve',
  'quote.approve',
  'quote.approve',
  'quote.decline',
  'quote.decline',
  'review.submit',
  'review.submit',
  'quote.changes',
  'invoice.payment_notice',
  'visit.reschedule',
  'link.renew',
  'review.submit',
  'booking.request',
  'booking.page',
];

/** What one action is about: its customer ('' for a visitor of the booking page), subject, form. */
interface Answer {
  customerId: string;
  subjectId: string;
  payload: unknown;
}

interface Page {
  accountId: string;
  rows: ClientHubRows;
  random: Rng;
  /** The hub's time now, in ms: the action's time. */
  now: number;
  /** The customer's link the action came through. */
  link: string;
}

/**
 * A customer acts on the hosted hub's page while the owner's devices do what they do (docs/sync.md,
 * invariant 12): the hub writes the action into the business's log as the page does (hub-rows.ts),
 * only where the page would offer the form (a sent quote, an invoice sent to them, a visit on the
 * schedule, an unanswered review request, an open booking page) and would take it (nothing of the
 * kind already on its way), and now and then the same submission arrives twice.
 */
export async function recordCustomerAction(world: World, random: Rng, ledger: Ledger): Promise<void> {
  const { accountId } = world;
  const now = world.hub.clock.now().getTime();
  const page: Page = {
    accountId,
    rows: hubRows(world.hub.engine.hub.storage, () => now),
    random,
    now,
    link: newId('lnk', now),
  };
  // Kinds in a random order (the weighted ones earlier more often): the first whose form the page
  // would offer now, so the few runs that hold a completed visit have their reviews.
  const order = new Set(
    KINDS.map((kind) => [random.next(), kind] as const)
      .sort(([a], [b]) => a - b)
      .map(([, kind]) => kind),
  );
  let kind: Kind | undefined;
  let answer: Answer | undefined;
  for (kind of order) {
    answer = await FORMS[kind](page, kind);
    if (answer) break;
  }
  if (!kind || !answer) return;
  const at = new Date(now);
  const action: ClientActionsTable = {
    id: newId('act', now),
    account_id: accountId,
    customer_id: answer.customerId,
    link_id: answer.customerId ? page.link : '',
    kind,
    subject_id: answer.subjectId,
    payload: JSON.stringify(answer.payload),
    ip: '203.0.113.7',
    created_at: at.toISOString(),
    status: 'pending',
    outcome: null,
    applied_at: null,
  };
  await page.rows.writeRow(accountId, 'client_actions', { ...action });
  if (random.chance(0.2)) await page.rows.writeRow(accountId, 'client_actions', { ...action });
  ledger.actions.set(action.id, action);
}

const FORMS: Record<Kind, (page: Page, kind: Kind) => Promise<Answer | undefined>> = {
  'quote.approve': answerQuote,
  'quote.decline': answerQuote,
  'quote.changes': answerQuote,
  'invoice.payment_notice': async (page, kind) => {
    const invoice = await pickOf(page, 'invoices', (i) => i.status !== 'draft');
    if (!invoice || !(await open(page, invoice, kind))) return undefined;
    const note = page.random.pick(['', 'e-Transfer sent this morning']);
    return { customerId: String(invoice.customer_id), subjectId: String(invoice.id), payload: { note } };
  },
  'visit.reschedule': async (page, kind) => {
    const job = await pickOf(page, 'jobs', (j) => j.scheduled_start != null && j.status !== 'cancelled');
    if (!job || !(await open(page, job, kind))) return undefined;
    return {
      customerId: String(job.customer_id),
      subjectId: String(job.id),
      payload: { message: 'Could you come another day?', preferred: page.random.pick(['', 'Friday']) },
    };
  },
  'link.renew': async (page) => {
    const customer = await pickOf(page, 'customers', (c) => c.deleted_at == null);
    if (!customer) return undefined;
    // The link that ran out is the subject: the page records the renewal against it.
    return {
      customerId: String(customer.id),
      subjectId: page.link,
      payload: { contact: String(customer.email) },
    };
  },
  'review.submit': async (page, kind) => {
    const request = await pickOf(
      page,
      'review_requests',
      (r) => r.status !== 'answered' && r.customer_id != null,
    );
    if (!request || !(await open(page, request, kind))) return undefined;
    const rating = 1 + page.random.int(5);
    return {
      customerId: String(request.customer_id),
      subjectId: String(request.id),
      payload: { rating, comment: page.random.pick(['', 'Spotless, thank you']) },
    };
  },
  'booking.request': async (page) => {
    const customer = await pickOf(page, 'customers', (c) => c.deleted_at == null);
    if (!customer) return undefined;
    return {
      customerId: String(customer.id),
      subjectId: newId('bkg', page.now),
      payload: {
        service: 'Gutter clearing',
        property_id: null,
        preferred: preferred(page),
        notes: page.random.pick([null, 'The side gate is open']),
      },
    };
  },
  'booking.page': async (page) => {
    const config = await businessConfig(page.rows, page.accountId);
    const service = config?.booking_page.services[0];
    // The page takes requests only while the owner has it on.
    if (!config?.booking_page.enabled || !service) return undefined;
    return {
      customerId: '',
      subjectId: newId('bkg', page.now),
      payload: {
        name: 'Noor Haddad',
        // A visitor who is a customer already (found by e-mail) or someone new.
        email: page.random.pick(['ada@example.com', 'noor@example.com', 'Cy@Example.com']),
        phone: null,
        address: null,
        service_id: service.id,
        preferred: preferred(page),
        notes: null,
      },
    };
  },
};

/** Approve and decline only a quote with no answer on its way; changes may be asked any time. */
async function answerQuote(page: Page, kind: Kind): Promise<Answer | undefined> {
  const quote = await pickOf(page, 'quotes', (q) => q.status === 'sent');
  if (!quote || !(await customerStands(page, String(quote.customer_id)))) return undefined;
  const actions = await actionsOf(page, String(quote.customer_id));
  const answering = kind !== 'quote.changes';
  if (
    answering &&
    actions.some((a) => a.subject_id === quote.id && a.kind !== 'quote.changes' && a.status !== 'refused')
  )
    return undefined;
  const payload =
    kind === 'quote.approve'
      ? { name: 'Maya Chen' }
      : kind === 'quote.decline'
        ? { reason: page.random.pick(['', 'Too dear']) }
        : { message: 'Could the second coat be left out?' };
  return { customerId: String(quote.customer_id), subjectId: String(quote.id), payload };
}

/** Days ahead of the action, as the page takes them (its own time judges them when applied). */
function preferred(page: Page): Array<{ date: string; time: string }> {
  const date = new Date(page.now + (2 + page.random.int(10)) * 86_400_000).toISOString().slice(0, 10);
  return [{ date, time: page.random.pick(['09:00', '13:30']) }];
}

async function pickOf(page: Page, table: string, keep: (row: Row) => boolean): Promise<Row | undefined> {
  const rows = (
    await page.rows.readRows(page.accountId, table, { column: 'account_id', values: [page.accountId] })
  ).filter(keep);
  return rows.length ? page.random.pick(rows) : undefined;
}

async function customerStands(page: Page, customerId: string): Promise<boolean> {
  const customer = await page.rows.readRow(page.accountId, 'customers', customerId);
  return !!customer && customer.row.deleted_at == null;
}

async function actionsOf(page: Page, customerId: string): Promise<ClientActionsTable[]> {
  return (await page.rows.readRows(page.accountId, 'client_actions', {
    column: 'customer_id',
    values: [customerId],
  })) as unknown as ClientActionsTable[];
}

/**
 * The record's customer stands and asked nothing of this kind about it that is waiting or done (as
 * record-routes.ts and review-page.ts take a form: asking again adds nothing).
 */
async function open(page: Page, subject: Row, kind: Kind): Promise<boolean> {
  const customerId = String(subject.customer_id);
  if (!(await customerStands(page, customerId))) return false;
  return !(await actionsOf(page, customerId)).some(
    (a) =>
      a.kind === kind &&
      a.subject_id === subject.id &&
      (kind === 'review.submit' ? a.status !== 'refused' : a.status === 'pending' || a.status === 'applied'),
  );
}
