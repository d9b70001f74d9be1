import type {
  BookingStatus,
  ClientActionStatus,
  DecisionsTable,
  InvoiceStatus,
  JobStatus,
  PlanStatus,
  PropertyStatus,
  QuoteStatus,
} from '../db/schema';
import type { TimeEntryStatus } from '../db/schema-hours';

/**
 * Status columns merge by rank first, then by clock (docs/sync.md, "Statuses"). Each list names
 * every status of its shared enum (shared/schemas/, through db/schema.ts): a status added there and left out here does not compile.
 */
type Ranks<Status extends string> = Record<Status, number>;

export const PROPERTY_RANKS: Ranks<PropertyStatus> = { active: 0, archived: 1 };
export const JOB_RANKS: Ranks<JobStatus> = {
  unscheduled: 0,
  scheduled: 0,
  in_progress: 1,
  cancelled: 2,
  completed: 3,
};
export const PLAN_RANKS: Ranks<PlanStatus> = { active: 0, ended: 1 };
export const BOOKING_RANKS: Ranks<BookingStatus> = {
  pending: 0,
  confirmed: 1,
  cancelled: 2,
  no_show: 2,
  completed: 3,
};
export const QUOTE_RANKS: Ranks<QuoteStatus> = {
  draft: 0,
  sent: 1,
  declined: 2,
  accepted: 3,
  converted: 4,
};
export const INVOICE_RANKS: Ranks<InvoiceStatus> = {
  draft: 0,
  sent: 1,
  partially_paid: 1,
  paid: 1,
  void: 2,
};
/** Decisions never leave the server's tables (no wire schema): their status is schema-sync.ts's. */
export const DECISION_RANKS: Ranks<DecisionsTable['status']> = { open: 0, cleared: 0, resolved: 1 };
export const TIME_ENTRY_RANKS: Ranks<TimeEntryStatus> = { kept: 0, deleted: 1 };
/** Applied beats refused beats pending (two installs that applied it while apart end on one answer); the owner's handling beats all. */
export const CLIENT_ACTION_RANKS: Ranks<ClientActionStatus> = {
  pending: 0,
  refused: 1,
  applied: 2,
  handled: 3,
};
