import { useEffect, useRef, useState } from 'react';
import type { OutboxMessage } from '../../shared/schemas/mail-outbox';
import { portal } from '../lib/api';
import type { Formatters } from '../lib/format';
import { useResource } from '../lib/use-resource';
import { Button, Card } from '../ui';
import { MailStatus, mailStatusWords } from './mail-status';
import { MessageDialog } from './message-dialog';

const newestMail = (documentId: string) =>
  portal.get('/messages', { params: { query: { document_id: documentId, limit: 1 } } });

/**
 * What to tell the owner after Send: where the e-mail now stands, in the words every screen uses
 * ("Queued, waits for e-mail settings"), never "sent" before it went out.
 */
export async function afterSendWords(
  doc: { id: string; number: string },
  format: Formatters,
): Promise<string> {
  const message = (await newestMail(doc.id)).data[0];
  return message ? `${doc.number}: ${mailStatusWords(message, format)}` : `${doc.number} queued`;
}

/** How often the page asks again while an e-mail is on its way, and while one waits (settings, network). */
const GOING_OUT_POLL_MS = 1500;
const WAITING_POLL_MS = 10_000;

/** Whether a message has yet to leave or fail: the document's page follows it until it settles. */
export function mailPending(message: OutboxMessage | undefined): boolean {
  return message?.status === 'queued' || message?.status === 'sending';
}

/**
 * An invoice's or quote's newest e-mail and where it stands, to open, send now or cancel.
 * `version` changes whenever the page queued a new one. While it is pending the card asks again
 * (the page has no other way to hear that it left), says so through `onPendingChange`, and once it
 * settles calls `onChange` so the page shows the document as the send left it (a draft turns sent).
 */
export function DocumentEmail({
  documentId,
  version,
  onChange,
  onPendingChange,
}: {
  documentId: string;
  version: number;
  onChange(): void;
  onPendingChange(pending: boolean): void;
}) {
  const [open, setOpen] = useState(false);
  const mail = useResource(() => newestMail(documentId), `mail:${documentId}:${version}`);
  const message = mail.data?.data[0];
  const pending = mailPending(message);
  const wasPending = useRef(false);
  const changed = useRef(onChange);
  changed.current = onChange;
  const reportPending = useRef(onPendingChange);
  reportPending.current = onPendingChange;

  useEffect(() => {
    reportPending.current(pending);
    if (wasPending.current && !pending) changed.current();
    wasPending.current = pending;
  }, [pending]);

  useEffect(() => {
    if (!message || !mailPending(message)) return;
    const timer = setTimeout(mail.reload, message.waiting_reason ? WAITING_POLL_MS : GOING_OUT_POLL_MS);
    return () => clearTimeout(timer);
  }, [message, mail.reload]);

  return (
    <Card title="E-mail">
      {message ? (
        <div className="stack" data-testid="document-email">
          <div>
            <MailStatus message={message} />
            <div className="cell-sub">to {message.to}</div>
          </div>
          <div>
            <Button size="sm" onClick={() => setOpen(true)}>
              Open e-mail
            </Button>
          </div>
          <MessageDialog
            message={open ? message : null}
            onClose={() => setOpen(false)}
            onChange={() => {
              setOpen(false);
              mail.reload();
              onChange();
            }}
          />
        </div>
      ) : (
        <span className="muted" data-testid="document-email">
          Not sent by e-mail yet.
        </span>
      )}
    </Card>
  );
}
