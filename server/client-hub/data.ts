import type { ClientActionsTable, ClientLinksTable } from '../db/schema';

/**
 * What the client hub's pages read and write (docs/client-hub.md, "Serving"): one renderer over
 * two sources, the hosted hub's rows (hub-data.ts) or an install's own database.
 */
export interface ClientHubData {
  /** The link with this id, whatever its state (the caller checks secret, expiry, revocation). */
  link(linkId: string): Promise<ClientLinksTable | undefined>;
  business(accountId: string): Promise<BusinessView | undefined>;
  customer(accountId: string, customerId: string): Promise<{ id: string; name: string } | undefined>;
  /** The customer's quotes that went out (not drafts), newest first. */
  quotes(accountId: string, customerId: string): Promise<QuoteView[]>;
  /** What the customer did, newest first. */
  actions(accountId: string, customerId: string): Promise<ClientActionsTable[]>;
  /** Keeps the action durably before the page answers. */
  record(action: ClientActionsTable): Promise<void>;
}

export interface BusinessView {
  name: string;
  email: string | null;
  phone: string | null;
  address: string | null;
  currency: string;
  locale: string;
  timezone: string;
}

export interface QuoteView {
  id: string;
  number: string;
  status: 'sent' | 'accepted' | 'declined' | 'converted';
  issue_date: string;
  valid_until: string;
  currency: string;
  notes: string | null;
  lines: Array<{ description: string; quantity: number; unit_price: number }>;
  taxes: Array<{ name: string; rate: number }>;
}
