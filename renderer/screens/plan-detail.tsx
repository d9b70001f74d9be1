import { useState } from 'react';
import type { Job } from '../../shared/schemas/job';
import { portal } from '../lib/api';
import { count } from '../lib/plural';
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
  Table,
  useToast,
} from '../ui';
import { Loaded } from './common';
import { BILLING_LABEL, PlanStatus } from './plan-list';
import { useBusyAction } from './use-busy-action';

/** A service plan: its visits ahead and behind, each with where it is, and the plan's terms. */
export function PlanDetail({ id }: { id: string }) {
  const format = useFormat();
  const toast = useToast();
  const byId = { params: { path: { id } } };
  const plan = useResource(() => portal.get('/service-plans/{id}', byId), `plan:${id}`);
  const visits = (when: 'upcoming' | 'past', limit: number) => () =>
    portal.get('/service-plans/{id}/visits', { params: { path: { id }, query: { when, limit } } });
  const upcoming = useResource(visits('upcoming', 20), `plan:${id}:upcoming:${plan.data?.updated_at}`);
  const past = useResource(visits('past', 10), `plan:${id}:past:${plan.data?.updated_at}`);
  const [confirmEnd, setConfirmEnd] = useState(false);
  const { busy, perform } = useBusyAction<'end'>();

  const end = async () => {
    const ended = await perform('end', async () => {
      plan.set(await portal.post('/service-plans/{id}/end', { ...byId, body: {} }));
    });
    setConfirmEnd(false);
    if (ended) toast.show('Plan ended: no more visits will be made');
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
            busy={busy === 'end'}
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
        { header: 'Address', cell: (j) => j.address ?? '—' },
        { header: 'Team', cell: (j) => j.assignees.join(', ') || '—' },
        { header: 'Status', cell: (j) => <StatusBadge status={j.status} /> },
      ]}
    />
  );
}
