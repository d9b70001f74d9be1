import { useState } from 'react';
import type { Job } from '../../shared/schemas/job';
import { api } from '../lib/api';
import { href } from '../lib/router';
import { useFormat } from '../lib/session';
import { useResource } from '../lib/use-resource';
import { Button, Card, Details, Field, Input, LinkButton, PageHeader, StatusBadge, useToast } from '../ui';
import { Loaded } from './common';
import { parseNames } from './jobs';

type Action = 'start' | 'complete' | 'cancel';

export function JobDetail({ number }: { number: string }) {
  const format = useFormat();
  const toast = useToast();
  const path = `/jobs/${encodeURIComponent(number)}`;
  const job = useResource(() => api.get<Job>(path), path);
  const [busy, setBusy] = useState<string>();
  const [team, setTeam] = useState<string>();

  const act = async (action: Action) => {
    setBusy(action);
    try {
      const updated = await api.post<Job>(`${path}/${action}`);
      job.set(updated);
      toast.show(`Job ${updated.job_number}: ${updated.status.replace('_', ' ')}`);
    } catch (failure) {
      toast.show((failure as Error).message, 'error');
    } finally {
      setBusy(undefined);
    }
  };

  const saveTeam = async (event: React.FormEvent) => {
    event.preventDefault();
    if (team === undefined) return;
    setBusy('team');
    try {
      const updated = await api.patch<Job>(path, { assignees: parseNames(team) });
      job.set(updated);
      setTeam(undefined);
      toast.show('Team updated');
    } catch (failure) {
      toast.show((failure as Error).message, 'error');
    } finally {
      setBusy(undefined);
    }
  };

  return (
    <Loaded resource={job}>
      {(j) => {
        const open = j.status !== 'completed' && j.status !== 'cancelled';
        return (
          <>
            <PageHeader
              back={{ href: '#/jobs', label: 'Jobs' }}
              title={
                <span className="row">
                  {j.job_number} · {j.title} <StatusBadge status={j.status} />
                </span>
              }
              subtitle={<a href={href('customers', j.customer.email)}>{j.customer.name}</a>}
              actions={
                <>
                  {open && (
                    <Button variant="danger" write busy={busy === 'cancel'} onClick={() => act('cancel')}>
                      Cancel job
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
                      href={`#/invoices/new?email=${encodeURIComponent(j.customer.email)}&name=${encodeURIComponent(j.customer.name)}`}
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
                    ['Completed', j.completed_at ? format.dateTime(j.completed_at) : '—'],
                    ['Notes', j.notes],
                  ]}
                />
              </Card>
              <Card title="Team">
                <p>
                  {j.assignees.length ? (
                    j.assignees.join(', ')
                  ) : (
                    <span className="muted">Nobody assigned yet.</span>
                  )}
                </p>
                {open && (
                  <form className="row inline-form" onSubmit={saveTeam}>
                    <Field label="Assign" hint="Names, separated by commas" className="grow">
                      <Input
                        value={team ?? j.assignees.join(', ')}
                        onChange={(e) => setTeam(e.target.value)}
                        placeholder="Sam, Alex"
                      />
                    </Field>
                    <Button type="submit" write busy={busy === 'team'} disabled={team === undefined}>
                      Save
                    </Button>
                  </form>
                )}
              </Card>
            </div>
          </>
        );
      }}
    </Loaded>
  );
}
