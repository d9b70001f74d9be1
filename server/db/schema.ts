/**
 * Row types of every table (see migrations/). Kysely checks every query against these. Statuses
 * are the shared enums' (shared/schemas/), so a new status is one edit there.
 */

import type { BookingStatus } from '../../shared/schemas/booking';
import type { StoredInvoiceStatus } from '../../shared/schemas/invoice';
import type { JobStatus } from '../../shared/schemas/job';
import type { PropertyStatus } from '../../shared/schemas/property';
import type { StoredQuoteStatus } from '../../shared/schemas/quote';
import type { PlanStatus } from '../../shared/schemas/service-plan';
import type {
  EventsTable,
  IdempotencyKeysTable,
  MailMessagesTable,
  RateLimitWindowsTable,
  ReminderSendsTable,
  WebhookAttemptsTable,
  WebhookDeliveriesTable,
  WebhookEndpointsTable,
} from './schema-outbound';
import type {
  DecisionsTable,
  NumberBlocksTable,
  RecordChangesTable,
  SyncNodeTable,
  SyncSettingsTable,
} from './schema-sync';

export type * from './schema-figures';
export type * from './schema-outbound';
export type * from './schema-sync';

import type { CustomerImportRowsTable, CustomerImportsTable } from './import-schema';
import type {
  CustomerFiguresTable,
  OverviewDaysTable,
  OverviewSlotsTable,
  PaymentTaxSharesTable,
} from './schema-figures';
import type { CrewTables } from './schema-hours';
import type { PeopleTables, TeamMembersTable } from './schema-people';
import type {
  BookingPhotosTable,
  BookingRequestsTable,
  BusinessLogosTable,
  ReviewRequestsTable,
} from './schema-requests';

export type {
  MemberInvitesTable,
  MemberPasskeysTable,
  MemberSessionsTable,
  TeamMembersTable,
} from './schema-people';

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
  status: PropertyStatus;
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

export type ClientActionKind =
  | 'quote.approve'
  | 'quote.decline'
  | 'quote.changes'
  | 'invoice.payment_notice'
  | 'visit.reschedule'
  | 'link.renew'
  | 'review.submit'
  | 'booking.request'
  | 'booking.page';
/** `handled`: the owner dealt with what the action asked (recorded the payment, moved the visit). */
export type ClientActionStatus = 'pending' | 'refused' | 'applied' | 'handled';

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

export type { JobStatus, PlanStatus, PropertyStatus };

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
  status: PlanStatus;
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

export type { BookingStatus };

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

export type QuoteStatus = StoredQuoteStatus;

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

export type InvoiceStatus = StoredInvoiceStatus;

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

export interface Database extends CrewTables, PeopleTables {
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
  business_logos: BusinessLogosTable;
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
  payment_tax_shares: PaymentTaxSharesTable;
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
