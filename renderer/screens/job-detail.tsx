import { useState } from 'react';
import { portal } from '../lib/api';
import { href } from '../lib/router';
import { useFormat } from '../lib/session';
import { useResource } from '../lib/use-resource';
import {
  Button,
  Card,
  ConfirmDialog,
  Details,
  LinkButton,
  PageHeader,
  StatusBadge,
  statusLabel,
  useToast,
} from '../ui';
import { Loaded } from './common';
import { JobEditDialog } from './job-edit';
import { JobPhotosCard } from './job-photos';
import { RecordHistoryCard } from './record-history';
import { useBusyAction } from './use-busy-action';

type Action = 'start' | 'complete' | 'cancel';

export function JobDetail({ number }: { number: string }) {
  const format = useFormat();
  const toast = useToast();
  const params = { path: { number } };
  const job = useResource(() => portal.get('/jobs/{number}', { params }), `job:${number}`);
  const { busy, perform } = useBusyAction<Action>();
  const [editing, setEditing] = useState(false);
  const [confirmCancel, setConfirmCancel] = useState(false);

  const act = (action: Action) =>
    perform(action, async () => {
      const updated = await portal.post(`/jobs/{number}/${action}` as const, { params });
      job.set(updated);
      toast.show(`Job ${updated.job_number}: ${statusLabel(updated.status).toLowerCase()}`);
    }).finally(() => setConfirmCancel(false));

  return (
    <Loaded resource={job}>
      {(j) => {
        const open = j.status !== 'completed' && j.status !== 'cancelled';
        return (
          <>
            <PageHeader
              back={{ href: '#/jobs', label: 'Jobs' }}
              name={`${j.job_number} · ${j.title}`}
              title={
                <span className="row">
                  {j.job_number} · {j.title} <StatusBadge status={j.status} />
                </span>
              }
              subtitle={<a href={href('customers', j.customer.id)}>{j.customer.name}</a>}
              actions={
                <>
                  {open && (
                    <Button variant="ghost" write onClick={() => setConfirmCancel(true)}>
                      Cancel job
                    </Button>
                  )}
                  {open && (
                    <Button write onClick={() => setEditing(true)}>
                      Reschedule or edit
                    </Button>
                  )}
                  {(j.status === 'scheduled' || j.status === 'unscheduled') && (
                    <Button write busy={busy === 'start'} onClick={() => act('start')}>
                      Start
                    </Button>
                  )}
                  {open && (
                    <Button
                      variant="primary"
                      write
                      busy={busy === 'complete'}
                      onClick={() => act('complete')}
                    >
                      Mark complete
                    </Button>
                  )}
                  {j.status === 'completed' && (
                    <LinkButton
                      variant="primary"
                      href={`#/invoices/new?job=${encodeURIComponent(j.job_number)}`}
                    >
                      Invoice this job
                    </LinkButton>
                  )}
                </>
              }
            />
            <div className="grid grid-3">
              <Card title="Job">
                <Details
                  items={[
                    ['Starts', j.scheduled_start ? format.dateTime(j.scheduled_start) : 'Not scheduled'],
                    ['Ends', j.scheduled_end ? format.dateTime(j.scheduled_end) : '—'],
                    ['Address', j.address],
                    ['Price', j.price === null ? '—' : format.money(j.price)],
                    ['Started', j.started_at ? format.dateTime(j.started_at) : '—'],
                    [
                      j.cancelled_at ? 'Cancelled' : 'Completed',
                      j.cancelled_at
                        ? format.dateTime(j.cancelled_at)
                        : j.completed_at
                          ? format.dateTime(j.completed_at)
                          : '—',
                    ],
                    ['Notes', j.notes],
                  ]}
                />
              </Card>
              <div className="stack">
                <Card title="Team">
                  {j.assignees.length ? (
                    <ul className="tag-list" aria-label="Assigned">
                      {j.assignees.map((name) => (
                        <li className="tag" key={name}>
                          {name}
                        </li>
                      ))}
                    </ul>
                  ) : (
                    <p className="muted">Nobody assigned yet.</p>
                  )}
                </Card>
                {j.service_plan_id && (
                  <Card title="Service plan">
                    <p className="muted">
                      A visit of a recurring plan
                      {j.occurrence_date ? `, the one for ${format.date(j.occurrence_date)}` : ''}. Moving,
                      reassigning or cancelling it changes this visit only; the plan goes on.
                    </p>
                    <a href={href('plans', j.service_plan_id)}>Open the plan</a>
                  </Card>
                )}
                {(j.quote_id || j.booking_id) && (
                  <Card title="Came from">
                    <p className="muted">
                      {j.quote_id
                        ? 'An accepted quote, converted into this job.'
                        : 'A booking, confirmed into this job.'}
                    </p>
                    {j.booking_id && <a href="#/bookings">Open bookings</a>}
                  </Card>
                )}
                <JobPhotosCard jobId={j.id} />
                <RecordHistoryCard record={`jobs/${j.id}`} version={j.updated_at} onRestored={job.reload} />
              </div>
            </div>
            <JobEditDialog
              open={editing}
              job={j}
              onClose={() => setEditing(false)}
              onSaved={(updated) => {
                job.set(updated);
                setEditing(false);
                toast.show(`Job ${updated.job_number} saved`);
              }}
            />
            <ConfirmDialog
              open={confirmCancel}
              onClose={() => setConfirmCancel(false)}
              title={`Cancel ${j.job_number}?`}
              confirmLabel="Cancel job"
              busy={busy === 'cancel'}
              onConfirm={() => act('cancel')}
            >
              <p>
                The job leaves the calendar and the team schedule. It stays on {j.customer.name}’s history as
                cancelled.
              </p>
            </ConfirmDialog>
          </>
        );
      }}
    </Loaded>
  );
}
