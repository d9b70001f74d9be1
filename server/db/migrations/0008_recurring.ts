import { type Kysely, sql } from 'kysely';

/**
 * Recurring work (docs/recurring-work.md).
 *
 * service_plans: a customer's recurring service. The rule columns map onto an RFC 5545 RRULE
 * (frequency, interval, weekdays, month_day, until_date or count) anchored at start_date, with a
 * wall-clock time of day in the business's time zone; holidays the owner lists are skipped or
 * moved to the next free day. Billing: none, one invoice per completed visit, or one per calendar
 * month for the visits completed in it; each drafted or sent as the owner chose.
 *
 * jobs.plan_id and jobs.plan_occurrence: a visit of a plan and the rule date it stands for (its id
 * is derived from the two, so every install that generates it writes the same row).
 * jobs.plan_detached: the owner moved, reassigned, edited or cancelled the visit; a plan edit
 * leaves it alone. jobs.plan_invoice_id: the invoice that billed the visit under its plan.
 *
 * No foreign key from jobs to plans: synced rows arrive in the order they were made, and a
 * visit must be applicable on its own (like jobs.quote_id and jobs.booking_id).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const statements = [
    `CREATE TABLE service_plans (
      id TEXT PRIMARY KEY,
      account_id TEXT NOT NULL REFERENCES accounts(id),
      customer_id TEXT NOT NULL REFERENCES customers(id),
      title TEXT NOT NULL,
      address TEXT,
      price_cents INTEGER,
      notes TEXT,
      assignees TEXT NOT NULL DEFAULT '[]',
      frequency TEXT NOT NULL CHECK (frequency IN ('daily','weekly','monthly')),
      interval INTEGER NOT NULL DEFAULT 1,
      weekdays TEXT NOT NULL DEFAULT '[]',
      month_day INTEGER,
      start_date TEXT NOT NULL,
      start_time TEXT NOT NULL,
      end_time TEXT NOT NULL,
      until_date TEXT,
      count INTEGER,
      horizon_weeks INTEGER NOT NULL DEFAULT 8,
      holidays TEXT NOT NULL DEFAULT '[]',
      holiday_rule TEXT NOT NULL DEFAULT 'skip' CHECK (holiday_rule IN ('skip','move')),
      billing TEXT NOT NULL DEFAULT 'none' CHECK (billing IN ('none','per_visit','per_period')),
      invoice_delivery TEXT NOT NULL DEFAULT 'draft' CHECK (invoice_delivery IN ('draft','send')),
      status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active','ended')),
      ended_at TEXT,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    )`,
    `CREATE INDEX service_plans_account ON service_plans(account_id, id)`,
    `CREATE INDEX service_plans_customer ON service_plans(customer_id)`,
    `ALTER TABLE jobs ADD COLUMN plan_id TEXT`,
    `ALTER TABLE jobs ADD COLUMN plan_occurrence TEXT`,
    `ALTER TABLE jobs ADD COLUMN plan_detached INTEGER NOT NULL DEFAULT 0`,
    `ALTER TABLE jobs ADD COLUMN plan_invoice_id TEXT`,
    `CREATE INDEX jobs_plan ON jobs(plan_id, plan_occurrence) WHERE plan_id IS NOT NULL`,
  ];
  for (const statement of statements) await sql.raw(statement).execute(db);
}
