import type { Review } from '../../shared/schemas/review';
import { portal } from '../lib/api';
import { zonedLocalToIso } from '../lib/format';
import { useSession } from '../lib/session';
import { useDraft } from '../lib/use-draft';
import { useSubmit } from '../lib/use-submit';
import { Dialog, Field, FormActions, FormAlert, fieldError, Input, Textarea } from '../ui';
import { customerReference } from './customer-fields';
import { CustomerPicker } from './customer-picker';

interface Draft {
  rating: number;
  comment: string;
  customer_id: string;
  customer_email: string;
  customer_name: string;
  job_number: string;
  source: string;
  received_at: string;
}

const EMPTY: Draft = {
  rating: 5,
  comment: '',
  customer_id: '',
  customer_email: '',
  customer_name: '',
  job_number: '',
  source: 'manual',
  received_at: '',
};

const PARAMS = [
  'rating',
  'comment',
  'customer_email',
  'customer_name',
  'job_number',
  'source',
  'received_at',
];

/** Five radio buttons drawn as stars: arrow keys move the rating, as in any radio group. */
function RatingInput({ value, onChange }: { value: number; onChange(value: number): void }) {
  return (
    <fieldset className="rating-input">
      <legend>Rating</legend>
      {[1, 2, 3, 4, 5].map((stars) => (
        <label key={stars} className={stars <= value ? 'on' : undefined}>
          <input
            type="radio"
            name="rating"
            value={stars}
            checked={value === stars}
            data-autofocus={value === stars || undefined}
            onChange={() => onChange(stars)}
            className="sr-only"
          />
          <span aria-hidden="true">★</span>
          <span className="sr-only">
            {stars} star{stars > 1 ? 's' : ''}
          </span>
        </label>
      ))}
      <span className="cell-sub">{value} of 5</span>
    </fieldset>
  );
}

/** A review a customer gave in person, by phone or on a site Shopdesk does not read. */
export function RecordReviewDialog({
  open,
  onClose,
  onRecorded,
}: {
  open: boolean;
  onClose(): void;
  onRecorded(review: Review): void;
}) {
  const { session } = useSession();
  const { draft, setDraft, set } = useDraft(EMPTY);
  const { busy, error, run } = useSubmit();

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    return run(async () => {
      const review = await portal.post('/reviews', {
        body: {
          rating: draft.rating,
          ...(draft.comment.trim() && { comment: draft.comment.trim() }),
          ...((draft.customer_id || draft.customer_email.trim()) && customerReference(draft)),
          ...(draft.job_number.trim() && { job_number: draft.job_number.trim() }),
          ...(draft.source.trim() && { source: draft.source.trim() }),
          ...(draft.received_at && { received_at: zonedLocalToIso(draft.received_at, session.timezone) }),
        },
      });
      setDraft(EMPTY);
      onRecorded(review);
    });
  };

  return (
    <Dialog open={open} onClose={onClose} title="Record a review" wide>
      <form onSubmit={submit} noValidate className="stack" aria-label="Record a review">
        <FormAlert error={error} params={PARAMS} />
        <RatingInput value={draft.rating} onChange={(rating) => setDraft({ ...draft, rating })} />
        <Field label="What they said" hint="Optional" error={fieldError(error, 'comment')}>
          <Textarea value={draft.comment} onChange={set('comment')} rows={3} />
        </Field>
        <div className="form-grid">
          <CustomerPicker
            customerId={draft.customer_id}
            email={draft.customer_email}
            name={draft.customer_name}
            onChange={(choice) => setDraft((d) => ({ ...d, ...choice }))}
            error={error}
            emailHint="Optional; a new e-mail adds the customer"
          />
          <Field
            label="Job"
            hint="Optional, e.g. J-0012; it names the customer too"
            error={fieldError(error, 'job_number')}
          >
            <Input value={draft.job_number} onChange={set('job_number')} placeholder="J-0001" />
          </Field>
          <Field label="Source" hint="google, facebook, phone, …" error={fieldError(error, 'source')}>
            <Input value={draft.source} onChange={set('source')} />
          </Field>
          <Field label="Received" hint="Leave empty for now" error={fieldError(error, 'received_at')}>
            <Input type="datetime-local" value={draft.received_at} onChange={set('received_at')} />
          </Field>
        </div>
        <FormActions onCancel={onClose} submitLabel="Record review" busy={busy} />
      </form>
    </Dialog>
  );
}
