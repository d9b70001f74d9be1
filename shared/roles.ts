import type { MemberRole } from './schemas/team';

/**
 * What a role may do (docs/crew.md "Roles"), shared by the server's permission table
 * (server/http/portal/permissions.ts, which says what each portal operation needs) and the UI,
 * which offers only what the server would allow.
 *
 * - `self`: the caller's own session (who am I, sign out): everyone signed in.
 * - `own_visits`: the crew's share: their own assigned jobs and schedule, their own hours. A role
 *   without `read` gets these answers filtered to its own records.
 * - `read` / `write`: the business's records (customers, quotes, jobs, bookings, messages...).
 * - `billing`: money: invoices and their payments, and the money reports (sales tax, accounting export).
 * - `admin`: the owner's: API keys and integrations, webhooks, backups, sync, full exports,
 *   customer imports, team roles and invitations, others' sessions.
 */
export type Permission = 'self' | 'own_visits' | 'read' | 'write' | 'billing' | 'admin';

export const ROLE_PERMISSIONS: Record<MemberRole, readonly Permission[]> = {
  owner: ['self', 'own_visits', 'read', 'write', 'billing', 'admin'],
  office: ['self', 'own_visits', 'read', 'write', 'billing'],
  crew: ['self', 'own_visits'],
};

export function mayUse(role: MemberRole, permission: Permission): boolean {
  return ROLE_PERMISSIONS[role].includes(permission);
}
