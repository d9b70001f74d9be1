import { portal } from '../lib/api';
import { count } from '../lib/plural';
import { useFormat, useSession } from '../lib/session';
import { useResource } from '../lib/use-resource';
import { EmptyState, Notice, PageHeader } from '../ui';
import { Loaded } from './common';

/**
 * What a crew member who opens the office UI is offered: their own visits this week (the server
 * answers a crew member's schedule with their own jobs only) and the way to their phone app.
 */
export function MyWork() {
  const format = useFormat();
  const { session } = useSession();
  const schedule = useResource(() => portal.get('/team/schedule'), 'my-work');
  return (
    <>
      <PageHeader title="My schedule" subtitle={session.member.name ?? undefined} />
      <Notice tone="info">
        Your visits, hours and sign-offs are on your phone: open{' '}
        <a href="/crew/">{`${location.host}/crew/`}</a>.
      </Notice>
      <Loaded resource={schedule}>
        {(data) => {
          const days = (data.members[0]?.days ?? []).filter((day) => day.jobs.length > 0);
          if (days.length === 0) {
            return (
              <EmptyState title="No visits this week">Nothing is scheduled for you this week.</EmptyState>
            );
          }
          return (
            <div className="my-work">
              <p>{count(data.members[0]?.job_count ?? 0, 'visit', 'visits')} this week</p>
              {days.map((day) => (
                <section key={day.date} className="my-work-day">
                  <h2>{format.date(day.date)}</h2>
                  <ul>
                    {day.jobs.map((job) => (
                      <li key={job.id}>
                        <strong>{format.time(job.start)}</strong> {job.title} · {job.customer_name}
                        {job.address && <div className="my-work-place">{job.address}</div>}
                        {job.access_notes && <div className="my-work-place">{job.access_notes}</div>}
                      </li>
                    ))}
                  </ul>
                </section>
              ))}
            </div>
          );
        }}
      </Loaded>
    </>
  );
}
