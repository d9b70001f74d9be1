import { useState } from 'react';
import { portal } from '../../lib/api';
import { useSubmit } from '../../lib/use-submit';
import { Button, Card, Field, FormAlert, fieldError, Input } from '../../ui';

/** A pasted pairing link carries its code: the code field is then not needed. */
function codeInLink(address: string): boolean {
  try {
    return new URL(address.trim()).searchParams.has('code');
  } catch {
    return false;
  }
}

/** On a computer that does not sync yet: becomes a device of a business whose hub is elsewhere. */
export function JoinHubCard() {
  const [address, setAddress] = useState('');
  const [code, setCode] = useState('');
  const [name, setName] = useState('');
  const { busy, error, run } = useSubmit();
  const linkHasCode = codeInLink(address);
  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    void run(async () => {
      const joined = await portal.post('/sync/join', {
        body: {
          hub_url: address.trim(),
          ...(!linkHasCode && code.trim() && { code: code.trim() }),
          ...(name.trim() && { name: name.trim() }),
        },
      });
      // The sign-in link opens the joined business in this window, in place of the one open now.
      window.location.assign(joined.sign_in_url);
    });
  };
  return (
    <Card title="Join a business on another computer">
      <form className="stack" onSubmit={submit} aria-label="Join a business" noValidate>
        <p className="muted">
          On the computer that holds the business, open Settings › Sync › Add a device. Then paste its pairing
          link here, or type its address and the code. This computer downloads the whole business and keeps it
          in sync from then on; the business open here now stays as it is.
        </p>
        <FormAlert error={error} params={['hub_url', 'code', 'name']} />
        <Field
          label="Pairing link or hub address"
          hint="e.g. http://192.168.1.20:4300"
          error={fieldError(error, 'hub_url')}
        >
          <Input
            type="url"
            value={address}
            onChange={(e) => setAddress(e.target.value)}
            autoComplete="off"
            spellCheck={false}
          />
        </Field>
        <div className="form-grid">
          <Field
            label="Pairing code"
            hint={linkHasCode ? 'The link holds the code' : 'e.g. 7KQ2M-XR4PA'}
            error={fieldError(error, 'code')}
          >
            <Input
              value={linkHasCode ? '' : code}
              onChange={(e) => setCode(e.target.value)}
              disabled={linkHasCode}
              autoComplete="off"
              spellCheck={false}
              className="input mono"
            />
          </Field>
          <Field
            label="Name for this computer"
            hint="Optional, e.g. Van laptop"
            error={fieldError(error, 'name')}
          >
            <Input value={name} onChange={(e) => setName(e.target.value)} maxLength={100} />
          </Field>
        </div>
        <div className="form-actions">
          {busy && (
            <span className="muted" role="status">
              Downloading the business from the hub…
            </span>
          )}
          <Button type="submit" variant="primary" write busy={busy}>
            Join business
          </Button>
        </div>
      </form>
    </Card>
  );
}
