import { type ReactNode, useEffect, useRef } from 'react';

/** Where focus lands when a dialog opens: a marked control, its first form control, else the browser's choice. */
const MARKED = '.dialog-body [data-autofocus]';
const FIRST_CONTROL = '.dialog-body :is(input:not([type="hidden"]), textarea, select):not(:disabled)';

/**
 * A modal on the native <dialog>: focus is trapped and restored by the browser, Escape closes it.
 * React's autoFocus runs while the dialog is still hidden, so the first control is focused here,
 * after showModal, instead of the close button the browser would pick.
 */
export function Dialog({
  open,
  title,
  onClose,
  children,
  footer,
  wide = false,
}: {
  open: boolean;
  title: ReactNode;
  onClose(): void;
  children: ReactNode;
  footer?: ReactNode;
  wide?: boolean;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      dialog.showModal();
      (
        dialog.querySelector<HTMLElement>(MARKED) ?? dialog.querySelector<HTMLElement>(FIRST_CONTROL)
      )?.focus();
    }
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog
      ref={ref}
      className={`dialog${wide ? ' dialog-wide' : ''}`}
      onClose={onClose}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
    >
      {open && (
        <>
          <header className="dialog-header">
            <h2>{title}</h2>
            <button type="button" className="icon-button" aria-label="Close" onClick={onClose}>
              ×
            </button>
          </header>
          <div className="dialog-body">{children}</div>
          {footer && <footer className="dialog-footer">{footer}</footer>}
        </>
      )}
    </dialog>
  );
}
