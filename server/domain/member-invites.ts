import type { AppContext } from '../context';
import type { MemberInvitesTable, TeamMembersTable } from '../db/schema';
import { hashClientSecret, newClientSecret, secretMatches } from '../lib/client-token';
import { invalidState, notFound } from '../lib/errors';
import { newId } from '../lib/ids';
import { getAccount } from './accounts';
import { queueMail } from './mail';

/** How long an invitation link works (docs/crew-design.md, "Invitations"). */
export const INVITE_DAYS = 7;

const TOKEN = /^(minv_[0-9a-hjkmnp-tv-z]{26})\.([A-Za-z0-9_-]{43})$/;

export interface IssuedInvite {
  id: string;
  /** The link to open on the member's phone: shown once, never stored. */
  url: string;
  expires_at: string;
  /** Where the link was e-mailed, when the owner asked. */
  emailed_to: string | null;
}

/** The invitation id a token names, or undefined when it is not an invitation token at all. */
export function inviteIdOf(token: string): string | undefined {
  return TOKEN.exec(token)?.[1];
}

/**
 * The one rule for whether an invitation may be redeemed, whichever storage holds it: the secret
 * matches in constant time, it is unused, unrevoked and unexpired, and its member is on the team.
 */
export function inviteRedeemable(
  token: string,
  invite: MemberInvitesTable | undefined,
  member: Pick<TeamMembersTable, 'id' | 'deactivated_at'> | undefined,
  now: Date,
): boolean {
  const match = TOKEN.exec(token);
  if (!match || !invite || !member || invite.id !== match[1] || invite.member_id !== member.id) return false;
  if (!secretMatches(match[2]!, invite.token_hash)) return false;
  return !invite.used_at && !invite.revoked_at && new Date(invite.expires_at) > now && !member.deactivated_at;
}

/**
 * Where an invitation link points: the client hub's public address when the owner set one (the
 * crew reach the hosted hub or a served install from anywhere), else the address the owner is
 * using this install by.
 */
export function inviteBase(clientHubUrl: string | null, thisInstall: string): string {
  return (clientHubUrl ?? thisInstall).replace(/\/+$/, '');
}

/**
 * A new one-time link for a member; their older unused links stop working, so only the newest
 * invitation signs them in. E-mailed through the outbox when asked.
 */
export async function inviteMember(
  ctx: AppContext,
  accountId: string,
  memberId: string,
  options: { thisInstall: string; email: boolean },
): Promise<IssuedInvite> {
  return ctx.db.transaction().execute(async (tx) => {
    const member = await tx
      .selectFrom('team_members')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('id', '=', memberId)
      .executeTakeFirst();
    if (!member) throw notFound(`No team member ${memberId}`);
    if (member.deactivated_at) {
      throw invalidState(`${member.name} is no longer on the team; bring them back before inviting them`);
    }
    if (options.email && !member.email) {
      throw invalidState(`${member.name} has no e-mail address: add one, or show them the link`);
    }
    const now = ctx.clock.now();
    const nowIso = now.toISOString();
    await tx
      .updateTable('member_invites')
      .set({ revoked_at: nowIso })
      .where('member_id', '=', memberId)
      .where('used_at', 'is', null)
      .where('revoked_at', 'is', null)
      .execute();
    const secret = newClientSecret();
    const row: MemberInvitesTable = {
      id: newId('minv', now.getTime()),
      account_id: accountId,
      member_id: memberId,
      token_hash: hashClientSecret(secret),
      created_at: nowIso,
      expires_at: new Date(now.getTime() + INVITE_DAYS * 86_400_000).toISOString(),
      used_at: null,
      revoked_at: null,
    };
    await tx.insertInto('member_invites').values(row).execute();
    const { config } = await getAccount(tx, accountId);
    const url = `${inviteBase(config.client_hub_url, options.thisInstall)}/join/${row.id}.${secret}`;
    if (options.email && member.email) {
      await queueMail(tx, ctx, accountId, {
        kind: 'winback',
        purpose: 'member_invite',
        customerId: null,
        documentId: null,
        to: member.email,
        subject: `${config.business_name}: your sign-in link`,
        body: `Hi ${member.name},\n\n${config.business_name} invites you to sign in to see your visits. Open this link on your phone (it works once, for ${INVITE_DAYS} days):\n\n${url}\n\n${config.business_name}`,
      });
    }
    return { id: row.id, url, expires_at: row.expires_at, emailed_to: options.email ? member.email : null };
  });
}
