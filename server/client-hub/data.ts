import type { StoredConfig } from '../../shared/schemas/config';
import type { ClientActionsTable, ClientLinksTable } from '../db/schema';
import { readStoredConfig } from '../domain/accounts';
import { invoicePdfFromRows } from './invoice-pdf';
import {
  documentParts,
  type InvoiceView,
  invoicesOf,
  linesOf,
  newestFirst,
  type PropertyView,
  propertiesOf,
  taxesOf,
  type VisitView,
  visitsOf,
} from './records';
import type { ClientHubRows, Row } from './rows';

/**
 * What the client hub's pages read and write (docs/client-hub.md, "Serving"): one renderer over
 * the rows of whichever storage serves it (rows.ts).
 */
export interface ClientHubData {
  /** The link with this id, whatever its state (the caller checks secret, expiry, revocation). */
  link(linkId: string): Promise<ClientLinksTable | undefined>;
  /** The business, when this server serves its client hub. */
  business(accountId: string): Promise<BusinessView | undefined>;
  customer(accountId: string, customerId: string): Promise<{ id: string; name: string } | undefined>;
  /** The customer's quotes that went out (not drafts), newest first. */
  quotes(accountId: string, customerId: string): Promise<QuoteView[]>;
  /** What the customer did, newest first. */
  actions(accountId: string, customerId: string): Promise<ClientActionsTable[]>;
  invoices(accountId: string, customerId: string): Promise<InvoiceView[]>;
  /** Upcoming and past visits, soonest first. */
  visits(accountId: string, customerId: string): Promise<VisitView[]>;
  properties(accountId: string, customerId: string): Promise<PropertyView[]>;
  /** The invoice's PDF as the business sends it, from the rows (invoice-pdf.ts). */
  invoicePdf(accountId: string, invoiceId: string): Promise<{ filename: string; pdf: Buffer }>;
  /** The business's logo, when it has one. */
  logo(accountId: string): Promise<LogoView | undefined>;
  /** Keeps the action durably before the page answers. */
  record(action: ClientActionsTable): Promise<void>;
  /** The rows underneath, for pages reading what the views above do not cover. */
  rows: ClientHubRows;
}

export interface BusinessView {
  name: string;
  email: string | null;
  phone: string | null;
  address: string | null;
  currency: string;
  locale: string;
  timezone: string;
  /** How to pay, as the owner wrote it (Settings › Client hub). */
  payment_instructions: string | null;
  /** Names the logo's current image (LogoView.version): null when the business has none. */
  logo_version: string | null;
  /** Where the page shows the logo from (set by the route that serves the page). */
  logo_url?: string;
}

export interface LogoView {
  content_type: string;
  bytes: Buffer;
  /** Changes whenever the logo does, so its URL may be cached for good. */
  version: string;
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

export interface DataOptions {
  /**
   * Serve only businesses whose owner said this server serves their page (an install's
   * `serve_client_hub`); the hosted hub serves every business it holds.
   */
  optIn: boolean;
  /** The time PDFs are made at. */
  now: () => Date;
}

export function clientHubData(rows: ClientHubRows, options: DataOptions): ClientHubData {
  return {
    link: async (linkId) =>
      (await rows.readRow(null, 'client_links', linkId))?.row as ClientLinksTable | undefined,
    business: async (accountId) => {
      const [config, logo] = await Promise.all([
        businessConfig(rows, accountId),
        rows.readRow(accountId, 'business_logos', accountId),
      ]);
      if (!config || (options.optIn && !config.serve_client_hub)) return undefined;
      return { ...businessView(config), logo_version: logo ? logoVersion(logo.row) : null };
    },
    logo: async (accountId) => {
      const found = await rows.readRow(accountId, 'business_logos', accountId);
      if (!found) return undefined;
      const { row } = found;
      return {
        content_type: String(row.content_type),
        bytes: Buffer.from(String(row.data), 'base64'),
        version: logoVersion(row),
      };
    },
    customer: async (accountId, customerId) => {
      const found = await rows.readRow(accountId, 'customers', customerId);
      return found && found.row.deleted_at == null
        ? { id: customerId, name: String(found.row.name) }
        : undefined;
    },
    quotes: async (accountId, customerId) => {
      const quotes = (
        await rows.readRows(accountId, 'quotes', { column: 'customer_id', values: [customerId] })
      ).filter((q) => q.status !== 'draft');
      const { lines, taxes } = await documentParts(rows, accountId, quotes);
      return quotes
        .map(
          (q): QuoteView => ({
            id: String(q.id),
            number: String(q.number),
            status: q.status as QuoteView['status'],
            issue_date: String(q.issue_date),
            valid_until: String(q.valid_until),
            currency: String(q.currency),
            notes: (q.notes as string | null) ?? null,
            lines: linesOf(lines, q.id),
            taxes: taxesOf(taxes, q.id),
          }),
        )
        .sort(newestFirst);
    },
    actions: async (accountId, customerId) =>
      (
        (await rows.readRows(accountId, 'client_actions', {
          column: 'customer_id',
          values: [customerId],
        })) as unknown as ClientActionsTable[]
      ).sort(newestFirst),
    invoices: (accountId, customerId) => invoicesOf(rows, accountId, customerId),
    visits: (accountId, customerId) => visitsOf(rows, accountId, customerId),
    properties: (accountId, customerId) => propertiesOf(rows, accountId, customerId),
    invoicePdf: (accountId, invoiceId) => invoicePdfFromRows(rows, accountId, invoiceId, options.now()),
    record: (action) => rows.writeRow(action.account_id, 'client_actions', { ...action }),
    rows,
  };
}

/** The business's configuration as its owner's Settings keep it, defaults for what it lacks. */
export async function businessConfig(
  rows: ClientHubRows,
  accountId: string,
): Promise<StoredConfig | undefined> {
  const account = await rows.readRow(accountId, 'accounts', accountId);
  if (!account) return undefined;
  return readStoredConfig(String(account.row.config));
}

/** The business as a page at `base` (/c/<token>, /book/<business>) shows it: its logo under that address. */
export function withLogoAt(business: BusinessView, base: string): BusinessView {
  return business.logo_version
    ? { ...business, logo_url: `${base}/logo/${business.logo_version}` }
    : business;
}

const logoVersion = (row: Row) => Date.parse(String(row.updated_at)).toString(36);

/** The business as its pages show it, without the logo (see `business` above). */
export function businessView(config: StoredConfig): Omit<BusinessView, 'logo_version'> {
  return {
    name: config.business_name,
    email: config.business_email,
    phone: config.business_phone,
    address: config.business_address,
    currency: config.currency,
    locale: config.locale,
    timezone: config.timezone,
    payment_instructions: config.payment_instructions,
  };
}
