import type { ClientActionsTable } from '../../../server/db/schema';
import { getBookingPage, updateBookingPage } from '../../../server/domain/booking-page';
import {
  addNote,
  addTags,
  createCustomer,
  deleteCustomer,
  updateCustomer,
} from '../../../server/domain/customers';
import { markPaid, recordPayment } from '../../../server/domain/invoice-payments';
import {
  createInvoice,
  deleteInvoice,
  sendInvoice,
  updateInvoice,
  voidInvoice,
} from '../../../server/domain/invoices';
import { cancelJob, completeJob, createJob, startJob, updateJob } from '../../../server/domain/jobs';
import { runRecurringWork } from '../../../server/domain/plan-runner';
import {
  acceptQuote,
  createQuote,
  declineQuote,
  markQuoteSent,
  sendQuote,
} from '../../../server/domain/quotes';
import { createPlan, endPlan, updatePlan } from '../../../server/domain/service-plans';
import { createEndpoint } from '../../../server/domain/webhooks';
import { ApiError } from '../../../server/lib/errors';
import type { Replica, Rng } from './world';

/** What the simulation did, for the invariants: money taken, records deleted. */
export interface Ledger {
  payments: Set<string>;
  deleted: Set<string>;
  created: Set<string>;
  /** Each endpoint made, with the events its replica held when it was made (it gets every other one). */
  endpoints: Map<string, Set<string>>;
  /** What customers did on the hub's page (client-actions.ts), by action id. */
  actions: Map<string, ClientActionsTable>;
  /** Quotes an owner accepted or declined by hand, whose final status a customer's answer need not be. */
  answered: Set<string>;
}

export function newLedger(): Ledger {
  return {
    payments: new Set(),
    deleted: new Set(),
    created: new Set(),
    endpoints: new Map(),
    actions: new Map(),
    answered: new Set(),
  };
}

const EMAILS = ['ada@example.com', 'bo@example.com', 'Cy@Example.com', 'di@example.com', 'ed@example.com'];
const NAMES = ['Ada', 'Bo', 'Cy', 'Di', 'Ed', 'Flo'];

type Picked = 'invoices' | 'quotes' | 'jobs' | 'customers' | 'service_plans';

async function ids(replica: Replica, table: Picked, accountId: string) {
  return (
    await replica.ctx.db
      .selectFrom(table)
      .select(['id'])
      .where('account_id', '=', accountId)
      .orderBy('id')
      .execute()
  ).map((r) => r.id);
}

function items(random: Rng) {
  return Array.from({ length: 1 + random.int(3) }, (_, i) => ({
    description: `Visit ${i + 1}`,
    quantity: 1 + random.int(4),
    unit_price: 20 + random.int(200) + random.int(100) / 100,
  }));
}

const TAXES = [
  { name: 'GST', rate: 0.05 },
  { name: 'PST', rate: 0.07 },
];

/** One random business operation on a replica, through the domain layer; refusals (409, 400) are fine. */
export async function randomOperation(replica: Replica, accountId: string, random: Rng, ledger: Ledger) {
  const { ctx } = replica;
  const pick = async (table: Picked) => {
    const list = await ids(replica, table, accountId);
    return list.length ? random.pick(list) : undefined;
  };
  const kind = random.int(25);
  try {
    switch (kind) {
      case 0: {
        const customer = await createCustomer(ctx, accountId, {
          name: random.pick(NAMES),
          email: random.pick(EMAILS),
        });
        ledger.created.add(customer.id);
        return;
      }
      case 1: {
        const id = await pick('customers');
        if (id)
          await updateCustomer(ctx, accountId, id, {
            phone: `555-01${random.int(100)}`,
            name: random.pick(NAMES),
          });
        return;
      }
      case 2:
      case 3: {
        const invoice = await createInvoice(ctx, accountId, {
          customer_email: random.pick(EMAILS),
          customer_name: random.pick(NAMES),
          items: items(random),
          taxes: random.chance(0.8) ? TAXES : [],
        });
        ledger.created.add(invoice.id);
        return;
      }
      case 4: {
        const id = await pick('invoices');
        if (id) await sendInvoice(ctx, accountId, id);
        return;
      }
      case 5: {
        const id = await pick('invoices');
        if (!id) return;
        const invoice = random.chance(0.5)
          ? await markPaid(ctx, accountId, id)
          : await recordPayment(ctx, accountId, id, { amount: 1 + random.int(50) });
        for (const payment of invoice.payments) ledger.payments.add(payment.id);
        return;
      }
      case 6: {
        const id = await pick('invoices');
        if (id) await voidInvoice(ctx, accountId, id);
        return;
      }
      case 7: {
        const id = await pick('invoices');
        if (!id) return;
        await deleteInvoice(ctx, accountId, id);
        ledger.deleted.add(id);
        return;
      }
      case 8: {
        const id = await pick('invoices');
        if (id)
          await updateInvoice(ctx, accountId, id, {
            items: items(random),
            notes: `note ${random.int(1000)}`,
          });
        return;
      }
      case 9: {
        const start = new Date(Date.parse('2026-12-01T15:00:00Z') + random.int(30) * 86_400_000);
        const job = await createJob(ctx, accountId, {
          customer_email: random.pick(EMAILS),
          title: 'Window cleaning',
          scheduled_start: start.toISOString(),
          scheduled_end: new Date(start.getTime() + 7_200_000).toISOString(),
          assignees: random.chance(0.5) ? [random.pick(['Sam', 'Lee'])] : [],
          price: 120,
        });
        ledger.created.add(job.id);
        return;
      }
      case 10: {
        const id = await pick('jobs');
        if (!id) return;
        const action = random.pick([startJob, completeJob, cancelJob]);
        // Half the time the crew starts and finishes a visit between two syncs, so visits are
        // completed and ask their customers for reviews (client-actions.ts).
        if (action === completeJob && random.chance(0.5)) await startJob(ctx, accountId, id);
        await action(ctx, accountId, id);
        return;
      }
      case 11: {
        const id = await pick('jobs');
        if (id)
          await updateJob(ctx, accountId, id, {
            title: `Job ${random.int(100)}`,
            address: `${random.int(99)} Main St`,
          });
        return;
      }
      case 12:
      case 23: {
        const quote = await createQuote(ctx, accountId, {
          customer_email: random.pick(EMAILS),
          items: items(random),
          taxes: TAXES,
        });
        ledger.created.add(quote.id);
        // Mostly marked sent at once (sendQuote only queues the e-mail), so customers have quotes
        // to answer on the hub's page.
        if (random.chance(0.6)) await markQuoteSent(ctx, accountId, quote.id);
        return;
      }
      case 13: {
        const id = await pick('quotes');
        if (!id) return;
        const answer = random.pick([sendQuote, acceptQuote, declineQuote]);
        if (answer !== sendQuote) ledger.answered.add(id);
        await answer(ctx, accountId, id);
        return;
      }
      case 14: {
        const email = random.pick(EMAILS);
        if (random.chance(0.5)) await addTags(ctx, accountId, email, [random.pick(['vip', 'weekly', 'new'])]);
        else await addNote(ctx, accountId, email, `Called on ${random.int(30)}`);
        return;
      }
      case 15: {
        const id = await pick('customers');
        if (!id) return;
        await deleteCustomer(ctx, accountId, id);
        ledger.deleted.add(id);
        return;
      }
      case 17: {
        // A service plan (docs/recurring-work.md): its visits are generated where it is made.
        const monthly = random.chance(0.3);
        const start = new Date(Date.parse('2026-11-24T00:00:00Z') + random.int(20) * 86_400_000);
        const plan = await createPlan(ctx, accountId, {
          customer_email: random.pick(EMAILS),
          title: 'Garden care',
          frequency: monthly ? 'monthly' : 'weekly',
          interval: 1 + random.int(2),
          weekdays: monthly ? [] : [random.pick(['MO', 'TU', 'WE', 'TH', 'FR'] as const)],
          month_day: monthly ? random.pick([28, 29, 30, 31, -1]) : null,
          start_date: start.toISOString().slice(0, 10),
          start_time: random.pick(['08:00', '09:30', '13:00']),
          end_time: '15:00',
          horizon_weeks: 2 + random.int(5),
          assignees: random.chance(0.5) ? [random.pick(['Sam', 'Lee'])] : [],
          price: 60 + random.int(60),
          billing: random.pick(['none', 'per_visit', 'per_period'] as const),
          invoice_delivery: random.pick(['draft', 'send'] as const),
          holidays: random.chance(0.3) ? ['2026-12-25', '2027-01-01'] : [],
          holiday_rule: random.pick(['skip', 'move'] as const),
        });
        ledger.created.add(plan.id);
        return;
      }
      case 18: {
        const id = await pick('service_plans');
        if (!id) return;
        await updatePlan(
          ctx,
          accountId,
          id,
          random.pick([
            { start_time: random.pick(['07:00', '10:00']) },
            { title: `Plan ${random.int(100)}`, notes: `note ${random.int(100)}` },
            { assignees: [random.pick(['Sam', 'Lee', 'Kim'])] },
            { horizon_weeks: 1 + random.int(8) },
          ]),
        );
        return;
      }
      case 19: {
        const id = await pick('service_plans');
        if (id && random.chance(0.4)) await endPlan(ctx, accountId, id);
        return;
      }
      case 20: {
        // The schedule's pass: only the hub (runsAutomation) does anything.
        await runRecurringWork(ctx);
        return;
      }
      case 22: {
        // An invoice made, sent and partly paid between two syncs: in hub order its payment comes
        // before the invoice (the payment changed its status), so another device may pull a page
        // holding the payment of an invoice it has never seen.
        const invoice = await createInvoice(ctx, accountId, {
          customer_email: random.pick(EMAILS),
          customer_name: random.pick(NAMES),
          items: items(random),
        });
        ledger.created.add(invoice.id);
        await sendInvoice(ctx, accountId, invoice.id);
        const paid = await recordPayment(ctx, accountId, invoice.id, { amount: 1 + random.int(10) });
        for (const payment of paid.payments) ledger.payments.add(payment.id);
        return;
      }
      case 21: {
        // The owner deals with a decision listed here: it must leave every machine's list.
        const open = await replica.engine.conflicts(accountId);
        if (open.length) await replica.engine.resolveConflict(accountId, random.pick(open).id);
        return;
      }
      case 24: {
        // The owner turns the booking page off or on again: requests sent while it was open are
        // applied, and those applied once it is closed are refused, alike on every machine.
        const page = await getBookingPage(ctx, accountId);
        // A page without services or hours cannot be opened (the API refuses it): worlds that never
        // set one up (snapshot-join, first-pairing) have nothing to toggle.
        if (page.services.length === 0 || page.hours.length === 0) return;
        await updateBookingPage(ctx, accountId, {
          enabled: !page.enabled,
          services: page.services.map(({ id, name, duration_minutes }) => ({ id, name, duration_minutes })),
          hours: page.hours,
        });
        return;
      }
      case 16: {
        if (random.chance(0.3)) {
          const endpoint = await createEndpoint(ctx, accountId, 'portal', {
            url: `http://127.0.0.1:9/${replica.name}`,
            events: ['*'],
            enabled: true,
          } as Parameters<typeof createEndpoint>[3]);
          const held = await ctx.db.selectFrom('events').select('id').execute();
          ledger.endpoints.set(endpoint.id, new Set(held.map((e) => e.id)));
        }
        return;
      }
    }
  } catch (error) {
    if (error instanceof ApiError && error.status < 500) return;
    throw new Error(`operation ${kind} on ${replica.name} failed: ${(error as Error).message}`, {
      cause: error,
    });
  }
}
