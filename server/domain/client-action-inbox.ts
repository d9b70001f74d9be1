import type { ClientAction, ClientActionResolve } from '../../shared/schemas/client-hub';
import type { AppContext } from '../context';
import type { ClientActionsTable } from '../db/schema';
import { isoNow } from '../lib/clock';
import { invalidState, notFound } from '../lib/errors';
import { derivedId, idTime } from '../lib/ids';
import { getAccount } from './accounts';
import { clientHubUrl, issueClientLink } from './client-links';
import { queueMail } from './mail';

/**
 * The owner's side of the client hub (docs/client-hub.md, "For the owner"): what customers did
 * that waits for the owner, dealing with it (with an answer e-mailed to the customer), and the
 * customer's links.
 */
export async function waitingActions(ctx: AppContext, accountId: string): Promise<ClientAction[]> {
  const rows = await ctx.db
    .selectFrom('client_actions as a')
    .leftJoin('customers as c', 'c.id', 'a.customer_id')
    .selectAll('a')
    .select('c.name as customer_name')
    .where('a.account_id', '=', accountId)
    .where('a.status', 'in', ['applied', 'refused'])
    .orderBy('a.id', 'desc')
    .limit(100)
    .execute();
  return rows.map(present);
}

function present(row: ClientActionsTable & { customer_name: string | null }): ClientAction {
  return {
    id: row.id,
    kind: row.kind,
    status: row.status,
    customer_id: row.customer_id,
    customer_name: row.customer_name,
    subject_id: row.subject_id,
    payload: JSON.parse(row.payload) as Record<string, string>,
    outcome: row.outcome,
    ip: row.ip,
    created_at: row.created_at,
  };
}

/** Marks the action dealt with; a reply goes to the customer by e-mail, once, and shows on their page. */
export async function resolveAction(
  ctx: AppContext,
  accountId: string,
  id: string,
  input: ClientActionResolve,
): Promise<ClientAction> {
  return ctx.db.transaction().execute(async (tx) => {
    const row = await tx
      .selectFrom('client_actions as a')
      .leftJoin('customers as c', 'c.id', 'a.customer_id')
      .selectAll('a')
      .select(['c.name as customer_name', 'c.email as customer_email'])
      .where('a.account_id', '=', accountId)
      .where('a.id', '=', id)
      .executeTakeFirst();
    if (!row) throw notFound(`No customer action ${id}`);
    if (row.status === 'pending')
      throw invalidState('This action has not been taken in yet: sync, then try again.');
    if (row.status === 'handled') throw invalidState('This action was already dealt with.');
    let outcome = row.outcome;
    if (input.reply) {
      if (!row.customer_email)
        throw invalidState('This customer has no e-mail address to send the answer to.');
      const { config } = await getAccount(tx, accountId);
      await queueMail(tx, ctx, accountId, {
        id: derivedId('msg', idTime(row.id) ?? ctx.clock.now().getTime(), `client_hub_reply:${row.id}`),
        kind: 'winback',
        purpose: 'client_hub_reply',
        customerId: row.customer_id,
        documentId: null,
        to: row.customer_email,
        subject: `${config.business_name}: about your request`,
        body: `Hi ${row.customer_name ?? ''},\n\n${input.reply}\n\n${config.business_name}`,
      });
      outcome = `Answered: ${input.reply}`;
    }
    await tx
      .updateTable('client_actions')
      .set({ status: 'handled', outcome, applied_at: row.applied_at ?? isoNow(ctx.clock) })
      .where('id', '=', id)
      .execute();
    return present({ ...row, status: 'handled', outcome });
  });
}

/** A new link to the customer's page, for the owner to send however they like (Copy client hub link). */
export async function newCustomerLink(ctx: AppContext, accountId: string, customerId: string) {
  return ctx.db.transaction().execute(async (tx) => {
    const { config } = await getAccount(tx, accountId);
    if (!config.client_hub_url) {
      throw invalidState('Set where your client hub is served first (Settings › Client hub).');
    }
    const customer = await tx
      .selectFrom('customers')
      .select('id')
      .where('account_id', '=', accountId)
      .where('id', '=', customerId)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    if (!customer) throw notFound(`No customer ${customerId}`);
    const link = await issueClientLink(tx, ctx, accountId, customerId);
    return { url: clientHubUrl(config.client_hub_url, link.token)!, expires_at: link.expires_at };
  });
}

/** Revokes every live link of the customer: every page they hold stops working. */
export async function revokeCustomerLinks(ctx: AppContext, accountId: string, customerId: string) {
  const result = await ctx.db
    .updateTable('client_links')
    .set({ revoked_at: isoNow(ctx.clock) })
    .where('account_id', '=', accountId)
    .where('customer_id', '=', customerId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return { revoked: Number(result.numUpdatedRows) };
}
