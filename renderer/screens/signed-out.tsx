/** What a browser without a valid session sees: how to get a new one-time sign-in link. */
export function SignedOut({ reason }: { reason: 'expired' | 'signed-out' }) {
  return (
    <main className="signin">
      <div className="signin-card">
        <div className="brand-mark" aria-hidden="true">
          ✦
        </div>
        <h1>{reason === 'signed-out' ? 'You are signed out' : 'Sign in to Shopdesk'}</h1>
        <p>
          {reason === 'signed-out'
            ? 'Your session on this browser has ended.'
            : 'This browser has no Shopdesk session, or it has expired.'}{' '}
          Open a new sign-in link from the Shopdesk window, or run this on the machine where Shopdesk runs:
        </p>
        <pre>npm run cli -- sign-in</pre>
        <p>Sign-in links work once and for 15 minutes. Shopdesk never asks for a password or key here.</p>
      </div>
    </main>
  );
}
