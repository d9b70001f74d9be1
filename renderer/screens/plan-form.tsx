import { useCallback, useEffect, useState } from 'react';
import type { ServicePlan, ServicePlanPreview } from '../../shared/schemas/service-plan';
import { portal } from '../lib/api';
import { todayIn } from '../lib/format';
import { href, navigate, useLeaveGuard } from '../lib/router';
import { useFormat, useSession } from '../lib/session';
import { useResource } from '../lib/use-resource';
import { useSubmit } from '../lib/use-submit';
import {
  Card,
  Checkbox,
  Field,
  FormActions,
  FormAlert,
  fieldError,
  Input,
  PageHeader,
  Select,
  Textarea,
  useToast,
} from '../ui';
import { Loaded } from './common';
import { customerReference } from './customer-fields';
import { CustomerPicker } from './customer-picker';
import { TeamPicker } from './job-fields';
import { NO_PLACE, PlacePicker } from './place-picker';
import {
  bodyOf,
  type Draft,
  draftOf,
  MONTH_DAYS,
  PARAMS,
  ruleOf,
  WEEKDAYS,
  type Weekday,
} from './plan-draft';

/** New plan (#/plans/new) or edit (#/plans/{id}/edit), with the server's preview beside the form. */
export function PlanForm({ id }: { id?: string }) {
  const { session } = useSession();
  const existing = useResource(
    () => (id ? portal.get('/service-plans/{id}', { params: { path: { id } } }) : Promise.resolve(undefined)),
    `plan-form:${id ?? ''}`,
  );
  if (id && !existing.data) return <Loaded resource={existing}>{() => null}</Loaded>;
  return <PlanFormBody plan={id ? existing.data : undefined} today={todayIn(session.timezone)} />;
}

function PlanFormBody({ plan, today }: { plan: ServicePlan | undefined; today: string }) {
  const toast = useToast();
  const [initial] = useState(() => draftOf(plan, today));
  const [draft, setDraft] = useState<Draft>(initial);
  const { busy, error, run } = useSubmit();
  useLeaveGuard(!busy && JSON.stringify(draft) !== JSON.stringify(initial));
  const [preview, setPreview] = useState<{ result?: ServicePlanPreview; error?: string }>({});
  const set =
    <K extends keyof Draft>(field: K) =>
    (event: { target: { value: string } }) =>
      setDraft((d) => ({ ...d, [field]: event.target.value as Draft[K] }));
  const rule = JSON.stringify(ruleOf(draft));
  const setProperty = useCallback((property: string) => setDraft((d) => ({ ...d, property })), []);

  useEffect(() => {
    let current = true;
    const timer = setTimeout(() => {
      portal.post('/service-plans/preview', { body: { ...JSON.parse(rule), visits: 6 } }).then(
        (result) => current && setPreview({ result }),
        (failure: Error) => current && setPreview({ error: failure.message }),
      );
    }, 250);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [rule]);

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    return run(async () => {
      const saved = plan
        ? await portal.patch('/service-plans/{id}', {
            params: { path: { id: plan.id } },
            body: bodyOf(draft),
          })
        : await portal.post('/service-plans/create', {
            body: { ...customerReference(draft), ...bodyOf(draft) },
          });
      toast.show(plan ? 'Plan saved: upcoming visits updated' : 'Plan created: visits are on the calendar');
      navigate(href('plans', saved.id));
    });
  };
  const toggleDay = (day: Weekday) =>
    setDraft((d) => ({
      ...d,
      weekdays: d.weekdays.includes(day) ? d.weekdays.filter((w) => w !== day) : [...d.weekdays, day],
    }));
  const format = useFormat();

  return (
    <>
      <PageHeader
        back={
          plan
            ? { href: href('plans', plan.id), label: plan.title }
            : { href: '#/plans', label: 'Service plans' }
        }
        title={plan ? `Edit ${plan.title}` : 'New service plan'}
        subtitle={
          plan
            ? 'Changes apply to upcoming visits nobody has changed; past visits and ones you moved stay as they are.'
            : 'Visits are made as jobs up to the horizon ahead, and kept topped up.'
        }
      />
      <div className="grid grid-3">
        <form onSubmit={submit} noValidate className="stack" aria-label="Service plan">
          <FormAlert error={error} params={PARAMS} />
          <Card title="Customer and work">
            <div className="form-grid">
              {plan ? (
                <Field label="Customer" className="span-2">
                  <p>{[plan.customer.name, plan.customer.email].filter(Boolean).join(' · ')}</p>
                </Field>
              ) : (
                <CustomerPicker
                  customerId={draft.customer_id}
                  email={draft.customer_email}
                  name={draft.customer_name}
                  onChange={(choice) =>
                    setDraft((d) => ({
                      ...d,
                      ...choice,
                      property: choice.customer_id === d.customer_id ? d.property : '',
                    }))
                  }
                  error={error}
                  autoFocus
                />
              )}
              <Field label="Title" error={fieldError(error, 'title')} className="span-2">
                <Input value={draft.title} onChange={set('title')} placeholder="Garden care" />
              </Field>
              <PlacePicker
                customerId={draft.customer_id}
                value={draft.property}
                onChange={setProperty}
                error={error}
                noneLabel="No place: an address for this plan"
              />
              {(!draft.customer_id || draft.property === NO_PLACE) && (
                <Field
                  label="Address"
                  error={fieldError(error, 'address')}
                  hint="Default: the customer's address"
                >
                  <Input value={draft.address} onChange={set('address')} />
                </Field>
              )}
              <Field label="Price per visit" error={fieldError(error, 'price')}>
                <Input inputMode="decimal" value={draft.price} onChange={set('price')} />
              </Field>
              <TeamPicker
                value={draft.assignees}
                onChange={(assignees) => setDraft((d) => ({ ...d, assignees }))}
                error={error}
              />
              <Field label="Notes" error={fieldError(error, 'notes')}>
                <Input value={draft.notes} onChange={set('notes')} />
              </Field>
            </div>
          </Card>
          <Card title="When">
            <div className="form-grid">
              <Field label="Repeats" error={fieldError(error, 'frequency')}>
                <Select value={draft.frequency} onChange={set('frequency')}>
                  <option value="daily">Daily</option>
                  <option value="weekly">Weekly</option>
                  <option value="monthly">Monthly</option>
                </Select>
              </Field>
              <Field
                label={`Every how many ${draft.frequency === 'daily' ? 'days' : draft.frequency === 'weekly' ? 'weeks' : 'months'}`}
                error={fieldError(error, 'interval')}
              >
                <Input inputMode="numeric" value={draft.interval} onChange={set('interval')} />
              </Field>
              {draft.frequency === 'monthly' ? (
                <Field label="Day of the month" error={fieldError(error, 'month_day')} className="span-2">
                  <Select value={draft.month_day} onChange={set('month_day')}>
                    <option value="">Same day as the start date</option>
                    {MONTH_DAYS.map((day) => (
                      <option key={day} value={String(day)}>
                        {day}
                        {day > 28 ? ' (months without it are skipped)' : ''}
                      </option>
                    ))}
                    <option value="-1">Last day of the month</option>
                  </Select>
                </Field>
              ) : (
                <fieldset className="span-2 fieldset weekday-picker">
                  <legend>On</legend>
                  {WEEKDAYS.map(([code, label]) => (
                    <Checkbox
                      key={code}
                      label={label}
                      checked={draft.weekdays.includes(code)}
                      onChange={() => toggleDay(code)}
                    />
                  ))}
                  {fieldError(error, 'weekdays') && (
                    <p className="field-error">{fieldError(error, 'weekdays')}</p>
                  )}
                </fieldset>
              )}
              <Field label="Start date" error={fieldError(error, 'start_date')}>
                <Input type="date" value={draft.start_date} onChange={set('start_date')} />
              </Field>
              <div className="form-grid">
                <Field label="From" error={fieldError(error, 'start_time')}>
                  <Input type="time" value={draft.start_time} onChange={set('start_time')} />
                </Field>
                <Field label="To" error={fieldError(error, 'end_time')}>
                  <Input type="time" value={draft.end_time} onChange={set('end_time')} />
                </Field>
              </div>
              <Field label="Ends" error={fieldError(error, 'until') ?? fieldError(error, 'count')}>
                <Select value={draft.ends} onChange={set('ends')}>
                  <option value="never">Never</option>
                  <option value="until">On a date</option>
                  <option value="count">After a number of visits</option>
                </Select>
              </Field>
              {draft.ends === 'until' && (
                <Field label="Last date">
                  <Input type="date" value={draft.until} onChange={set('until')} />
                </Field>
              )}
              {draft.ends === 'count' && (
                <Field label="Number of visits">
                  <Input inputMode="numeric" value={draft.count} onChange={set('count')} />
                </Field>
              )}
              <Field
                label="Holidays"
                hint="Dates with no visit, one per line (YYYY-MM-DD)"
                error={fieldError(error, 'holidays')}
              >
                <Textarea rows={2} value={draft.holidays} onChange={set('holidays')} />
              </Field>
              <Field label="A visit on a holiday">
                <Select value={draft.holiday_rule} onChange={set('holiday_rule')}>
                  <option value="skip">Is skipped</option>
                  <option value="move">Moves to the next day</option>
                </Select>
              </Field>
              <Field label="Weeks of visits ahead" error={fieldError(error, 'horizon_weeks')}>
                <Input inputMode="numeric" value={draft.horizon_weeks} onChange={set('horizon_weeks')} />
              </Field>
            </div>
          </Card>
          <Card title="Billing">
            <div className="form-grid">
              <Field label="Invoices" error={fieldError(error, 'billing')}>
                <Select value={draft.billing} onChange={set('billing')}>
                  <option value="none">None from the plan</option>
                  <option value="per_visit">One per visit, when it is completed</option>
                  <option value="per_period">One a month, for the visits completed</option>
                </Select>
              </Field>
              <Field label="Invoices are" error={fieldError(error, 'invoice_delivery')}>
                <Select
                  value={draft.invoice_delivery}
                  onChange={set('invoice_delivery')}
                  disabled={draft.billing === 'none'}
                >
                  <option value="draft">Drafted for me to check</option>
                  <option value="send">Sent to the customer automatically</option>
                </Select>
              </Field>
            </div>
          </Card>
          <FormActions
            onCancel={() => navigate(plan ? href('plans', plan.id) : '#/plans')}
            submitLabel={plan ? 'Save plan' : 'Create plan'}
            busy={busy}
          />
        </form>
        <Card title="Preview" className="plan-preview">
          {preview.result ? (
            <>
              <p className="plan-summary" aria-live="polite">
                {preview.result.summary}
              </p>
              <p className="muted">Times in {preview.result.time_zone}. Next visits:</p>
              {preview.result.visits.length ? (
                <ol className="visit-preview" aria-label="Next visits">
                  {preview.result.visits.map((v) => (
                    <li key={v.occurrence}>
                      <strong>{format.weekday(v.date)}</strong>, {v.date.slice(0, 4)} ·{' '}
                      <span className="nowrap">
                        {format.time(v.start)}–{format.time(v.end)}
                      </span>
                      {v.moved && <span className="cell-sub"> (moved from {format.date(v.occurrence)})</span>}
                    </li>
                  ))}
                </ol>
              ) : (
                <p className="muted">No visits from today on.</p>
              )}
            </>
          ) : (
            <p className="muted">{preview.error ?? 'Working out the dates…'}</p>
          )}
        </Card>
      </div>
    </>
  );
}
