import { useState } from 'react';
import type { TeamMember } from '../../shared/schemas/team';
import type { TimeEntry, TimesheetPerson } from '../../shared/schemas/time-entry';
import { portal, portalUrl } from '../lib/api';
import { addDays, zonedLocalToIso } from '../lib/format';
import { useFormat, useSession } from '../lib/session';
import { useResource } from '../lib/use-resource';
import { useSubmit } from '../lib/use-submit';
import type { useWeek } from '../lib/use-week';
import { Button, Card, EmptyState, Field, FormAlert, fieldError, Input, Select, useToast } from '../ui';
import { Loaded } from './common';
import { useBusyAction } from './use-busy-action';
import '../styles/hours.css';

const hours = (minutes: number) => (minutes / 60).toFixed(2);

/**
 * Hours worked this week: who is clocked in, each person's hours by day, and what payroll needs
 * (the CSV). The owner clocks people in and out here or types hours after the fact.
 */
type Week = ReturnType<typeof useWeek>;

export function TeamHours({ week, today, members }: { week: Week; today: string; members: TeamMember[] }) {
  const format = useFormat();
  // Who is clocked in now, whatever week the timesheet shows.
  const clockedIn = useResource(
    () => portal.get('/time-entries', { params: { query: { open: 'true', limit: 100 } } }),
    'hours-open',
  );
  const reload = () => {
    sheet.reload();
    clockedIn.reload();
  };
  const toast = useToast();
  const { monday: from, sunday: to } = week;
  const sheet = useResource(
    () => portal.get('/timesheet', { params: { query: { from, to } } }),
    `hours:${from}`,
  );
  const clocking = useBusyAction<string>();
  const active = members.filter((m) => m.active);

  const clockIn = (member: TeamMember) =>
    clocking.perform(member.id, async () => {
      await portal.post('/time-entries/clock-in', { body: { member_id: member.id } });
      toast.show(`${member.name} is clocked in`);
      reload();
    });
  const clockOut = (entry: TimeEntry) =>
    clocking.perform(entry.member_id, async () => {
      const ended = await portal.post('/time-entries/{id}/clock-out', { params: { path: { id: entry.id } } });
      toast.show(`${ended.member_name} is clocked out after ${hours(ended.minutes ?? 0)} hours`);
      reload();
    });
  const remove = (entry: TimeEntry) =>
    clocking.perform(entry.id, async () => {
      await portal.delete('/time-entries/{id}', { params: { path: { id: entry.id } } });
      toast.show('Hours removed');
      reload();
    });

  return (
    <>
      <div className="row section-row">
        <h2 className="section-title grow">Hours</h2>
        <a className="btn btn-secondary btn-sm" href={portalUrl('/timesheet.csv', { from, to })} download>
          Download for payroll (CSV)
        </a>
      </div>
      <Loaded resource={sheet} rows={2}>
        {(data) => {
          const openFor = (memberId: string) => clockedIn.data?.data.find((e) => e.member_id === memberId);
          return (
            <>
              {active.length > 0 && (
                <Card>
                  <section className="hours-clock" aria-label="Clock in and out">
                    {active.map((member) => {
                      const entry = openFor(member.id);
                      return (
                        <div key={member.id} className="hours-clock-person">
                          <span>
                            <strong>{member.name}</strong>
                            <span className="cell-sub">
                              {entry ? `In since ${format.time(entry.started_at)}` : 'Not clocked in'}
                            </span>
                          </span>
                          {entry ? (
                            <Button
                              size="sm"
                              write
                              busy={clocking.busy === member.id}
                              onClick={() => clockOut(entry)}
                            >
                              Clock {member.name} out
                            </Button>
                          ) : (
                            <Button
                              size="sm"
                              write
                              busy={clocking.busy === member.id}
                              onClick={() => clockIn(member)}
                            >
                              Clock {member.name} in
                            </Button>
                          )}
                        </div>
                      );
                    })}
                  </section>
                </Card>
              )}
              {data.people.length === 0 ? (
                <div className="table-wrap">
                  <EmptyState title="No hours this week" icon="◷">
                    Clock someone in above, or add hours worked after the fact below.
                  </EmptyState>
                </div>
              ) : (
                <div className="table-wrap">
                  <table className="table hours-table">
                    <caption className="sr-only">Hours by person and day</caption>
                    <thead>
                      <tr>
                        <th scope="col">Person</th>
                        {data.people[0]?.days.map((d) => (
                          <th key={d.date} scope="col" className="align-right">
                            {format.weekday(d.date)}
                          </th>
                        ))}
                        <th scope="col" className="align-right">
                          Total
                        </th>
                      </tr>
                    </thead>
                    <tbody>
                      {data.people.map((person) => (
                        <PersonRow key={person.member.id} person={person} onRemove={remove} />
                      ))}
                    </tbody>
                  </table>
                </div>
              )}
              <p className="cell-sub">
                {hours(data.total_minutes)} hours in all, {format.date(data.from)} – {format.date(data.to)}. A
                shift counts on the day it started.
              </p>
            </>
          );
        }}
      </Loaded>
      <AddHours
        members={active}
        defaultDate={today >= from && today <= to ? today : from}
        onAdded={sheet.reload}
      />
    </>
  );
}

function PersonRow({ person, onRemove }: { person: TimesheetPerson; onRemove: (e: TimeEntry) => void }) {
  const format = useFormat();
  const [open, setOpen] = useState(false);
  return (
    <>
      <tr>
        <th scope="row">
          <Button size="sm" variant="ghost" aria-expanded={open} onClick={() => setOpen(!open)}>
            {person.member.name}
          </Button>
        </th>
        {person.days.map((d) => (
          <td key={d.date} className="align-right">
            {d.minutes ? hours(d.minutes) : '–'}
          </td>
        ))}
        <td className="align-right">
          <strong>{hours(person.total_minutes)}</strong>
        </td>
      </tr>
      {open &&
        person.entries.map((entry) => (
          <tr key={entry.id} className="hours-entry">
            <td colSpan={person.days.length + 1}>
              {format.dateOf(entry.started_at)} {format.time(entry.started_at)} –{' '}
              {entry.ended_at ? format.time(entry.ended_at) : 'now'}
              {entry.job_number && ` · ${entry.job_number}`}
              {entry.note && ` · ${entry.note}`}
            </td>
            <td className="align-right">
              <Button
                size="sm"
                variant="ghost"
                write
                onClick={() => onRemove(entry)}
                aria-label="Remove these hours"
              >
                Remove
              </Button>
            </td>
          </tr>
        ))}
    </>
  );
}

function AddHours({
  members,
  defaultDate,
  onAdded,
}: {
  members: TeamMember[];
  defaultDate: string;
  onAdded: () => void;
}) {
  const { session } = useSession();
  const toast = useToast();
  const adding = useSubmit();
  const [memberId, setMemberId] = useState('');
  const [date, setDate] = useState(defaultDate);
  const [start, setStart] = useState('08:00');
  const [end, setEnd] = useState('16:00');
  const [note, setNote] = useState('');
  if (members.length === 0) return null;

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    return adding.run(async () => {
      const startedAt = zonedLocalToIso(`${date}T${start}`, session.timezone);
      // A shift ending before it starts ran past midnight.
      const endDate = end <= start ? addDays(date, 1) : date;
      const entry = await portal.post('/time-entries', {
        body: {
          member_id: memberId || members[0]!.id,
          started_at: startedAt,
          ended_at: zonedLocalToIso(`${endDate}T${end}`, session.timezone),
          note: note.trim() || null,
        },
      });
      toast.show(`${hours(entry.minutes ?? 0)} hours added for ${entry.member_name}`);
      setNote('');
      onAdded();
    });
  };
  const error = adding.error;
  return (
    <Card>
      <form className="hours-form" onSubmit={submit} aria-label="Add hours">
        <Field label="Person" error={fieldError(error, 'member_id')}>
          <Select value={memberId || members[0]!.id} onChange={(e) => setMemberId(e.target.value)}>
            {members.map((m) => (
              <option key={m.id} value={m.id}>
                {m.name}
              </option>
            ))}
          </Select>
        </Field>
        <Field label="Day">
          <Input type="date" value={date} onChange={(e) => setDate(e.target.value)} required />
        </Field>
        <Field label="From" error={fieldError(error, 'started_at')}>
          <Input type="time" value={start} onChange={(e) => setStart(e.target.value)} required />
        </Field>
        <Field label="To" error={fieldError(error, 'ended_at')}>
          <Input type="time" value={end} onChange={(e) => setEnd(e.target.value)} required />
        </Field>
        <Field label="Note" className="grow">
          <Input value={note} onChange={(e) => setNote(e.target.value)} maxLength={500} />
        </Field>
        <Button type="submit" variant="primary" write busy={adding.busy}>
          Add hours
        </Button>
        <FormAlert error={error} params={['member_id', 'started_at', 'ended_at']} />
      </form>
    </Card>
  );
}
