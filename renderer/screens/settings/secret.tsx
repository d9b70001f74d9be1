import type { ReactNode } from 'react';
import { Button, CopyButton, Dialog, Notice } from '../../ui';

/** A secret shown once, with a copy button; the server never shows it again. */
export function SecretOnce({ label, secret }: { label: string; secret: string }) {
  return (
    <div className="stack">
      <Notice tone="warning">
        Copy this {label} now: it is shown only once. Shopdesk keeps only a fingerprint of it.
      </Notice>
      <div className="secret-box">
        <code data-testid="secret">{secret}</code>
        <CopyButton text={secret} />
      </div>
    </div>
  );
}

/** A dialog showing a secret just made, open while `secret` is set; `children` follow the secret. */
export function SecretDialog({
  title,
  label,
  secret,
  onClose,
  children,
}: {
  title: string;
  label: string;
  secret: string | undefined;
  onClose(): void;
  children?: ReactNode;
}) {
  return (
    <Dialog
      open={Boolean(secret)}
      onClose={onClose}
      title={title}
      footer={
        <Button variant="primary" onClick={onClose}>
          Done
        </Button>
      }
    >
      {secret && <SecretOnce label={label} secret={secret} />}
      {children}
    </Dialog>
  );
}
