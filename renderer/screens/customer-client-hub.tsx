import { useState } from 'react';
import { portal } from '../lib/api';
import { href } from '../lib/router';
import { useFormat } from '../lib/session';
import { Button, Card, ConfirmDialog, CopyButton, useToast } from '../ui';
import { useBusyAction } from './use-busy-action';
import '../styles/customer-client-hub.css';

interface Issued {
  url: string;
  expires_at: string;
}

/**
 * The customer's client hub link: a new one issued and copied for the owner to send however they
 * like, and every link revoked when one went to the wrong person.
 */
export function ClientHubCard({ customerId, customerName }: { customerId: string; customerName: string }) {
  const format = useFormat();
  const toast = useToast();
  const { busy, perform } = useBusyAction<'issue' | 'revoke'>();
  const [issued, setIssued] = useState<Issued>();
  const [revoking, setRevoking] = useState(false);
  const path = { params: { path: { id: customerId } } };

  const issue = () =>
    perform('issue', async () => {
      const link = await portal.post('/customers/{id}/client-link', path);
      setIssued(link);
      // The clipboard is refused to plain-http pages other than localhost: the link stays shown to copy by hand.
      const copied = await navigator.clipboard.writeText(link.url).then(
        () => true,
        () => false,
      );
      toast.show(copied ? 'Client hub link copied' : 'Client hub link made: copy it below');
    });
  const revoke = async () => {
    const done = await perform('revoke', async () => {
      const { revoked } = await portal.post('/customers/{id}/client-links/revoke', path);
      setIssued(undefined);
      toast.show(revoked === 1 ? 'One link revoked' : `${revoked} links revoked`);
    });
    if (done) setRevoking(false);
  };

  return (
    <Card title="Client hub" className="client-hub-card">
      <div className="stack">
        <p className="muted">
          {customerName}’s own page: their quotes, invoices and visits. Quote e-mails carry a link; make one
          here to send another way (<a href={href('settings', 'client-hub')}>client hub settings</a>).
        </p>
        {issued && (
          <div className="client-hub-link">
            <code data-testid="client-hub-link">{issued.url}</code>
            <CopyButton text={issued.url} />
            <span className="muted">Works until {format.dateOf(issued.expires_at)}.</span>
          </div>
        )}
        <div className="row">
          <Button write busy={busy === 'issue'} onClick={issue}>
            Copy client hub link
          </Button>
          <Button variant="ghost" write onClick={() => setRevoking(true)}>
            Revoke links
          </Button>
        </div>
      </div>
      <ConfirmDialog
        open={revoking}
        title="Revoke client hub links?"
        onClose={() => setRevoking(false)}
        confirmLabel="Revoke links"
        onConfirm={revoke}
        busy={busy === 'revoke'}
      >
        <p>
          Every link {customerName} holds stops working at once, including those in e-mails already sent. You
          can make a new one afterwards.
        </p>
      </ConfirmDialog>
    </Card>
  );
}
