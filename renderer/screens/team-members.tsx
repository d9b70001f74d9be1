import { useState } from 'react';
import type { TeamMember } from '../../shared/schemas/team';
import { portal } from '../lib/api';
import { count } from '../lib/plural';
import { useFormat, useSession } from '../lib/session';
import type { Resource } from '../lib/use-resource';
import { useSubmit } from '../lib/use-submit';
import {
  Badge,
  Button,
  Card,
  Dialog,
  EmptyState,
  Field,
  FormAlert,
  fieldError,
  formError,
  Input,
  Select,
  Table,
  useToast,
} from '../ui';
import { Loaded } from './common';
import { EditMemberDialog, InviteDialog, SignInsDialog } from './team-member-dialogs';
import { useBusyAction } from './use-busy-action';

/** The people jobs are assigned to, with how much each has on and has done. */
/** `members` is the team's list, shared with the hours above so both show who joined or left. */
export function TeamMembers({ members }: { members: Resource<{ data: TeamMember[] }> }) {
  const format = useFormat();
  const toast = useToast();
  const { canWrite, may } = useSession();
  const [name, setName] = useState('');
  const adding = useSubmit();
  const returning = useBusyAction<string>();
  const [leaving, setLeaving] = useState<Leaving>();
  const [renaming, setRenaming] = useState<TeamMember>();
  const [inviting, setInviting] = useState<TeamMember>();
  const [signIns, setSignIns] = useState<TeamMember>();
  const bringBack = (member: TeamMember) =>
    returning.perform(member.id, async () => {
      await portal.patch('/team/{id}', { params: { path: { id: member.id } }, body: { active: true } });
      toast.show(`${member.name} is back on the team`);
      members.reload();
    });

  const add = (event: React.FormEvent) => {
    event.preventDefault();
    return adding.run(async () => {
      const member = await portal.post('/team', { body: { name } });
      toast.show(`${member.name} joined the team`);
      setName('');
      members.reload();
    });
  };
  const addError = adding.error;

  return (
    <>
      <h2 className="section-title">Members</h2>
      <Card padded={false}>
        <form className="row inline-form card-body" onSubmit={add} aria-label="Add a team member">
          <Field
            label="Add someone"
            error={fieldError(addError, 'name') ?? formError(addError, ['name'])}
            className="grow"
          >
            <Input
              value={name}
              onChange={(e) => setName(e.target.value)}
              disabled={!canWrite}
              placeholder="Their name; they can then be assigned to jobs and bookings"
            />
          </Field>
          <Button type="submit" variant="primary" write busy={adding.busy} disabled={!name.trim()}>
            Add member
          </Button>
        </form>
        <Loaded resource={members} rows={3}>
          {({ data }) =>
            data.length === 0 ? (
              <EmptyState title="No team members yet" icon="⚇">
                Add the people who do the work; names typed on a job join the team too.
              </EmptyState>
            ) : (
              <Table
                caption="Team members"
                rows={data}
                rowKey={(m) => m.id}
                columns={[
                  {
                    header: 'Name',
                    cell: (m) => (
                      <>
                        <span className="cell-title">
                          {m.name} {!m.active && <Badge>Inactive</Badge>}
                        </span>
                        <div className="cell-sub">Since {format.dateOf(m.created_at)}</div>
                      </>
                    ),
                  },
                  { header: 'Role', cell: (m) => <Badge>{m.role}</Badge> },
                  {
                    header: 'Signed in',
                    cell: (m) => {
                      const signIns = `${count(m.live_sessions, 'session', 'sessions')}, ${count(m.passkeys, 'passkey', 'passkeys')}`;
                      // Others' sessions are the owner's to see and end.
                      return may('admin') ? (
                        <Button
                          size="sm"
                          variant="ghost"
                          onClick={() => setSignIns(m)}
                          aria-label={`${m.name}'s sign-ins`}
                        >
                          {signIns}
                        </Button>
                      ) : (
                        <span className="muted">{signIns}</span>
                      );
                    },
                  },
                  {
                    header: 'Jobs',
                    cell: (m) =>
                      `${format.number(m.open_jobs)} open, ${format.number(m.completed_jobs)} done`,
                  },
                  {
                    header: <span className="sr-only">Actions</span>,
                    align: 'right',
                    cell: (m) => (
                      <div className="row row-end team-member-actions">
                        <Button
                          size="sm"
                          variant="ghost"
                          write
                          onClick={() => setRenaming(m)}
                          aria-label={`Edit ${m.name}`}
                        >
                          Edit
                        </Button>
                        {m.active && (
                          <Button
                            size="sm"
                            variant="ghost"
                            write
                            needs="admin"
                            onClick={() => setInviting(m)}
                            aria-label={`Invite ${m.name}`}
                          >
                            Invite
                          </Button>
                        )}
                        {m.active ? (
                          <Button
                            size="sm"
                            variant="ghost"
                            write
                            onClick={() => setLeaving({ member: m, how: 'deactivate' })}
                            aria-label={`Deactivate ${m.name}`}
                          >
                            Deactivate
                          </Button>
                        ) : (
                          <Button
                            size="sm"
                            variant="ghost"
                            write
                            busy={returning.busy === m.id}
                            onClick={() => bringBack(m)}
                            aria-label={`Bring back ${m.name}`}
                          >
                            Bring back
                          </Button>
                        )}
                        <Button
                          size="sm"
                          variant="ghost"
                          write
                          onClick={() => setLeaving({ member: m, how: 'remove' })}
                          aria-label={`Remove ${m.name}`}
                        >
                          Remove
                        </Button>
                      </div>
                    ),
                  },
                ]}
              />
            )
          }
        </Loaded>
      </Card>
      <LeaveDialog
        leaving={leaving}
        team={members.data?.data ?? []}
        onClose={() => setLeaving(undefined)}
        onDone={(message) => {
          setLeaving(undefined);
          toast.show(message);
          members.reload();
        }}
      />
      <EditMemberDialog
        member={renaming}
        onClose={() => setRenaming(undefined)}
        onDone={(member) => {
          setRenaming(undefined);
          toast.show(`${member.name} saved`);
          members.reload();
        }}
      />
      <InviteDialog member={inviting} onClose={() => setInviting(undefined)} />
      <SignInsDialog
        member={signIns}
        onClose={() => {
          setSignIns(undefined);
          members.reload();
        }}
      />
    </>
  );
}

type Leaving = { member: TeamMember; how: 'remove' | 'deactivate' };

/**
 * Removing or deactivating someone: their open jobs go to a teammate the owner picks here, so
 * nobody's work is left without a person.
 */
function LeaveDialog({
  leaving,
  team,
  onClose,
  onDone,
}: {
  leaving: Leaving | undefined;
  team: TeamMember[];
  onClose(): void;
  onDone(message: string): void;
}) {
  const [heir, setHeir] = useState('');
  const { busy, error, setError, run } = useSubmit();
  const member = leaving?.member;
  const others = team.filter((m) => m.active && m.id !== member?.id);
  const open = member?.open_jobs ?? 0;
  const close = () => {
    setHeir('');
    setError(undefined);
    onClose();
  };
  const confirm = () =>
    run(async () => {
      if (!leaving || !member) return;
      const reassign = open > 0 ? heir : undefined;
      if (leaving.how === 'remove') {
        await portal.delete('/team/{id}', {
          params: { path: { id: member.id }, query: { reassign_to: reassign } },
        });
      } else {
        await portal.patch('/team/{id}', {
          params: { path: { id: member.id } },
          body: { active: false, reassign_to: reassign },
        });
      }
      const to = others.find((m) => m.id === reassign)?.name;
      setHeir('');
      onDone(
        `${member.name} ${leaving.how === 'remove' ? 'removed from the team' : 'deactivated'}${to ? `; ${to} has their open jobs` : ''}`,
      );
    });
  const verb = leaving?.how === 'remove' ? 'Remove' : 'Deactivate';
  return (
    <Dialog
      open={Boolean(leaving)}
      onClose={close}
      title={member ? `${verb} ${member.name}?` : ''}
      footer={
        <>
          <Button onClick={close}>Keep</Button>
          <Button variant="danger" write busy={busy} disabled={open > 0 && !heir} onClick={confirm}>
            {verb}
          </Button>
        </>
      }
    >
      {member && (
        <div className="stack">
          <p>
            {leaving?.how === 'remove'
              ? `${member.name} leaves the team. ${count(member.completed_jobs, 'finished job keeps', 'finished jobs keep')} their history.`
              : `${member.name} stays on past jobs but is no longer offered for new ones. You can bring them back.`}
          </p>
          {open > 0 &&
            (others.length > 0 ? (
              <Field
                label={`Who takes over ${member.name}'s ${count(open, 'open job', 'open jobs')}?`}
                error={fieldError(error, 'reassign_to')}
              >
                <Select value={heir} onChange={(e) => setHeir(e.target.value)}>
                  <option value="">Choose a teammate</option>
                  {others.map((m) => (
                    <option key={m.id} value={m.id}>
                      {m.name}
                    </option>
                  ))}
                </Select>
              </Field>
            ) : (
              <div className="notice notice-error" role="alert" data-testid="remove-member-error">
                {member.name} has {count(open, 'open job', 'open jobs')} and nobody else is on the team to
                take them over: add someone first, or finish or cancel those jobs.
              </div>
            ))}
          <FormAlert error={error} params={['reassign_to']} />
        </div>
      )}
    </Dialog>
  );
}
