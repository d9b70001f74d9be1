import { useState } from 'react';
import type { Job, JobStatus } from '../../shared/schemas/job';
import { api, type ListPage } from '../lib/api';
import { addDays, mondayOf, todayIn, zonedLocalToIso } from '../lib/format';
import { href, navigate, useRoute } from '../lib/router';
import { useFormat, useSession } from '../lib/session';
import { usePagedList, useResource } from '../lib/use-resource';
import {
  Button,
  Dialog,
  EmptyState,
  ErrorNotice,
  Field,
  fieldError,
  formError,
  Input,
  PageHeader,
  SkeletonRows,
  StatusBadge,
  Table,
  Textarea,
  Toolbar,
  useToast,
} from '../ui';
import { ListFooter, Loaded, Segmented } from './common';

type View = 'week' | 'list';

export function Jobs() {
  const { query } = useRoute();
  const [view, setView] = useState<View>('week');
  const [creating, setCreating] = useState(query.get('new') === '1');
  return (
    <>
      <PageHeader
        title="Jobs & calendar"
        subtitle="What is booked, who is on it, and what is done."
        actions={
          <Button variant="primary" write onClick={() => setCreating(true)}>
            New job
          </Button>
        }
      />
      <Toolbar>
        <Segmented
          label="View"
          value={view}
          onChange={setView}
          options={[
            { value: 'week', label: 'Week' },
            { value: 'list', label: 'List' },
          ]}
        />
      </Toolbar>
      {view === 'week' ? <WeekView /> : <JobList />}
      <NewJobDialog open={creating} onClose={() => setCreating(false)} />
    </>
  );
}

function WeekView() {
  const { session } = useSession();
  const format = useFormat();
  const today = todayIn(session.timezone);
  const [monday, setMonday] = useState(() => mondayOf(today));
  const sunday = addDays(monday, 6);
  const jobs = useResource(
    () => api.get<ListPage<Job>>('/jobs', { from: monday, to: sunday, limit: 100 }),
    `week:${monday}`,
  );
  const days = Array.from({ length: 7 }, (_, i) => addDays(monday, i));
  return (
    <div className="stack">
      <div className="spread">
        <div className="row">
          <Button size="sm" onClick={() => setMonday(addDays(monday, -7))} aria-label="Previous week">
            ←
          </Button>
          <Button size="sm" onClick={() => setMonday(mondayOf(today))}>
            This week
          </Button>
          <Button size="sm" onClick={() => setMonday(addDays(monday, 7))} aria-label="Next week">
            →
          </Button>
        </div>
        <strong>
          {format.date(monday)} – {format.date(sunday)}
        </strong>
      </div>
      <Loaded resource={jobs}>
        {(page) => {
          const byDay = new Map<string, Job[]>();
          for (const job of page.data) {
            if (!job.scheduled_start) continue;
            const day = format.dayOf(job.scheduled_start);
            byDay.set(day, [...(byDay.get(day) ?? []), job]);
          }
          return (
            <div className="week" data-testid="week-view">
              {days.map((day) => (
                <div key={day} className={`week-day${day === today ? ' week-day-today' : ''}`}>
                  <div className="week-day-head">{format.weekday(day)}</div>
                  <div className="week-items">
                    {(byDay.get(day) ?? [])
                      .sort((a, b) => (a.scheduled_start ?? '').localeCompare(b.scheduled_start ?? ''))
                      .map((job) => (
                        <a
                          key={job.id}
                          href={href('jobs', job.job_number)}
                          className={`event${job.status === 'completed' ? ' event-completed' : ''}`}
                        >
                          <span className="cell-sub">
                            {format.time(job.scheduled_start!)}
                            {job.scheduled_end && `–${format.time(job.scheduled_end)}`}
                          </span>
                          <strong>{job.title}</strong>
                          <span className="cell-sub">{job.assignees.join(', ') || 'Unassigned'}</span>
                        </a>
                      ))}
                  </div>
                </div>
              ))}
            </div>
          );
        }}
      </Loaded>
    </div>
  );
}

const STATUS_FILTERS: Array<{ value: JobStatus | 'all'; label: string }> = [
  { value: 'all', label: 'All' },
  { value: 'unscheduled', label: 'Unscheduled' },
  { value: 'scheduled', label: 'Scheduled' },
  { value: 'in_progress', label: 'In progress' },
  { value: 'completed', label: 'Completed' },
  { value: 'cancelled', label: 'Cancelled' },
];

function JobList() {
  const format = useFormat();
  const [status, setStatus] = useState<JobStatus | 'all'>('all');
  const query = { status: status === 'all' ? undefined : status };
  const list = usePagedList(
    (cursor) => api.get<ListPage<Job>>('/jobs', { ...query, cursor, limit: 50 }),
    JSON.stringify(query),
  );
  return (
    <div className="stack">
      <Segmented label="Status" value={status} onChange={setStatus} options={STATUS_FILTERS} />
      {list.error && <ErrorNotice error={list.error} onRetry={list.reload} />}
      {list.loading && list.items.length === 0 ? (
        <div className="table-wrap">
          <SkeletonRows rows={6} />
        </div>
      ) : list.items.length === 0 && !list.error ? (
        <div className="table-wrap">
          <EmptyState title="No jobs here" icon="▦" />
        </div>
      ) : (
        <>
          <Table
            caption="Jobs"
            rows={list.items}
            rowKey={(j) => j.id}
            rowHref={(j) => href('jobs', j.job_number)}
            columns={[
              { header: 'Job', cell: (j) => <span className="cell-title">{j.job_number}</span> },
              {
                header: 'Title',
                cell: (j) => (
                  <>
                    <div>{j.title}</div>
                    <div className="cell-sub">{j.customer.name}</div>
                  </>
                ),
              },
              {
                header: 'When',
                cell: (j) => (j.scheduled_start ? format.dateTime(j.scheduled_start) : 'Unscheduled'),
              },
              { header: 'Team', cell: (j) => j.assignees.join(', ') || <span className="muted">—</span> },
              { header: 'Status', cell: (j) => <StatusBadge status={j.status} /> },
              {
                header: 'Price',
                align: 'right',
                cell: (j) => (j.price === null ? '—' : format.money(j.price)),
              },
            ]}
          />
          <ListFooter
            count={list.items.length}
            hasMore={list.hasMore}
            loading={list.loading}
            onMore={list.loadMore}
            noun={['job', 'jobs']}
          />
        </>
      )}
    </div>
  );
}

interface JobDraft {
  customer_email: string;
  customer_name: string;
  title: string;
  start: string;
  end: string;
  assignees: string;
  address: string;
  price: string;
  notes: string;
}

const EMPTY_JOB: JobDraft = {
  customer_email: '',
  customer_name: '',
  title: '',
  start: '',
  end: '',
  assignees: '',
  address: '',
  price: '',
  notes: '',
};

/** Team member names typed as "Sam, Alex". */
export function parseNames(text: string): string[] {
  return text
    .split(',')
    .map((n) => n.trim())
    .filter(Boolean);
}

function NewJobDialog({ open, onClose }: { open: boolean; onClose(): void }) {
  const { session } = useSession();
  const toast = useToast();
  const [draft, setDraft] = useState<JobDraft>(EMPTY_JOB);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const set = (field: keyof JobDraft) => (e: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) =>
    setDraft({ ...draft, [field]: e.target.value });

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const job = await api.post<Job>('/jobs/create', {
        customer_email: draft.customer_email.trim(),
        ...(draft.customer_name.trim() && { customer_name: draft.customer_name.trim() }),
        title: draft.title,
        ...(draft.start && { scheduled_start: zonedLocalToIso(draft.start, session.timezone) }),
        ...(draft.end && { scheduled_end: zonedLocalToIso(draft.end, session.timezone) }),
        assignees: parseNames(draft.assignees),
        ...(draft.address.trim() && { address: draft.address.trim() }),
        ...(draft.price.trim() && { price: Number(draft.price.replace(',', '.')) }),
        ...(draft.notes.trim() && { notes: draft.notes.trim() }),
      });
      toast.show(`Job ${job.job_number} created`);
      setDraft(EMPTY_JOB);
      onClose();
      navigate(href('jobs', job.job_number));
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };
  const fields = [
    'customer_email',
    'customer_name',
    'title',
    'scheduled_start',
    'scheduled_end',
    'assignees',
    'address',
    'price',
    'notes',
  ];
  const general = formError(error, fields);
  return (
    <Dialog open={open} onClose={onClose} title="New job" wide>
      <form onSubmit={submit} noValidate className="stack">
        {general && (
          <div className="notice notice-error" role="alert">
            {general}
          </div>
        )}
        <div className="form-grid">
          <Field label="Customer e-mail" error={fieldError(error, 'customer_email')}>
            <Input type="email" value={draft.customer_email} onChange={set('customer_email')} autoFocus />
          </Field>
          <Field label="Customer name" hint="For a new customer" error={fieldError(error, 'customer_name')}>
            <Input value={draft.customer_name} onChange={set('customer_name')} />
          </Field>
          <Field label="Title" error={fieldError(error, 'title')} className="span-2">
            <Input value={draft.title} onChange={set('title')} placeholder="e.g. Spring clean-up" />
          </Field>
          <Field label="Starts" hint={session.timezone} error={fieldError(error, 'scheduled_start')}>
            <Input type="datetime-local" value={draft.start} onChange={set('start')} />
          </Field>
          <Field label="Ends" error={fieldError(error, 'scheduled_end')}>
            <Input type="datetime-local" value={draft.end} onChange={set('end')} />
          </Field>
          <Field
            label="Team"
            hint="Names, separated by commas; new names join the team"
            error={fieldError(error, 'assignees')}
          >
            <Input value={draft.assignees} onChange={set('assignees')} placeholder="Sam, Alex" />
          </Field>
          <Field label="Price" error={fieldError(error, 'price')}>
            <Input inputMode="decimal" value={draft.price} onChange={set('price')} placeholder="0.00" />
          </Field>
          <Field label="Address" error={fieldError(error, 'address')} className="span-2">
            <Input value={draft.address} onChange={set('address')} />
          </Field>
          <Field label="Notes" error={fieldError(error, 'notes')} className="span-2">
            <Textarea value={draft.notes} onChange={set('notes')} rows={2} />
          </Field>
        </div>
        <div className="form-actions">
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="primary" busy={busy} write>
            Create job
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
