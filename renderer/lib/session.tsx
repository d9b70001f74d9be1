import { createContext, type ReactNode, useContext, useMemo } from 'react';
import { createFormatters, type Formatters } from './format';

export interface SessionInfo {
  client_id: string;
  business_name: string;
  plan: 'basic' | 'platform';
  api_plan: 'none' | 'lite' | 'essential' | 'business_suite' | 'growth';
  currency: string;
  locale: string;
  timezone: string;
}

export interface SessionValue {
  session: SessionInfo;
  format: Formatters;
  /** Portal writes need the Platform plan (contract part 2); the UI disables them up front. */
  canWrite: boolean;
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
      canWrite: session.plan === 'platform',
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
