/** Row types of the figures triggers keep (overview rollups, the customer list's figures): never written by application code. */

/**
 * Overview rollups (migration 0004), kept by triggers on payments, invoices, jobs, customers and
 * quotes: sums per account and 15-minute UTC slot ('YYYY-MM-DDTHH:MM:00Z', minutes 00/15/30/45).
 * Never written by application code.
 */
export interface OverviewSlotsTable {
  account_id: string;
  slot: string;
  payments_cents: number;
  payments: number;
  /** Invoices with status paid, counted at their paid_at. */
  invoices_paid: number;
  /** Sum over those invoices of days from issue_date to the UTC date of paid_at. */
  invoice_days_to_pay: number;
  jobs_completed: number;
  new_customers: number;
  /** Quotes accepted or converted, counted at their decision time. */
  quotes_accepted: number;
  quotes_declined: number;
}

/** Overview rollup of non-void invoices per account and issue_date (migration 0004). */
export interface OverviewDaysTable {
  account_id: string;
  day: string;
  invoiced_cents: number;
  invoices: number;
}

/** What the customer list shows beside each customer, kept by triggers (migration 0021). */
export interface CustomerFiguresTable {
  customer_id: string;
  tags_json: string;
  notes_json: string;
  paid_cents: number;
  last_job_at: string | null;
}

/** Each payment's share of its invoice's sales and taxes (migration 0029); position -1: the payment's own row. */
export interface PaymentTaxSharesTable {
  account_id: string;
  paid_at: string;
  payment_id: string;
  position: number;
  invoice_id: string;
  name: string | null;
  rate: string | null;
  sales_cents: number;
  tax_cents: number;
  moved: number;
  untaxed: number;
}
