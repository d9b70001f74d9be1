import { useEffect, useRef, useState } from 'react';
import type { SyncPairing } from '../../../shared/schemas/sync';
import { portal } from '../../lib/api';
import { useFormat, useSession } from '../../lib/session';
import { useSubmit } from '../../lib/use-submit';
import { refreshSyncStatus } from '../../lib/use-sync-status';
import { Button, Card, CopyButton, Field, FormAlert, fieldError, Input } from '../../ui';

/** On the hub, or on a computer about to become it: a one-time code for a new device. */
export function AddDeviceCard({ firstPairing }: { firstPairing: boolean }) {
  const { session } = useSession();
  const [name, setName] = useState('');
  const [pairing, setPairing] = useState<SyncPairing>();
  const { busy, error, run } = useSubmit();
  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    void run(async () => {
      setPairing(await portal.post('/sync/pair', { body: name.trim() ? { name: name.trim() } : {} }));
      void refreshSyncStatus();
    });
  };
  return (
    <Card title="Add a device">
      <div className="stack">
        <p className="muted">
          On the other computer, open Shopdesk, go to Settings › Sync › Join a business on another computer,
          and enter the code or paste the link. The code works once, for 15 minutes.
          {firstPairing && (
            <>
              {' '}
              The first device you add makes this computer the hub of {session.business_name}: leave it on and
              reachable from the other computers so they can sync.
            </>
          )}
        </p>
        <form className="sync-pair-form" onSubmit={submit} noValidate>
          <FormAlert error={error} params={['name']} />
          <Field label="Device name (optional)" error={fieldError(error, 'name')}>
            <Input
              value={name}
              onChange={(e) => setName(e.target.value)}
              maxLength={100}
              placeholder="e.g. Van laptop"
            />
          </Field>
          <Button type="submit" variant="primary" write busy={busy}>
            {pairing ? 'Create another code' : 'Create pairing code'}
          </Button>
        </form>
        {pairing && <PairingCode key={pairing.pairing_code} pairing={pairing} />}
      </div>
    </Card>
  );
}

function PairingCode({ pairing }: { pairing: SyncPairing }) {
  const format = useFormat();
  const heading = useRef<HTMLHeadingElement>(null);
  // A new code is the answer to the click: move there so a screen reader reads it out.
  useEffect(() => heading.current?.focus(), []);
  const command = `npm run --silent cli -- sync join --hub ${pairing.hub_url} --code ${pairing.pairing_code}`;
  return (
    <section className="sync-pairing" aria-labelledby="sync-pairing-heading">
      <h3 id="sync-pairing-heading" ref={heading} tabIndex={-1}>
        Pairing code
      </h3>
      <div className="sync-code-row">
        <output className="sync-code" data-testid="pairing-code">
          {pairing.pairing_code}
        </output>
        <CopyButton text={pairing.pairing_code} label="Copy code" />
      </div>
      <p className="muted">Expires at {format.time(pairing.expires_at)}, and works once</p>
      <div className="field">
        <span className="sync-label">Or paste this link on the other computer</span>
        <div className="sync-copy-row">
          <code data-testid="pairing-link">{pairing.pairing_link}</code>
          <CopyButton text={pairing.pairing_link} label="Copy link" />
        </div>
      </div>
      <details className="sync-cli">
        <summary>Joining from the command line</summary>
        <p className="muted">On the other computer, in the Shopdesk folder:</p>
        <div className="sync-copy-row">
          <code>{command}</code>
          <CopyButton text={command} />
        </div>
      </details>
    </section>
  );
}
