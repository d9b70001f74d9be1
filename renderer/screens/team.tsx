import type { ScheduleGroup } from '../../shared/schemas/team';
import { portal } from '../lib/api';
import { addDays, todayIn } from '../lib/format';
import { count } from '../lib/plural';
import { href } from '../lib/router';
import { useFormat, useSession } from '../lib/session';
import { useResource } from '../lib/use-resource';
import { useWeek } from '../lib/use-week';
import { Button, EmptyState, PageHeader } from '../ui';
import { Loaded } from './common';
import { TeamHours } from './team-hours';
import { TeamMembers } from './team-members';

/** The team: who is where this week, the hours they worked, and who is on the team. */
export function Team() {
  const { session } = useSession();
  const today = todayIn(session.timezone);
  const week = useWeek(today);
  const members = useResource(() => portal.get('/team'), 'team-members');
  return (
    <>
      <TeamSchedule week={week} />
      <TeamHours week={week} today={today} members={members.data?.data ?? []} />
      <TeamMembers members={members} />
    </>
  );
}

/** Who is where, by day: one row per team member, one column per day of the week. */
function TeamSchedule({ week }: { week: ReturnType<typeof useWeek> }) {
  const format = useFormat();
  const { monday: from, sunday: to } = week;
  const schedule = useResource(
    () => portal.get('/team/schedule', { params: { query: { from, to } } }),
    `team:${from}`,
  );
  return (
    <>
      <PageHeader
        title="Team"
        subtitle={`Schedule for ${format.date(from)} – ${format.date(to)}`}
        actions={
          <>
            <Button onClick={week.previous} aria-label="Previous week">
              ←
            </Button>
            <Button onClick={week.thisWeek}>This week</Button>
            <Button onClick={week.next} aria-label="Next week">
              →
            </Button>
          </>
        }
      />
      <Loaded resource={schedule}>
        {(data) => {
          const groups: ScheduleGroup[] = [
            ...data.members,
            ...(data.unassigned.job_count > 0 ? [data.unassigned] : []),
          ];
          if (groups.length === 0) {
            return (
              <div className="table-wrap">
                <EmptyState title="Nothing scheduled this week" icon="⚇">
                  Add your team below, then assign them to jobs.
                </EmptyState>
              </div>
            );
          }
          const days = Array.from({ length: 7 }, (_, i) => addDays(data.from, i));
          return (
            <div
              className="schedule"
              style={{ gridTemplateColumns: `160px repeat(${days.length}, minmax(120px, 1fr))` }}
            >
              <div className="schedule-cell schedule-head">Team</div>
              {days.map((day) => (
                <div key={day} className="schedule-cell schedule-head">
                  {format.weekday(day)}
                </div>
              ))}
              {groups.map((group) => (
                <Row key={group.member?.id ?? 'unassigned'} group={group} days={days} />
              ))}
            </div>
          );
        }}
      </Loaded>
    </>
  );
}

function Row({ group, days }: { group: ScheduleGroup; days: string[] }) {
  const format = useFormat();
  return (
    <>
      <div className="schedule-cell schedule-member">
        {group.member?.name ?? <em>Unassigned</em>}
        <span className="cell-sub">{count(group.job_count, 'job', 'jobs')}</span>
      </div>
      {days.map((day) => {
        const jobs = group.days.find((d) => d.date === day)?.jobs ?? [];
        return (
          // On a phone the day headers are gone: each cell names its day, and empty days fold away.
          <div
            key={day}
            className={jobs.length === 0 ? 'schedule-cell schedule-empty' : 'schedule-cell'}
            data-day={format.weekday(day)}
          >
            {jobs.map((job) => (
              <a
                key={job.id}
                className={`event${job.status === 'completed' ? ' event-completed' : ''}`}
                href={href('jobs', job.job_number)}
              >
                <span className="cell-sub">{format.time(job.start)}</span>
                <strong>{job.title}</strong>
                <span className="cell-sub">{job.customer_name}</span>
                {job.address && (
                  <span className="cell-sub event-place">
                    {job.place_label ? `${job.place_label} · ${job.address}` : job.address}
                  </span>
                )}
                {job.access_notes && <span className="cell-sub event-access">{job.access_notes}</span>}
              </a>
            ))}
          </div>
        );
      })}
    </>
  );
}
