import type { ReactNode } from 'react';
import { Button } from './button';
import { Dialog } from './dialog';

/** A question before a destructive step: keeping things as they are is the first, safe button. */
export function ConfirmDialog({
  open,
  title,
  onClose,
  confirmLabel,
  onConfirm,
  busy,
  children,
}: {
  open: boolean;
  title: ReactNode;
  onClose(): void;
  confirmLabel: string;
  onConfirm(): void;
  busy: boolean;
  children: ReactNode;
}) {
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={title}
      footer={
        <>
          <Button onClick={onClose}>Keep it</Button>
          <Button variant="danger" write busy={busy} onClick={onConfirm}>
            {confirmLabel}
          </Button>
        </>
      }
    >
      {children}
    </Dialog>
  );
}
