import { useState } from 'react';
import '../../styles/settings-logo.css';
import { portal, portalUrl } from '../../lib/api';
import { useSession } from '../../lib/session';
import { useResource } from '../../lib/use-resource';
import { useSubmit } from '../../lib/use-submit';
import { Button, Card, FormAlert, useToast } from '../../ui';

/** The image as base64, as PUT /logo takes it; the server reads its type from its bytes. */
function base64Of(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ''));
    reader.onerror = () => reject(reader.error ?? new Error('The file could not be read.'));
    reader.readAsDataURL(file);
  });
}

/**
 * The business's logo (docs/client-hub.md): on the customer's page, the public booking page and
 * every quote and invoice PDF. It syncs, so the hosted hub shows it while this computer is off.
 */
export function LogoSettings() {
  const { canWrite } = useSession();
  const toast = useToast();
  const [version, setVersion] = useState(0);
  const logo = useResource(
    () =>
      portal
        .get('/logo')
        .catch((error: { status?: number }) => (error.status === 404 ? null : Promise.reject(error))),
    `logo:${version}`,
  );
  const { busy, error, run } = useSubmit();
  const current = logo.data;

  const choose = (event: React.ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    return run(async () => {
      await portal.put('/logo', { body: { data: await base64Of(file) } });
      setVersion((v) => v + 1);
      toast.show('Logo saved');
    });
  };

  const remove = () =>
    run(async () => {
      await portal.delete('/logo');
      setVersion((v) => v + 1);
      toast.show('Logo removed');
    });

  return (
    <Card title="Logo">
      <div className="stack">
        <FormAlert error={error} params={['data']} />
        <p className="muted">
          A PNG or JPEG of at most 512 KB, shown on your customers’ page, your booking page and every quote
          and invoice PDF.
        </p>
        {current ? (
          <img
            className="settings-logo"
            src={portalUrl('/logo/image', { v: current.updated_at })}
            alt="Your logo"
            data-testid="settings-logo"
          />
        ) : (
          <p className="muted">No logo yet.</p>
        )}
        {canWrite && (
          <div className="settings-logo-actions">
            <label className="btn btn-secondary btn-md settings-logo-pick" aria-busy={busy}>
              {current ? 'Replace the logo…' : 'Upload a logo…'}
              <input
                type="file"
                className="sr-only"
                accept="image/png,image/jpeg"
                disabled={busy}
                onChange={choose}
              />
            </label>
            {current && (
              <Button variant="danger" busy={busy} onClick={remove}>
                Remove the logo
              </Button>
            )}
          </div>
        )}
      </div>
    </Card>
  );
}
