import { createContext, type ReactNode, useContext, useMemo } from 'react';
import { mayUse, type Permission } from '../../shared/roles';
import type { MemberRole } from '../../shared/schemas/team';
import type { ZoneData } from '../../shared/zone-data';
import { createFormatters, type Formatters } from './format';

export interface SessionInfo {
  client_id: string;
  business_name: string;
  plan: 'basic' | 'platform';
  api_plan: 'none' | 'lite' | 'essential' | 'business_suite' | 'growth';
  currency: string;
  locale: string;
  timezone: string;
  zone: ZoneData;
  /** Who is signed in: the UI offers only what this role may do; the server checks every call. */
  member: { id: string | null; name: string | null; role: MemberRole; can_see_prices: boolean };
}

export interface SessionValue {
  session: SessionInfo;
  format: Formatters;
  /** Portal writes need the Platform plan (contract part 2) and a role that writes; the UI disables them up front. */
  canWrite: boolean;
  /** Whether the signed-in member's role holds the permission (shared/roles.ts): screens not allowed are not offered. */
  may(permission: Permission): boolean;
  refresh(): void;
}

export const READ_ONLY_REASON = 'Your plan is Basic: it can view everything, changes need the Platform plan.';

const SessionContext = createContext<SessionValue | null>(null);

export function SessionProvider({
  session,
  refresh,
  children,
}: {
  session: SessionInfo;
  refresh(): void;
  children: ReactNode;
}) {
  const value = useMemo<SessionValue>(
    () => ({
      session,
      format: createFormatters(session.locale, session.currency, session.timezone),
      canWrite: session.plan === 'platform' && mayUse(session.member.role, 'write'),
      may: (permission: Permission) => mayUse(session.member.role, permission),
      refresh,
    }),
    [session, refresh],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionValue {
  const value = useContext(SessionContext);
  if (!value) throw new Error('useSession outside SessionProvider');
  return value;
}

export function useFormat(): Formatters {
  return useSession().format;
}

/**
 * Its children only for a role that holds the permission (shared/roles.ts, the table the server
 * checks): the one way a screen leaves out an action the signed-in member would be refused.
 */
export function Offered({ needs, children }: { needs: Permission; children: ReactNode }) {
  return useSession().may(needs) ? children : null;
}
