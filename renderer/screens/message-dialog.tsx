import type { OutboxMessage } from '../../shared/schemas/mail-outbox';
import { portal } from '../lib/api';
import { Button, Details, Dialog, useToast } from '../ui';
import { MailStatus } from './mail-status';
import { useBusyAction } from './use-busy-action';

/** Whether a message has not gone out and can still be sent or cancelled. */
export function isPending(message: OutboxMessage): boolean {
  return message.status === 'queued' || message.status === 'failed';
}

/** One e-mail opened: what it says, where it stands, and Send now or Cancel while it has not gone. */
export function MessageDialog({
  message,
  onClose,
  onChange,
}: {
  message: OutboxMessage | null;
  onClose(): void;
  onChange(updated: OutboxMessage): void;
}) {
  const toast = useToast();
  const { busy, perform } = useBusyAction<'send' | 'cancel'>();
  const act = (action: 'send' | 'cancel') =>
    perform(action, async () => {
      const updated = await portal.post(`/messages/{id}/${action}` as const, {
        params: { path: { id: message!.id } },
      });
      onChange(updated);
      toast.show(
        action === 'send' ? `“${updated.subject}” is going out now` : `“${updated.subject}” cancelled`,
      );
    });
  return (
    <Dialog
      open={message !== null}
      title={message?.subject ?? ''}
      onClose={onClose}
      wide
      footer={
        message &&
        isPending(message) && (
          <>
            <Button variant="danger" write busy={busy === 'cancel'} onClick={() => act('cancel')}>
              Cancel e-mail
            </Button>
            <Button variant="primary" write busy={busy === 'send'} onClick={() => act('send')}>
              Send now
            </Button>
          </>
        )
      }
    >
      {message && (
        <div className="stack">
          <Details
            items={[
              ['To', message.to],
              ['Status', <MailStatus key="status" message={message} />],
            ]}
          />
          <pre className="mail-body" data-testid="mail-body">
            {message.body}
          </pre>
        </div>
      )}
    </Dialog>
  );
}
