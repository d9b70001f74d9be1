import type { TeamMemberCreate, TeamMemberUpdate } from '../../shared/schemas/team';
import type { Queryable, Tx } from '../db/database';
import type { TeamMembersTable } from '../db/schema';
import { invalidState, roleForbidden } from '../lib/errors';
import type { SignedInMember } from './member-sessions';

/**
 * Team members as people who sign in (docs/crew-design.md, "People and roles"): who may change
 * a member's role or price visibility, and the install's last owner kept.
 */

/** Role and price visibility are team roles: the owner's alone to set (office and crew get 403). */
export function checkOwnerFields(actor: SignedInMember, input: TeamMemberCreate | TeamMemberUpdate): void {
  if (actor.role === 'owner') return;
  if (input.role !== undefined) throw roleForbidden('Only an owner may set a team member’s role', 'role');
  if (input.can_see_prices !== undefined) {
    throw roleForbidden('Only an owner may choose who sees prices', 'can_see_prices');
  }
}

/**
 * Refuses to leave the business without an owner: demoting or deactivating the last active owner
 * (members made before roles existed are crew, and the install's own sign-in stays an owner).
 */
export async function keepAnOwner(
  tx: Tx,
  row: TeamMembersTable,
  next: { role: TeamMembersTable['role']; active: boolean },
): Promise<void> {
  const wasOwner = row.role === 'owner' && row.deactivated_at === null;
  if (!wasOwner || (next.role === 'owner' && next.active)) return;
  const others = await tx
    .selectFrom('team_members')
    .select('id')
    .where('account_id', '=', row.account_id)
    .where('role', '=', 'owner')
    .where('deactivated_at', 'is', null)
    .where('id', '!=', row.id)
    .executeTakeFirst();
  if (!others) {
    throw invalidState(`${row.name} is the only owner: make someone else an owner first`, {
      reason: 'last_owner',
    });
  }
}

/** Ends every session of a member and their unused invitations: the rows sync, every server checks them. */
export async function endMemberAccess(tx: Tx, memberId: string, now: string): Promise<void> {
  await tx
    .updateTable('member_sessions')
    .set({ revoked_at: now })
    .where('member_id', '=', memberId)
    .where('revoked_at', 'is', null)
    .execute();
  await tx
    .updateTable('member_invites')
    .set({ revoked_at: now })
    .where('member_id', '=', memberId)
    .where('used_at', 'is', null)
    .where('revoked_at', 'is', null)
    .execute();
}

/** Live sessions and passkeys per member, for the Team list. */
export async function accessCounts(
  db: Queryable,
  memberIds: string[],
  now: string,
): Promise<Map<string, { sessions: number; passkeys: number }>> {
  const counts = new Map(memberIds.map((id) => [id, { sessions: 0, passkeys: 0 }]));
  if (memberIds.length === 0) return counts;
  const sessions = await db
    .selectFrom('member_sessions')
    .select((eb) => ['member_id', eb.fn.countAll<number>().as('n')])
    .where('member_id', 'in', memberIds)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .groupBy('member_id')
    .execute();
  const passkeys = await db
    .selectFrom('member_passkeys')
    .select((eb) => ['member_id', eb.fn.countAll<number>().as('n')])
    .where('member_id', 'in', memberIds)
    .where('revoked_at', 'is', null)
    .groupBy('member_id')
    .execute();
  for (const s of sessions) counts.get(s.member_id)!.sessions = Number(s.n);
  for (const p of passkeys) counts.get(p.member_id)!.passkeys = Number(p.n);
  return counts;
}
