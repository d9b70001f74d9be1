import type { AppContext, ClientLinkMaker } from '../context';
import type { Queryable, Tx } from '../db/database';
import type { ClientLinksTable } from '../db/schema';
import { hashClientSecret, newClientSecret } from '../lib/client-token';
import { type Clock, isoNow } from '../lib/clock';
import { notFound } from '../lib/errors';
import { newId } from '../lib/ids';
import { getAccount } from './accounts';

/** How long a client hub link works (docs/client-hub.md, "Links"). */
export const CLIENT_LINK_DAYS = 90;

export interface IssuedLink {
  id: string;
  /** The token of the URL: shown once, never stored. */
  token: string;
  expires_at: string;
}

/** Issues a link to one customer's page; the caller's transaction keeps it with what sends it. */
export async function issueClientLink(
  tx: Tx,
  ctx: Pick<AppContext, 'clock'>,
  accountId: string,
  customerId: string,
): Promise<IssuedLink> {
  const now = ctx.clock.now();
  const secret = newClientSecret();
  const row: ClientLinksTable = {
    id: newId('lnk', now.getTime()),
    account_id: accountId,
    customer_id: customerId,
    token_hash: hashClientSecret(secret),
    created_at: now.toISOString(),
    expires_at: new Date(now.getTime() + CLIENT_LINK_DAYS * 86_400_000).toISOString(),
    revoked_at: null,
  };
  await tx.insertInto('client_links').values(row).execute();
  return { id: row.id, token: `${row.id}.${secret}`, expires_at: row.expires_at };
}

/**
 * The link maker composition roots give the domain (AppContext.clientLinks): a review request's
 * link opens the visit's review form on the customer's page, where the business set its client
 * hub's address; without one there is no page to open and the request stays unsent.
 */
export function clientLinkMaker(clock: Clock): ClientLinkMaker {
  return {
    async reviewLink(tx, request) {
      const { config } = await getAccount(tx, request.accountId);
      if (!config.client_hub_url) return null;
      const link = await issueClientLink(tx, { clock }, request.accountId, request.customerId);
      return `${clientHubUrl(config.client_hub_url, link.token)}/reviews/${request.reviewRequestId}`;
    },
  };
}

/** The link's page address, when the business set where its client hub is served. */
export function clientHubUrl(base: string | null, token: string): string | null {
  return base ? `${base.replace(/\/+$/, '')}/c/${token}` : null;
}

export async function listClientLinks(db: Queryable, accountId: string, customerId: string) {
  return db
    .selectFrom('client_links')
    .select(['id', 'customer_id', 'created_at', 'expires_at', 'revoked_at'])
    .where('account_id', '=', accountId)
    .where('customer_id', '=', customerId)
    .orderBy('id', 'desc')
    .execute();
}

export async function revokeClientLink(ctx: AppContext, accountId: string, linkId: string): Promise<void> {
  const result = await ctx.db
    .updateTable('client_links')
    .set({ revoked_at: isoNow(ctx.clock) })
    .where('account_id', '=', accountId)
    .where('id', '=', linkId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  if (result.numUpdatedRows === 0n) throw notFound(`No active client hub link ${linkId}`);
}
