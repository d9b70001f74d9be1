/** Row types of every table (see migrations/). Kysely checks every query against these. */

import type { Generated } from 'kysely';
import type { CustomerImportRowsTable, CustomerImportsTable } from './import-schema';
import type {
  BookingPhotosTable,
  BookingRequestsTable,
  MailPurpose,
  ReviewRequestsTable,
} from './schema-requests';

export interface AccountsTable {
  id: string;
  plan: 'basic' | 'platform';
  api_plan: 'none' | 'lite' | 'essential' | 'business_suite' | 'growth';
  config: string;
  created_at: string;
  updated_at: string;
}

export interface CountersTable {
  account_id: string;
  name: string;
  value: number;
}

export interface ApiKeysTable {
  id: string;
  account_id: string;
  kind: 'portal' | 'v1' | 'feed';
  mode: 'live' | 'test';
  scopes: string;
  name: string | null;
  last4: string;
  created_at: string;
  revoked_at: string | null;
  last_used_at: string | null;
}

export interface ApiKeySecretsTable {
  hash: string;
  key_id: string;
  created_at: string;
  expires_at: string | null;
}

export interface SignInLinksTable {
  hash: string;
  account_id: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

export interface SessionsTable {
  hash: string;
  account_id: string;
  created_at: string;
  expires_at: string;
}

export interface CustomersTable {
  id: string;
  account_id: string;
  name: string;
  email: string | null;
  email_lower: string | null;
  phone: string | null;
  address: string | null;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}

/** A customer's service address (a place the crew goes); migration 0013. */
export interface PropertiesTable {
  id: string;
  account_id: string;
  customer_id: string;
  label: string | null;
  street: string;
  unit: string | null;
  city: string | null;
  region: string | null;
  postal_code: string | null;
  country: string | null;
  /** For the crew (gate code, key safe, pets, alarm); never on anything the customer gets. */
  access_notes: string | null;
  is_default: number;
  status: 'active' | 'archived';
  archived_at: string | null;
  created_at: string;
  updated_at: string;
}

/** A client hub link (migration 0018): only the hash of the URL's secret is kept. */
export interface ClientLinksTable {
  id: string;
  account_id: string;
  customer_id: string;
  token_hash: string;
  created_at: string;
  expires_at: string;
  revoked_at: string | null;
}

export type ClientActionKind = 'quote.approve' | 'quote.decline' | 'quote.changes' | 'link.renew';
export type ClientActionStatus = 'pending' | 'refused' | 'applied';

/** What a customer did on the client hub (migration 0019), applied once by an install. */
export interface ClientActionsTable {
  id: string;
  account_id: string;
  customer_id: string;
  link_id: string;
  kind: ClientActionKind;
  subject_id: string;
  /** JSON: what the form carried (name, reason, message). */
  payload: string;
  ip: string | null;
  created_at: string;
  status: ClientActionStatus;
  /** What applying it did, in words the customer and the owner read (a refusal's reason). */
  outcome: string | null;
  applied_at: string | null;
}

/** An owner's merge of one customer into another, kept so every synced device makes the same one. */
export interface CustomerMergesTable {
  from_id: string;
  account_id: string;
  to_id: string;
  merged_at: string;
}

export interface CustomerTagsTable {
  customer_id: string;
  tag: string;
}

export interface CustomerNotesTable {
  id: string;
  customer_id: string;
  text: string;
  created_at: string;
}

export interface TeamMembersTable {
  id: string;
  account_id: string;
  name: string;
  created_at: string;
  /** Set while the member is off the team for new work; finished jobs keep their name. */
  deactivated_at: string | null;
}

export type JobStatus = 'unscheduled' | 'scheduled' | 'in_progress' | 'completed' | 'cancelled';

export interface JobsTable {
  id: string;
  account_id: string;
  number: string;
  customer_id: string;
  title: string;
  status: JobStatus;
  scheduled_start: string | null;
  scheduled_end: string | null;
  address: string | null;
  price_cents: number | null;
  notes: string | null;
  quote_id: string | null;
  booking_id: string | null;
  started_at: string | null;
  completed_at: string | null;
  cancelled_at: string | null;
  created_at: string;
  updated_at: string;
  /** The service plan this job is a visit of (migration 0008), and the rule date it stands for. */
  plan_id?: string | null;
  plan_occurrence?: string | null;
  /** 1 once the owner moved, reassigned, edited or cancelled the visit: plan edits leave it alone. */
  plan_detached?: number;
  /** The invoice that billed this visit under its plan. */
  plan_invoice_id?: string | null;
  /** The customer's place the record is for (migration 0016); null: none named. */
  property_id?: string | null;
}

export type PlanFrequency = 'daily' | 'weekly' | 'monthly';

export interface ServicePlansTable {
  id: string;
  account_id: string;
  customer_id: string;
  title: string;
  address: string | null;
  price_cents: number | null;
  notes: string | null;
  /** JSON array of team member names. */
  assignees: string;
  frequency: PlanFrequency;
  interval: number;
  /** JSON array of RFC 5545 weekday codes (MO … SU). */
  weekdays: string;
  /** 1–31, or -1 for the last day of the month; monthly plans only. */
  month_day: number | null;
  start_date: string;
  /** HH:MM, wall clock in the business's time zone. */
  start_time: string;
  end_time: string;
  until_date: string | null;
  count: number | null;
  horizon_weeks: number;
  /** JSON array of YYYY-MM-DD dates. */
  holidays: string;
  holiday_rule: 'skip' | 'move';
  billing: 'none' | 'per_visit' | 'per_period';
  invoice_delivery: 'draft' | 'send';
  status: 'active' | 'ended';
  ended_at: string | null;
  created_at: string;
  updated_at: string;
  /** The customer's place the record is for (migration 0016); null: none named. */
  property_id?: string | null;
}

export interface JobAssigneesTable {
  job_id: string;
  member_id: string;
}

export type BookingStatus = 'pending' | 'confirmed' | 'completed' | 'cancelled' | 'no_show';

export interface BookingsTable {
  id: string;
  account_id: string;
  customer_id: string;
  service: string;
  start: string;
  end: string;
  notes: string | null;
  source: string | null;
  status: BookingStatus;
  job_id: string | null;
  created_at: string;
  updated_at: string;
  /** The customer's place the record is for (migration 0016); null: none named. */
  property_id?: string | null;
}

export type QuoteStatus = 'draft' | 'sent' | 'accepted' | 'declined' | 'converted';

export interface QuotesTable {
  id: string;
  account_id: string;
  number: string;
  customer_id: string;
  status: QuoteStatus;
  currency: string;
  issue_date: string;
  valid_until: string;
  subtotal_cents: number;
  tax_total_cents: number;
  total_cents: number;
  notes: string | null;
  sent_at: string | null;
  accepted_at: string | null;
  declined_at: string | null;
  converted_at: string | null;
  job_id: string | null;
  created_at: string;
  updated_at: string;
  /** The customer's place the record is for (migration 0016); null: none named. */
  property_id?: string | null;
}

export type InvoiceStatus = 'draft' | 'sent' | 'partially_paid' | 'paid' | 'void';

export interface InvoicesTable {
  id: string;
  account_id: string;
  number: string;
  customer_id: string;
  status: InvoiceStatus;
  currency: string;
  issue_date: string;
  due_date: string;
  subtotal_cents: number;
  tax_total_cents: number;
  total_cents: number;
  amount_paid_cents: number;
  notes: string | null;
  quote_id: string | null;
  job_id: string | null;
  sent_at: string | null;
  paid_at: string | null;
  voided_at: string | null;
  created_at: string;
  updated_at: string;
  /** The customer's place the record is for (migration 0016); null: none named. */
  property_id?: string | null;
}

export interface DocumentLinesTable {
  document_id: string;
  position: number;
  description: string;
  quantity: string;
  unit_price: string;
  amount_cents: number;
}

export interface DocumentTaxesTable {
  document_id: string;
  position: number;
  name: string;
  rate: string;
  amount_cents: number;
}

export interface PaymentsTable {
  id: string;
  account_id: string;
  invoice_id: string;
  amount_cents: number;
  method: string | null;
  paid_at: string;
  created_at: string;
}

export interface ReviewsTable {
  id: string;
  account_id: string;
  customer_id: string | null;
  job_id: string | null;
  rating: number;
  comment: string | null;
  source: string | null;
  received_at: string;
  created_at: string;
  updated_at: string;
}

export type MailStatus = 'queued' | 'sending' | 'sent' | 'failed';

export interface MailMessagesTable {
  id: string;
  account_id: string;
  kind: 'invoice' | 'quote' | 'winback';
  customer_id: string | null;
  document_id: string | null;
  to_address: string;
  subject: string;
  body: string;
  offer: string | null;
  status: MailStatus;
  attempts: number;
  next_attempt_at: string | null;
  last_error: string | null;
  created_at: string;
  sent_at: string | null;
  /** The install that sends it (sync): null means this one, for messages made before sync. */
  sending_node?: string | null;
  /** Set when the message will never go out; its stored status is then 'failed'. */
  cancelled_at: string | null;
  /** Which automatic reminder this is (migration 0009); null for every other message. */
  reminder?: ReminderKind | null;
  /** What a plain message is when not a win-back (migration 0023). */
  purpose?: MailPurpose | null;
}

export type ReminderKind = 'invoice_overdue' | 'appointment' | 'quote_follow_up';

export interface ReminderSendsTable {
  account_id: string;
  kind: ReminderKind;
  /** The invoice, job or quote the reminder is about. */
  subject_id: string;
  /** Which occasion of that record: 'overdue+7d', 'visit@2026-11-24T14:00:00Z', 'follow-up+3d'. */
  occasion: string;
  outcome: 'queued' | 'skipped';
  message_id: string | null;
  created_at: string;
}

export interface EventsTable {
  id: string;
  account_id: string;
  type: string;
  payload: string;
  created_at: string;
}

export interface IdempotencyKeysTable {
  scope: string;
  key: string;
  fingerprint: string;
  status_code: number | null;
  response: string | null;
  created_at: string;
}

export interface RateLimitWindowsTable {
  bucket: string;
  window_start: number;
  count: number;
}

export type WebhookInterface = 'portal' | 'v1';

export interface WebhookEndpointsTable {
  id: string;
  account_id: string;
  interface: WebhookInterface;
  url: string;
  description: string | null;
  /** JSON array of event types, or ["*"]. */
  events: string;
  enabled: 0 | 1;
  disabled_reason: 'manual' | 'consecutive_failures' | null;
  disabled_at: string | null;
  consecutive_failures: number;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: string | null;
  created_at: string;
  updated_at: string;
  /** The install that delivers it (sync): null means this one, for endpoints made before sync. */
  delivering_node?: string | null;
  /** Device-local: the last `event_arrivals.seq` here when it was made; it gets the events after. */
  arrival_mark?: number;
}

export type WebhookDeliveryStatus = 'pending' | 'sending' | 'succeeded' | 'failed';

export interface WebhookDeliveriesTable {
  id: string;
  account_id: string;
  endpoint_id: string;
  event_id: string;
  event_type: string;
  status: WebhookDeliveryStatus;
  attempts: number;
  max_attempts: number;
  next_attempt_at: string | null;
  last_response_code: number | null;
  last_error: string | null;
  redelivery_of: string | null;
  created_at: string;
  updated_at: string;
}

export interface WebhookAttemptsTable {
  id: string;
  delivery_id: string;
  attempt: number;
  status: 'succeeded' | 'failed';
  response_code: number | null;
  response_body: string | null;
  error: string | null;
  duration_ms: number;
  attempted_at: string;
  next_attempt_at: string | null;
}

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

export interface SyncNodeTable {
  id: string;
  last_hlc: string;
  clock_offset_ms: number;
}

export interface SyncSettingsTable {
  account_id: string;
  role: 'hub' | 'device';
  hub_url: string | null;
  /** SHA-256 of the hub's own certificate, pinned at pairing; null for a certificate an authority signed. */
  hub_fingerprint: string | null;
  device_id: string;
  device_code: string;
  credential: string | null;
  cursor: number;
  last_synced_at: string | null;
  last_attempt_at: string | null;
  last_error: string | null;
  created_at: string;
}

export interface DecisionsTable {
  /** `kind:record_id`: machines that see the same situation write one row. */
  id: string;
  account_id: string;
  kind: string;
  record_type: string;
  record_id: string;
  message: string;
  /** open and cleared merge by clock; resolved ranks above both (docs/sync.md). */
  status: 'open' | 'cleared' | 'resolved';
  detected_at: string;
  resolved_at: string | null;
}

export interface RecordChangesTable {
  id: Generated<number>;
  account_id: string;
  record_type: string;
  record_id: string;
  field: string;
  /** JSON texts of the values. */
  old_value: string | null;
  new_value: string | null;
  author: string;
  /** The node id of the install whose clock stamped the new value. */
  node: string;
  changed_at: string;
  replaced: number;
  restored_at: string | null;
}

export interface NumberBlocksTable {
  account_id: string;
  series: string;
  next_value: number;
  end_value: number;
}

export interface Database {
  accounts: AccountsTable;
  counters: CountersTable;
  api_keys: ApiKeysTable;
  api_key_secrets: ApiKeySecretsTable;
  sign_in_links: SignInLinksTable;
  sessions: SessionsTable;
  customers: CustomersTable;
  customer_tags: CustomerTagsTable;
  customer_notes: CustomerNotesTable;
  customer_merges: CustomerMergesTable;
  properties: PropertiesTable;
  client_links: ClientLinksTable;
  client_actions: ClientActionsTable;
  team_members: TeamMembersTable;
  jobs: JobsTable;
  service_plans: ServicePlansTable;
  job_assignees: JobAssigneesTable;
  bookings: BookingsTable;
  quotes: QuotesTable;
  invoices: InvoicesTable;
  document_lines: DocumentLinesTable;
  document_taxes: DocumentTaxesTable;
  payments: PaymentsTable;
  reviews: ReviewsTable;
  booking_requests: BookingRequestsTable;
  booking_photos: BookingPhotosTable;
  review_requests: ReviewRequestsTable;
  mail_messages: MailMessagesTable;
  reminder_sends: ReminderSendsTable;
  events: EventsTable;
  idempotency_keys: IdempotencyKeysTable;
  rate_limit_windows: RateLimitWindowsTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  overview_slots: OverviewSlotsTable;
  overview_days: OverviewDaysTable;
  customer_figures: CustomerFiguresTable;
  sync_node: SyncNodeTable;
  sync_settings: SyncSettingsTable;
  decisions: DecisionsTable;
  sync_decision_checks: { account_id: string; record_type: string; record_id: string };
  record_changes: RecordChangesTable;
  number_blocks: NumberBlocksTable;
  sync_event_fanout: { event_id: string };
  event_arrivals: { seq: number; event_id: string };
  customer_imports: CustomerImportsTable;
  customer_import_rows: CustomerImportRowsTable;
}
