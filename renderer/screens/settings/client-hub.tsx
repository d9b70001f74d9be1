import { useState } from 'react';
import type { Config } from '../../../shared/schemas/config';
import { portal } from '../../lib/api';
import { href } from '../../lib/router';
import { useSession } from '../../lib/session';
import { useResource } from '../../lib/use-resource';
import { useSubmit } from '../../lib/use-submit';
import { Button, Card, Checkbox, Field, FormAlert, fieldError, Input, Textarea, useToast } from '../../ui';
import { Loaded } from '../common';

/** Where customers reach the client hub, whether this install serves it, and how they pay (docs/client-hub.md). */
export function ClientHubSettings() {
  const config = useResource(() => portal.get('/config'), 'config');
  return <Loaded resource={config}>{(c) => <ClientHubForm config={c} onSaved={config.set} />}</Loaded>;
}

function ClientHubForm({ config, onSaved }: { config: Config; onSaved(config: Config): void }) {
  const { canWrite } = useSession();
  const toast = useToast();
  const [url, setUrl] = useState(config.client_hub_url ?? '');
  const [serve, setServe] = useState(config.serve_client_hub);
  const [instructions, setInstructions] = useState(config.payment_instructions ?? '');
  const [photos, setPhotos] = useState(config.crew_photos_in_client_hub);
  const [onMyWay, setOnMyWay] = useState(config.crew_on_my_way_email);
  const { busy, error, run } = useSubmit();

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    return run(async () => {
      const saved = await portal.put('/config', {
        body: {
          client_hub_url: url.trim() || null,
          serve_client_hub: serve,
          payment_instructions: instructions.trim() || null,
          crew_photos_in_client_hub: photos,
          crew_on_my_way_email: onMyWay,
        },
      });
      onSaved(saved);
      toast.show('Client hub settings saved');
    });
  };

  return (
    <form className="stack" onSubmit={submit} noValidate aria-label="Client hub settings">
      <FormAlert
        error={error}
        params={[
          'client_hub_url',
          'serve_client_hub',
          'payment_instructions',
          'crew_photos_in_client_hub',
          'crew_on_my_way_email',
        ]}
      />
      <Card title="Client hub">
        <div className="stack">
          <p className="muted">
            Your customers’ own page: they approve quotes, see invoices and visits, and tell you they paid.
            Quote e-mails carry a personal link to it once its public address is set. It shows your business’s
            name, contact and <a href={href('settings', 'business')}>logo (Settings › Business)</a>.
          </p>
          <Field
            label="Public address"
            hint="Your hosted hub’s address, or this install’s HTTPS address"
            error={fieldError(error, 'client_hub_url')}
          >
            <Input
              type="url"
              value={url}
              placeholder="https://hub.example.com"
              disabled={!canWrite}
              onChange={(e) => setUrl(e.target.value)}
            />
          </Field>
          <Checkbox
            label="Serve the client hub from this computer"
            checked={serve}
            disabled={!canWrite}
            onChange={(e) => setServe(e.target.checked)}
          />
          <p className="muted">
            Only when the address above is this install’s own, served over HTTPS. Otherwise the hosted hub
            serves it, even while your computers are off.
          </p>
          <Field
            label="How to pay"
            hint="Shown on every unpaid invoice: e-Transfer address, cheque, phone. Card payments are not offered."
            error={fieldError(error, 'payment_instructions')}
          >
            <Textarea
              rows={3}
              value={instructions}
              disabled={!canWrite}
              onChange={(e) => setInstructions(e.target.value)}
            />
          </Field>
        </div>
      </Card>
      <Card title="The crew">
        <div className="stack">
          <p className="muted">
            Your crew’s phone app is served at the same address, under /crew/ (invite them from Team).
          </p>
          <Checkbox
            label="Show the crew’s photos of a completed visit on the customer’s page"
            checked={photos}
            disabled={!canWrite}
            onChange={(e) => setPhotos(e.target.checked)}
          />
          <Checkbox
            label="E-mail the customer when the crew taps On my way"
            checked={onMyWay}
            disabled={!canWrite}
            onChange={(e) => setOnMyWay(e.target.checked)}
          />
        </div>
      </Card>
      <div className="form-actions">
        <Button type="submit" variant="primary" busy={busy} write>
          Save client hub settings
        </Button>
      </div>
    </form>
  );
}
