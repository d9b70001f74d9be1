import { CopyButton, Notice } from '../../ui';

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
