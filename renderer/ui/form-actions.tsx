import { Button } from './button';

/** A form's way out and its submit button; submitting changes data, so a read-only plan disables it. */
export function FormActions({
  onCancel,
  cancelLabel = 'Cancel',
  submitLabel,
  busy,
}: {
  onCancel(): void;
  cancelLabel?: string;
  submitLabel: string;
  busy: boolean;
}) {
  return (
    <div className="form-actions">
      <Button onClick={onCancel}>{cancelLabel}</Button>
      <Button type="submit" variant="primary" busy={busy} write>
        {submitLabel}
      </Button>
    </div>
  );
}
