import { useCallback, useEffect, useState } from 'react';
import { ApiRequestError, onSessionEnded, request, setPortalClient } from './lib/api';
import { useRoute } from './lib/router';
import { type SessionInfo, SessionProvider } from './lib/session';
import { setSessionZone } from './lib/zone-data';
import { SignedOut } from './screens/signed-out';
import { Shell } from './shell';
import { ErrorNotice, Spinner, ToastProvider } from './ui';

type State =
  | { kind: 'loading' }
  | { kind: 'signed-out' }
  | { kind: 'error'; error: Error }
  | { kind: 'ready'; session: SessionInfo };

export function App() {
  const [state, setState] = useState<State>({ kind: 'loading' });
  const route = useRoute();

  const load = useCallback(() => {
    request<SessionInfo>('GET', '/api/session').then(
      (session) => {
        // Every screen shows dates in the business's zone, whose rules come with the session.
        setSessionZone(session.zone);
        setPortalClient(session.client_id);
        document.title = `${session.business_name} · Shopdesk`;
        setState({ kind: 'ready', session });
      },
      (error: Error) =>
        setState(
          error instanceof ApiRequestError && error.status === 401
            ? { kind: 'signed-out' }
            : { kind: 'error', error },
        ),
    );
  }, []);

  useEffect(() => {
    load();
    return onSessionEnded(() => setState({ kind: 'signed-out' }));
  }, [load]);

  if (state.kind === 'loading') {
    return (
      <div className="center">
        <Spinner size={28} label="Loading Shopdesk" />
      </div>
    );
  }
  if (state.kind === 'signed-out')
    return <SignedOut reason={route.query.get('signed_out') ? 'signed-out' : 'expired'} />;
  if (state.kind === 'error') {
    return (
      <div className="center">
        <ErrorNotice error={state.error} onRetry={load} />
      </div>
    );
  }
  return (
    <SessionProvider session={state.session} refresh={load}>
      <ToastProvider>
        <Shell route={route} />
      </ToastProvider>
    </SessionProvider>
  );
}
