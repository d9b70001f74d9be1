import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ClientActionsTable, ClientLinksTable } from '../db/schema';
import type { Clock } from '../lib/clock';
import type { ClientHubData } from './data';
import type { PageContext } from './page';

/** A valid link's customer page, opened. */
export interface Opened {
  link: ClientLinksTable;
  page: PageContext;
}

/**
 * What the client hub's page modules (review-page.ts, request-work-page.ts, booking-page-public.ts)
 * share from routes.ts, inside its plugin: the same rate limits, Origin check and CSP apply.
 */
export interface HubRouteContext {
  data: ClientHubData;
  clock: Clock;
  /** The link's page when the token is valid (right secret, not expired or revoked). */
  open(token: string): Promise<Opened | undefined>;
  /** Whether a posted form carries the page's own token. */
  formOk(opened: Opened, body: Record<string, unknown>): boolean;
  /** Counts one request against a window: the seconds to wait when it is full, else null. */
  limit(bucket: string, limit: number, windowMs: number): number | null;
  html(reply: FastifyReply, body: string, status?: number): FastifyReply;
  /**
   * The business's logo at `version` (a page links the current one), cached for a year: `private`
   * under a customer's link, `public` on the booking page. Not found otherwise.
   */
  sendLogo(
    reply: FastifyReply,
    accountId: string,
    version: string,
    cache: 'private' | 'public',
  ): Promise<FastifyReply>;
  /** Records the customer's action durably before the page answers. */
  record(
    opened: Opened,
    kind: ClientActionsTable['kind'],
    subjectId: string,
    payload: unknown,
    request: FastifyRequest,
  ): Promise<ClientActionsTable>;
}
