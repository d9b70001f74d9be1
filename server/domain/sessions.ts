import type { AppContext } from '../context';
import { isoNow, toIso } from '../lib/clock';
import { ApiError } from '../lib/errors';
import { hashSecret, newSecret, SECRET_PREFIXES } from '../lib/secrets';

const SIGN_IN_LINK_TTL_MS = 15 * 60 * 1000;
export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;

/** A one-time token for the portal UI's sign-in link; it is worth nothing once redeemed or after 15 minutes. */
export async function createSignInToken(ctx: AppContext, accountId: string): Promise<string> {
  const token = newSecret(SECRET_PREFIXES.signIn);
  const now = ctx.clock.now();
  await ctx.db
    .insertInto('sign_in_links')
    .values({
      hash: hashSecret(token),
      account_id: accountId,
      created_at: toIso(now),
      expires_at: toIso(new Date(now.getTime() + SIGN_IN_LINK_TTL_MS)),
      used_at: null,
    })
    .execute();
  return token;
}

/** Trades a sign-in token for a session token (kept by the browser in an http-only cookie). */
export async function redeemSignInToken(
  ctx: AppContext,
  token: string,
): Promise<{ accountId: string; session: string; expiresAt: Date }> {
  const now = ctx.clock.now();
  return ctx.db.transaction().execute(async (tx) => {
    const link = await tx
      .selectFrom('sign_in_links')
      .selectAll()
      .where('hash', '=', hashSecret(token))
      .executeTakeFirst();
    if (!link || link.used_at || new Date(link.expires_at) <= now) {
      throw new ApiError(401, 'sign_in_link_invalid', 'This sign-in link was already used or has expired.');
    }
    await tx
      .updateTable('sign_in_links')
      .set({ used_at: toIso(now) })
      .where('hash', '=', link.hash)
      .execute();
    const session = newSecret(SECRET_PREFIXES.session);
    const expiresAt = new Date(now.getTime() + SESSION_TTL_MS);
    await tx
      .insertInto('sessions')
      .values({
        hash: hashSecret(session),
        account_id: link.account_id,
        created_at: toIso(now),
        expires_at: toIso(expiresAt),
      })
      .execute();
    return { accountId: link.account_id, session, expiresAt };
  });
}

export async function authenticateSession(ctx: AppContext, session: string): Promise<string | undefined> {
  const row = await ctx.db
    .selectFrom('sessions')
    .select(['account_id', 'expires_at'])
    .where('hash', '=', hashSecret(session))
    .where('expires_at', '>', isoNow(ctx.clock))
    .executeTakeFirst();
  return row?.account_id;
}

export async function endSession(ctx: AppContext, session: string): Promise<void> {
  await ctx.db.deleteFrom('sessions').where('hash', '=', hashSecret(session)).execute();
}
