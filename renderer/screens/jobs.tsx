import { useState } from 'react';
import type { Job, JobStatus } from '../../shared/schemas/job';
import { portal } from '../lib/api';
import { addDays, todayIn, zonedLocalToIso } from '../lib/format';
import { href, navigate, useRoute } from '../lib/router';
import { useFormat, useSession } from '../lib/session';
import { useDraft } from '../lib/use-draft';
import { usePagedList, useResource } from '../lib/use-resource';
import { useSubmit } from '../lib/use-submit';
import { useWeek } from '../lib/use-week';
import {
  Button,
  Card,
  Dialog,
  EmptyState,
  Field,
  FormActions,
  FormAlert,
  fieldError,
  Input,
  PageHeader,
  StatusBadge,
  Toolbar,
  useToast,
} from '../ui';
import { Loaded, Segmented } from './common';
import { customerReference } from './customer-fields';
import { CustomerPlaceFields } from './customer-place-fields';
import { type JobPlanDraft, JobPlanFields, parseNames } from './job-fields';
import { PagedTable } from './paged-table';
import { workPlaceFields } from './place-picker';
import { useBusyAction } from './use-busy-action';
import { movedSchedule } from './week-move';

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
  const week = useWeek(today);
  const { monday, sunday } = week;
  const jobs = useResource(
    () => portal.get('/jobs', { params: { query: { from: monday, to: sunday, limit: 100 } } }),
    `week:${monday}`,
  );
  const unscheduled = useResource(
    () => portal.get('/jobs', { params: { query: { status: 'unscheduled', limit: 100 } } }),
    'unscheduled',
  );
  const toast = useToast();
  const [target, setTarget] = useState<string>();
  const move = useBusyAction<'move'>();
  const days = Array.from({ length: 7 }, (_, i) => addDays(monday, i));
  const all = [...(jobs.data?.data ?? []), ...(unscheduled.data?.data ?? [])];
  const drop = async (jobId: string, day: string) => {
    setTarget(undefined);
    const job = all.find((j) => j.id === jobId);
    if (!job) return;
    await move.perform('move', async () => {
      const moved = await portal.patch('/jobs/{number}', {
        params: { path: { number: job.id } },
        body: movedSchedule(job, day, session.timezone),
      });
      toast.show(
        `${moved.job_number} moved to ${format.weekday(day)}, ${format.time(moved.scheduled_start!)}`,
      );
      jobs.reload();
      unscheduled.reload();
    });
  };
  const dragProps = (job: Job) =>
    job.status === 'completed' || job.status === 'in_progress'
      ? {}
      : {
          draggable: true,
          onDragStart: (event: React.DragEvent) => event.dataTransfer.setData('text/plain', job.id),
        };
  return (
    <div className="stack">
      <div className="spread">
        <div className="row">
          <Button size="sm" onClick={week.previous} aria-label="Previous week">
            ←
          </Button>
          <Button size="sm" onClick={week.thisWeek}>
            This week
          </Button>
          <Button size="sm" onClick={week.next} aria-label="Next week">
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
                // biome-ignore lint/a11y/noStaticElementInteractions: a drop target for the mouse; the keyboard way is the job's Reschedule dialog
                <div
                  key={day}
                  className={`week-day${day === today ? ' week-day-today' : ''}${target === day ? ' week-day-target' : ''}`}
                  data-day={day}
                  onDragOver={(event) => {
                    event.preventDefault();
                    setTarget(day);
                  }}
                  onDragLeave={() => setTarget(undefined)}
                  onDrop={(event) => {
                    event.preventDefault();
                    drop(event.dataTransfer.getData('text/plain'), day);
                  }}
                >
                  <div className="week-day-head">{format.weekday(day)}</div>
                  <div className="week-items">
                    {(byDay.get(day) ?? [])
                      .sort((a, b) => (a.scheduled_start ?? '').localeCompare(b.scheduled_start ?? ''))
                      .map((job) => (
                        <a
                          key={job.id}
                          href={href('jobs', job.job_number)}
                          className={`event${job.status === 'completed' ? ' event-completed' : ''}`}
                          {...dragProps(job)}
                        >
                          <span className="cell-sub">
                            {format.time(job.scheduled_start!)}
                            {job.scheduled_end && `–${format.time(job.scheduled_end)}`}
                          </span>
                          <strong>{job.title}</strong>
                          <span className="cell-sub">{job.customer.name}</span>
                          {job.address && <span className="cell-sub event-place">{job.address}</span>}
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
      <Card title="Unscheduled">
        <Loaded resource={unscheduled} rows={2}>
          {(page) =>
            page.data.length === 0 ? (
              <p className="muted">Every open job has a day. New jobs without a time land here.</p>
            ) : (
              <div className="unscheduled" data-testid="unscheduled-jobs">
                <p className="cell-sub">
                  Drag a job onto a day to schedule it (09:00, or change it on the job).
                </p>
                {page.data.map((job) => (
                  <a key={job.id} href={href('jobs', job.job_number)} className="event" {...dragProps(job)}>
                    <strong>{job.title}</strong>
                    <span className="cell-sub">
                      {job.customer.name} · {job.job_number}
                    </span>
                  </a>
                ))}
              </div>
            )
          }
        </Loaded>
      </Card>
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
  const list = usePagedList(
    (cursor) =>
      portal.get('/jobs', {
        params: { query: { status: status === 'all' ? undefined : status, cursor, limit: 50 } },
      }),
    `jobs:${status}`,
  );
  return (
    <div className="stack">
      <Segmented label="Status" value={status} onChange={setStatus} options={STATUS_FILTERS} />
      <PagedTable
        list={list}
        caption="Jobs"
        rowKey={(j) => j.id}
        rowHref={(j) => href('jobs', j.job_number)}
        noun={['job', 'jobs']}
        empty={<EmptyState title="No jobs here" icon="▦" />}
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
    </div>
  );
}

interface JobDraft extends JobPlanDraft {
  customer_id: string;
  customer_email: string;
  customer_name: string;
  title: string;
  place: string;
}

const EMPTY_JOB: JobDraft = {
  place: '',
  customer_id: '',
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

function NewJobDialog({ open, onClose }: { open: boolean; onClose(): void }) {
  const { session } = useSession();
  const toast = useToast();
  const { draft, setDraft, set } = useDraft(EMPTY_JOB);
  const { busy, error, run } = useSubmit();

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    return run(async () => {
      const job = await portal.post('/jobs/create', {
        body: {
          ...customerReference(draft),
          title: draft.title,
          ...(draft.start && { scheduled_start: zonedLocalToIso(draft.start, session.timezone) }),
          ...(draft.end && { scheduled_end: zonedLocalToIso(draft.end, session.timezone) }),
          assignees: parseNames(draft.assignees),
          ...workPlaceFields(draft.place, draft.address, false),
          ...(draft.price.trim() && { price: Number(draft.price.replace(',', '.')) }),
          ...(draft.notes.trim() && { notes: draft.notes.trim() }),
        },
      });
      toast.show(`Job ${job.job_number} created`);
      setDraft(EMPTY_JOB);
      onClose();
      navigate(href('jobs', job.job_number));
    });
  };
  const fields = [
    'customer_email',
    'customer_name',
    'title',
    'scheduled_start',
    'scheduled_end',
    'assignees',
    'property_id',
    'address',
    'price',
    'notes',
  ];
  return (
    <Dialog open={open} onClose={onClose} title="New job" wide>
      <form onSubmit={submit} noValidate className="stack">
        <FormAlert error={error} params={fields} />
        <div className="form-grid">
          <CustomerPlaceFields draft={draft} setDraft={setDraft} error={error} />
          <Field label="Title" error={fieldError(error, 'title')} className="span-2">
            <Input value={draft.title} onChange={set('title')} placeholder="e.g. Spring clean-up" />
          </Field>
          <JobPlanFields
            draft={draft}
            set={set}
            setAssignees={(assignees) => setDraft((d) => ({ ...d, assignees }))}
            error={error}
            startHint={session.timezone}
            addressHint="Without a place: leave empty for the customer's address"
            notesRows={2}
          />
        </div>
        <FormActions onCancel={onClose} submitLabel="Create job" busy={busy} />
      </form>
    </Dialog>
  );
}
