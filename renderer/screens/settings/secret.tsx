import { useState } from 'react';
import { Button, Notice } from '../../ui';

/** A secret shown once, with a copy button; the server never shows it again. */
export function SecretOnce({ label, secret }: { label: string; secret: string }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    await navigator.clipboard.writeText(secret);
    setCopied(true);
  };
  return (
    <div className="stack">
      <Notice tone="warning">
        Copy this {label} now: it is shown only once. Shopdesk keeps only a fingerprint of it.
      </Notice>
      <div className="secret-box">
        <code data-testid="secret">{secret}</code>
        <Button size="sm" onClick={copy}>
          {copied ? 'Copied' : 'Copy'}
        </Button>
      </div>
    </div>
  );
}
