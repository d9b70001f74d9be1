import { useState } from 'react';
import type { TeamMember } from '../../shared/schemas/team';
import { api, errorMessage } from '../lib/api';
import { useFormat, useSession } from '../lib/session';
import { useResource } from '../lib/use-resource';
import {
  Button,
  Card,
  Dialog,
  EmptyState,
  Field,
  fieldError,
  formError,
  Input,
  Table,
  useToast,
} from '../ui';
import { Loaded } from './common';

/** The people jobs are assigned to, with how much each has on and has done. */
export function TeamMembers() {
  const format = useFormat();
  const toast = useToast();
  const { canWrite } = useSession();
  const members = useResource(() => api.get<{ data: TeamMember[] }>('/team'), 'team-members');
  const [name, setName] = useState('');
  const [adding, setAdding] = useState(false);
  const [addError, setAddError] = useState<unknown>();
  const [removing, setRemoving] = useState<TeamMember>();

  const add = async (event: React.FormEvent) => {
    event.preventDefault();
    setAdding(true);
    setAddError(undefined);
    try {
      const member = await api.post<TeamMember>('/team', { name });
      toast.show(`${member.name} joined the team`);
      setName('');
      members.reload();
    } catch (failure) {
      setAddError(failure);
    } finally {
      setAdding(false);
    }
  };

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
          <Button type="submit" variant="primary" write busy={adding} disabled={!name.trim()}>
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
                  { header: 'Name', cell: (m) => <span className="cell-title">{m.name}</span> },
                  {
                    header: 'Open jobs',
                    align: 'right',
                    cell: (m) => format.number(m.open_jobs),
                  },
                  { header: 'Completed jobs', align: 'right', cell: (m) => format.number(m.completed_jobs) },
                  { header: 'On the team since', cell: (m) => format.date(m.created_at) },
                  {
                    header: <span className="sr-only">Actions</span>,
                    align: 'right',
                    cell: (m) => (
                      <Button
                        size="sm"
                        variant="ghost"
                        write
                        onClick={() => setRemoving(m)}
                        aria-label={`Remove ${m.name}`}
                      >
                        Remove
                      </Button>
                    ),
                  },
                ]}
              />
            )
          }
        </Loaded>
      </Card>
      <RemoveMemberDialog
        member={removing}
        onClose={() => setRemoving(undefined)}
        onRemoved={(member) => {
          setRemoving(undefined);
          toast.show(`${member.name} removed from the team`);
          members.reload();
        }}
      />
    </>
  );
}

function RemoveMemberDialog({
  member,
  onClose,
  onRemoved,
}: {
  member: TeamMember | undefined;
  onClose(): void;
  onRemoved(member: TeamMember): void;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const close = () => {
    setError(undefined);
    onClose();
  };
  const remove = async () => {
    if (!member) return;
    setBusy(true);
    setError(undefined);
    try {
      await api.delete(`/team/${encodeURIComponent(member.id)}`);
      onRemoved(member);
    } catch (failure) {
      // A 409 says in words which open jobs hold the member back; it is shown as the server wrote it.
      setError(errorMessage(failure));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog
      open={Boolean(member)}
      onClose={close}
      title={member ? `Remove ${member.name}?` : ''}
      footer={
        error ? (
          <Button variant="primary" onClick={close}>
            OK
          </Button>
        ) : (
          <>
            <Button onClick={close}>Keep</Button>
            <Button variant="danger" write busy={busy} onClick={remove}>
              Remove
            </Button>
          </>
        )
      }
    >
      {error ? (
        <div className="notice notice-error" role="alert" data-testid="remove-member-error">
          <strong>{member?.name} cannot be removed yet.</strong> {error}
        </div>
      ) : (
        member && (
          <p>
            {member.name} leaves the team. Their {member.completed_jobs} finished job(s) keep their history.
            {member.open_jobs > 0 &&
              ` They still have ${member.open_jobs} open job(s): reassign or finish those first.`}
          </p>
        )
      )}
    </Dialog>
  );
}
