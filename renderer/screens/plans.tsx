import { useEffect, useState } from 'react';
import type { Job } from '../../shared/schemas/job';
import type { ServicePlan, ServicePlanPreview } from '../../shared/schemas/service-plan';
import { api, type ListPage } from '../lib/api';
import { todayIn } from '../lib/format';
import { count } from '../lib/plural';
import { href, navigate, useLeaveGuard } from '../lib/router';
import { useFormat, useSession } from '../lib/session';
import { useResource } from '../lib/use-resource';
import { useSubmit } from '../lib/use-submit';
import {
  Badge,
  Button,
  Card,
  Checkbox,
  ConfirmDialog,
  Details,
  EmptyState,
  Field,
  FormActions,
  FormAlert,
  fieldError,
  Input,
  LinkButton,
  PageHeader,
  Select,
  StatusBadge,
  Table,
  Textarea,
  useToast,
} from '../ui';
import { Loaded } from './common';
import { customerReference } from './customer-fields';
import { CustomerPicker } from './customer-picker';
import { parseNames, TeamPicker } from './job-fields';

/**
 * Service plans (docs/recurring-work.md): recurring visits of a customer. The rule is previewed
 * by the server as it is typed, in words and as the next visits, before anything is saved.
 */

const BILLING_LABEL: Record<ServicePlan['billing'], string> = {
  none: 'Not billed by the plan',
  per_visit: 'An invoice per visit',
  per_period: 'A monthly invoice',
};

const WEEKDAYS = [
  ['MO', 'Mon'],
  ['TU', 'Tue'],
  ['WE', 'Wed'],
  ['TH', 'Thu'],
  ['FR', 'Fri'],
  ['SA', 'Sat'],
  ['SU', 'Sun'],
] as const;
type Weekday = (typeof WEEKDAYS)[number][0];
const MONTH_DAYS = Array.from({ length: 31 }, (_, i) => i + 1);

export function Plans() {
  const format = useFormat();
  const plans = useResource(() => api.get<ListPage<ServicePlan>>('/service-plans', { limit: 100 }), 'plans');
  return (
    <>
      <PageHeader
        title="Service plans"
        subtitle="Recurring visits: each one is a job on the calendar, made weeks ahead."
        actions={
          <LinkButton variant="primary" href="#/plans/new">
            New plan
          </LinkButton>
        }
      />
      <Loaded resource={plans}>
        {(page) =>
          page.data.length === 0 ? (
            <div className="table-wrap">
              <EmptyState title="No service plans yet" icon="↻">
                A plan puts a customer's regular visits on the calendar — every second Tuesday, the last day
                of each month — and can invoice them for you.
              </EmptyState>
            </div>
          ) : (
            <Table
              caption="Service plans"
              rows={page.data}
              rowKey={(p) => p.id}
              rowHref={(p) => href('plans', p.id)}
              columns={[
                {
                  header: 'Plan',
                  cell: (p) => (
                    <a href={href('plans', p.id)}>
                      <strong>{p.title}</strong>
                    </a>
                  ),
                },
                { header: 'Customer', cell: (p) => p.customer.name },
                { header: 'Schedule', cell: (p) => p.summary },
                { header: 'Billing', cell: (p) => BILLING_LABEL[p.billing] },
                {
                  header: 'Next visit',
                  cell: (p) => (p.next_visit ? format.dateTime(p.next_visit) : '—'),
                },
                { header: 'Status', cell: (p) => <PlanStatus plan={p} /> },
              ]}
            />
          )
        }
      </Loaded>
    </>
  );
}

function PlanStatus({ plan }: { plan: ServicePlan }) {
  return plan.status === 'active' ? <Badge tone="success">Active</Badge> : <Badge>Ended</Badge>;
}

export function PlanDetail({ id }: { id: string }) {
  const format = useFormat();
  const toast = useToast();
  const path = `/service-plans/${encodeURIComponent(id)}`;
  const plan = useResource(() => api.get<ServicePlan>(path), path);
  const upcoming = useResource(
    () => api.get<{ data: Job[] }>(`${path}/visits`, { when: 'upcoming', limit: 20 }),
    `${path}:upcoming:${plan.data?.updated_at}`,
  );
  const past = useResource(
    () => api.get<{ data: Job[] }>(`${path}/visits`, { when: 'past', limit: 10 }),
    `${path}:past:${plan.data?.updated_at}`,
  );
  const [confirmEnd, setConfirmEnd] = useState(false);
  const [ending, setEnding] = useState(false);

  const end = async () => {
    setEnding(true);
    try {
      plan.set(await api.post<ServicePlan>(`${path}/end`, {}));
      toast.show('Plan ended: no more visits will be made');
    } catch (failure) {
      toast.show((failure as Error).message, 'error');
    } finally {
      setEnding(false);
      setConfirmEnd(false);
    }
  };

  return (
    <Loaded resource={plan}>
      {(p) => (
        <>
          <PageHeader
            back={{ href: '#/plans', label: 'Service plans' }}
            title={
              <span className="row">
                {p.title} <PlanStatus plan={p} />
              </span>
            }
            subtitle={
              <>
                <a href={href('customers', p.customer.id)}>{p.customer.name}</a> · {p.summary}
              </>
            }
            actions={
              p.status === 'active' && (
                <>
                  <Button variant="ghost" write onClick={() => setConfirmEnd(true)}>
                    End plan
                  </Button>
                  <LinkButton variant="primary" href={`#/plans/${encodeURIComponent(p.id)}/edit`}>
                    Edit plan
                  </LinkButton>
                </>
              )
            }
          />
          <div className="grid grid-3">
            <div className="stack">
              <Card title="Upcoming visits" padded={false}>
                <Loaded resource={upcoming} rows={4}>
                  {(v) => <VisitTable visits={v.data} empty="No upcoming visits." />}
                </Loaded>
              </Card>
              <Card title="Recent visits" padded={false}>
                <Loaded resource={past} rows={3}>
                  {(v) => <VisitTable visits={v.data} empty="None yet." />}
                </Loaded>
              </Card>
            </div>
            <Card title="Plan">
              <Details
                items={[
                  ['Schedule', p.summary],
                  ['Starts', format.date(p.start_date)],
                  ['Times in', p.time_zone],
                  ['Team', p.assignees.join(', ') || '—'],
                  ['Address', p.address],
                  ['Price per visit', p.price === null ? '—' : format.money(p.price)],
                  [
                    'Billing',
                    `${BILLING_LABEL[p.billing]}${p.billing === 'none' ? '' : p.invoice_delivery === 'send' ? ', sent automatically' : ', as drafts'}`,
                  ],
                  ['Visits ahead', count(p.horizon_weeks, 'week', 'weeks')],
                  ['Holidays', p.holidays.length ? p.holidays.map((d) => format.date(d)).join(', ') : '—'],
                  ...(p.ended_at ? [['Ended', format.dateTime(p.ended_at)] as [string, string]] : []),
                ]}
              />
            </Card>
          </div>
          <ConfirmDialog
            open={confirmEnd}
            onClose={() => setConfirmEnd(false)}
            title={`End ${p.title}?`}
            confirmLabel="End plan"
            busy={ending}
            onConfirm={end}
          >
            <p>
              Upcoming visits nobody has changed are removed from the calendar. Visits already done, and ones
              you moved or reassigned, stay as they are.
            </p>
          </ConfirmDialog>
        </>
      )}
    </Loaded>
  );
}

function VisitTable({ visits, empty }: { visits: Job[]; empty: string }) {
  const format = useFormat();
  if (visits.length === 0) return <p className="muted card-body">{empty}</p>;
  return (
    <Table
      caption="Visits"
      rows={visits}
      rowKey={(j) => j.id}
      rowHref={(j) => href('jobs', j.job_number)}
      columns={[
        { header: 'Job', cell: (j) => <a href={href('jobs', j.job_number)}>{j.job_number}</a> },
        {
          header: 'When',
          cell: (j) => (
            <>
              {j.scheduled_start ? format.dateTime(j.scheduled_start) : '—'}
              {j.occurrence_date &&
                j.scheduled_start &&
                format.dayOf(j.scheduled_start) !== j.occurrence_date && (
                  <span className="cell-sub"> moved from {format.date(j.occurrence_date)}</span>
                )}
            </>
          ),
        },
        { header: 'Team', cell: (j) => j.assignees.join(', ') || '—' },
        { header: 'Status', cell: (j) => <StatusBadge status={j.status} /> },
      ]}
    />
  );
}

interface Draft {
  customer_id: string;
  customer_email: string;
  customer_name: string;
  title: string;
  address: string;
  price: string;
  assignees: string;
  notes: string;
  frequency: ServicePlan['frequency'];
  interval: string;
  weekdays: Weekday[];
  month_day: string;
  start_date: string;
  start_time: string;
  end_time: string;
  ends: 'never' | 'until' | 'count';
  until: string;
  count: string;
  horizon_weeks: string;
  holidays: string;
  holiday_rule: 'skip' | 'move';
  billing: ServicePlan['billing'];
  invoice_delivery: ServicePlan['invoice_delivery'];
}

function draftOf(plan: ServicePlan | undefined, today: string): Draft {
  if (!plan)
    return {
      customer_id: '',
      customer_email: '',
      customer_name: '',
      title: '',
      address: '',
      price: '',
      assignees: '',
      notes: '',
      frequency: 'weekly',
      interval: '1',
      weekdays: [],
      month_day: '',
      start_date: today,
      start_time: '09:00',
      end_time: '10:00',
      ends: 'never',
      until: '',
      count: '',
      horizon_weeks: '8',
      holidays: '',
      holiday_rule: 'skip',
      billing: 'none',
      invoice_delivery: 'draft',
    };
  return {
    customer_id: plan.customer.id,
    customer_email: plan.customer.email ?? '',
    customer_name: plan.customer.name,
    title: plan.title,
    address: plan.address ?? '',
    price: plan.price === null ? '' : String(plan.price),
    assignees: plan.assignees.join(', '),
    notes: plan.notes ?? '',
    frequency: plan.frequency,
    interval: String(plan.interval),
    weekdays: plan.weekdays,
    month_day: plan.month_day === null ? '' : String(plan.month_day),
    start_date: plan.start_date,
    start_time: plan.start_time,
    end_time: plan.end_time,
    ends: plan.until ? 'until' : plan.count ? 'count' : 'never',
    until: plan.until ?? '',
    count: plan.count === null ? '' : String(plan.count),
    horizon_weeks: String(plan.horizon_weeks),
    holidays: plan.holidays.join('\n'),
    holiday_rule: plan.holiday_rule,
    billing: plan.billing,
    invoice_delivery: plan.invoice_delivery,
  };
}

const intOr = (text: string, fallback: number) => (/^\d+$/.test(text.trim()) ? Number(text) : fallback);

function ruleOf(d: Draft) {
  return {
    frequency: d.frequency,
    interval: intOr(d.interval, 1),
    weekdays: d.frequency === 'monthly' ? [] : d.weekdays,
    month_day: d.frequency === 'monthly' && d.month_day ? Number(d.month_day) : null,
    start_date: d.start_date,
    start_time: d.start_time,
    end_time: d.end_time,
    until: d.ends === 'until' && d.until ? d.until : null,
    count: d.ends === 'count' && d.count ? intOr(d.count, 1) : null,
    horizon_weeks: intOr(d.horizon_weeks, 8),
    holidays: d.holidays
      .split(/[\s,]+/)
      .map((s) => s.trim())
      .filter(Boolean),
    holiday_rule: d.holiday_rule,
  };
}

function bodyOf(d: Draft) {
  const price = d.price.trim().replace(',', '.');
  return {
    title: d.title,
    address: d.address.trim() || null,
    price: price === '' ? null : Number(price),
    notes: d.notes.trim() || null,
    assignees: parseNames(d.assignees),
    billing: d.billing,
    invoice_delivery: d.invoice_delivery,
    ...ruleOf(d),
  };
}

const PARAMS = [
  'customer_email',
  'customer_name',
  'title',
  'address',
  'price',
  'assignees',
  'notes',
  'frequency',
  'interval',
  'weekdays',
  'month_day',
  'start_date',
  'start_time',
  'end_time',
  'until',
  'count',
  'horizon_weeks',
  'holidays',
  'holiday_rule',
  'billing',
  'invoice_delivery',
];

/** New plan (#/plans/new) or edit (#/plans/{id}/edit), with the server's preview beside the form. */
export function PlanForm({ id }: { id?: string }) {
  const { session } = useSession();
  const path = id ? `/service-plans/${encodeURIComponent(id)}` : '';
  const existing = useResource(
    () => (id ? api.get<ServicePlan>(path) : Promise.resolve(undefined as unknown as ServicePlan)),
    `form:${path}`,
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

  useEffect(() => {
    let current = true;
    const timer = setTimeout(() => {
      api.post<ServicePlanPreview>('/service-plans/preview', { ...JSON.parse(rule), visits: 6 }).then(
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
        ? await api.patch<ServicePlan>(`/service-plans/${encodeURIComponent(plan.id)}`, bodyOf(draft))
        : await api.post<ServicePlan>('/service-plans/create', {
            ...customerReference(draft),
            ...bodyOf(draft),
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
                  onChange={(choice) => setDraft((d) => ({ ...d, ...choice }))}
                  error={error}
                  autoFocus
                />
              )}
              <Field label="Title" error={fieldError(error, 'title')} className="span-2">
                <Input value={draft.title} onChange={set('title')} placeholder="Garden care" />
              </Field>
              <Field
                label="Address"
                error={fieldError(error, 'address')}
                hint="Default: the customer's address"
              >
                <Input value={draft.address} onChange={set('address')} />
              </Field>
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
