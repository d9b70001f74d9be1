import { useEffect, useState } from 'react';
import type { MemberRole, TeamMember } from '../../shared/schemas/team';
import type { MemberInvite } from '../../shared/schemas/team-access';
import { portal } from '../lib/api';
import { useFormat, useSession } from '../lib/session';
import { useResource } from '../lib/use-resource';
import { useSubmit } from '../lib/use-submit';
import {
  Button,
  Checkbox,
  CopyButton,
  Dialog,
  Field,
  FormActions,
  FormAlert,
  fieldError,
  Input,
  Select,
} from '../ui';
import { Loaded } from './common';
import { useBusyAction } from './use-busy-action';

const ROLES: Record<MemberRole, string> = {
  owner: 'Owner: everything',
  office: 'Office: all but plans, keys, backups, sync and roles',
  crew: 'Crew: their own visits',
};

/**
 * A member's name, how to reach them, their role and whether they see prices. Role and prices are
 * sent only when changed: they are the owner's to set, and the server answers anyone else 403.
 */
export function EditMemberDialog({
  member,
  onClose,
  onDone,
}: {
  member: TeamMember | undefined;
  onClose(): void;
  onDone(member: TeamMember): void;
}) {
  const [form, setForm] = useState({
    name: '',
    email: '',
    phone: '',
    role: 'crew' as MemberRole,
    prices: false,
  });
  const { busy, error, setError, run } = useSubmit();
  const setsRoles = useSession().may('admin');
  useEffect(() => {
    if (member) {
      setForm({
        name: member.name,
        email: member.email ?? '',
        phone: member.phone ?? '',
        role: member.role,
        prices: member.can_see_prices,
      });
    }
  }, [member]);
  const close = () => {
    setError(undefined);
    onClose();
  };
  const save = (event: React.FormEvent) => {
    event.preventDefault();
    return run(async () => {
      if (!member) return;
      const body = {
        name: form.name,
        email: form.email.trim() || null,
        phone: form.phone.trim() || null,
        ...(form.role !== member.role && { role: form.role }),
        ...(form.prices !== member.can_see_prices && { can_see_prices: form.prices }),
      };
      onDone(await portal.patch('/team/{id}', { params: { path: { id: member.id } }, body }));
    });
  };
  return (
    <Dialog open={Boolean(member)} onClose={close} title={member ? `Edit ${member.name}` : ''}>
      <form onSubmit={save} noValidate className="stack" aria-label="Edit a team member">
        <FormAlert error={error} params={['name', 'email', 'phone', 'role', 'can_see_prices']} />
        <Field
          label="Name"
          hint="Their jobs, past and open, show the new name"
          error={fieldError(error, 'name')}
        >
          <Input value={form.name} onChange={(e) => setForm({ ...form, name: e.target.value })} />
        </Field>
        <Field label="E-mail" hint="Where an invitation can be sent" error={fieldError(error, 'email')}>
          <Input
            type="email"
            value={form.email}
            onChange={(e) => setForm({ ...form, email: e.target.value })}
          />
        </Field>
        <Field label="Phone" error={fieldError(error, 'phone')}>
          <Input value={form.phone} onChange={(e) => setForm({ ...form, phone: e.target.value })} />
        </Field>
        <Field
          label="Role"
          hint={setsRoles ? undefined : 'Only an owner changes roles and who sees prices'}
          error={fieldError(error, 'role')}
        >
          <Select
            value={form.role}
            disabled={!setsRoles}
            onChange={(e) => setForm({ ...form, role: e.target.value as MemberRole })}
          >
            {Object.entries(ROLES).map(([role, label]) => (
              <option key={role} value={role}>
                {label}
              </option>
            ))}
          </Select>
        </Field>
        {form.role === 'crew' && (
          <Checkbox
            label="Can see prices on their visits"
            disabled={!setsRoles}
            checked={form.prices}
            onChange={(e) => setForm({ ...form, prices: e.target.checked })}
          />
        )}
        <FormActions onCancel={close} submitLabel="Save" busy={busy} />
      </form>
    </Dialog>
  );
}

/** A one-time link for the member's phone: shown with its QR code, copied or e-mailed. */
export function InviteDialog({ member, onClose }: { member: TeamMember | undefined; onClose(): void }) {
  const [invite, setInvite] = useState<MemberInvite>();
  const { busy, error, setError, run } = useSubmit();
  const make = (email: boolean) =>
    run(async () => {
      if (!member) return;
      setInvite(
        await portal.post('/team/{id}/invites', { params: { path: { id: member.id } }, body: { email } }),
      );
    });
  const close = () => {
    setInvite(undefined);
    setError(undefined);
    onClose();
  };
  return (
    <Dialog open={Boolean(member)} onClose={close} title={member ? `Invite ${member.name}` : ''}>
      <div className="stack" data-testid="invite-dialog">
        <p>
          A link that signs {member?.name} in on their phone. It works once, for 7 days; a new one replaces
          any earlier link.
        </p>
        <FormAlert error={error} params={[]} />
        {invite ? (
          <>
            <img
              className="invite-qr"
              alt={`QR code of ${member?.name}'s invitation`}
              src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(invite.qr_svg)}`}
            />
            <Input readOnly value={invite.url} aria-label="Invitation link" />
            <div className="row">
              <CopyButton text={invite.url} label="Copy link" />
              {invite.emailed_to && <span>E-mailed to {invite.emailed_to}</span>}
            </div>
          </>
        ) : (
          <div className="row">
            <Button variant="primary" write busy={busy} onClick={() => make(false)}>
              Make a link
            </Button>
            <Button write busy={busy} disabled={!member?.email} onClick={() => make(true)}>
              {member?.email ? `E-mail it to ${member.email}` : 'No e-mail address to send it to'}
            </Button>
          </div>
        )}
      </div>
    </Dialog>
  );
}

/** Where the member is signed in and their passkeys; the owner ends any of them. */
export function SignInsDialog({ member, onClose }: { member: TeamMember | undefined; onClose(): void }) {
  const format = useFormat();
  const id = member?.id ?? '';
  const sessions = useResource(
    () =>
      id ? portal.get('/team/{id}/sessions', { params: { path: { id } } }) : Promise.resolve({ data: [] }),
    id,
  );
  const passkeys = useResource(
    () =>
      id ? portal.get('/team/{id}/passkeys', { params: { path: { id } } }) : Promise.resolve({ data: [] }),
    id,
  );
  const ending = useBusyAction<string>();
  const endSession = (sessionId: string | null) =>
    ending.perform(sessionId ?? 'all', async () => {
      if (sessionId) {
        await portal.post('/team/{id}/sessions/{session_id}/revoke', {
          params: { path: { id, session_id: sessionId } },
        });
      } else await portal.post('/team/{id}/sessions/revoke', { params: { path: { id } } });
      sessions.reload();
    });
  const revokePasskey = (passkeyId: string) =>
    ending.perform(passkeyId, async () => {
      await portal.post('/team/{id}/passkeys/{passkey_id}/revoke', {
        params: { path: { id, passkey_id: passkeyId } },
      });
      passkeys.reload();
    });
  return (
    <Dialog open={Boolean(member)} onClose={onClose} title={member ? `${member.name}'s sign-ins` : ''}>
      <div className="stack">
        <h3>Signed in on</h3>
        <Loaded resource={sessions} rows={2}>
          {({ data }) =>
            data.length === 0 ? (
              <p className="muted">Nowhere at the moment.</p>
            ) : (
              <ul className="sign-in-list">
                {data.map((s) => (
                  <li key={s.id}>
                    <span>
                      {s.user_agent ?? 'A browser'} · since {format.dateOf(s.created_at)} · until{' '}
                      {format.dateOf(s.expires_at)}
                    </span>
                    <Button
                      size="sm"
                      variant="ghost"
                      write
                      busy={ending.busy === s.id}
                      onClick={() => endSession(s.id)}
                    >
                      Sign out
                    </Button>
                  </li>
                ))}
              </ul>
            )
          }
        </Loaded>
        {(sessions.data?.data.length ?? 0) > 1 && (
          <Button variant="danger" write busy={ending.busy === 'all'} onClick={() => endSession(null)}>
            Sign out everywhere
          </Button>
        )}
        <h3>Passkeys</h3>
        <Loaded resource={passkeys} rows={1}>
          {({ data }) =>
            data.length === 0 ? (
              <p className="muted">None: they sign in with an invitation link.</p>
            ) : (
              <ul className="sign-in-list">
                {data.map((p) => (
                  <li key={p.id}>
                    <span>Added {format.dateOf(p.created_at)}</span>
                    <Button
                      size="sm"
                      variant="ghost"
                      write
                      busy={ending.busy === p.id}
                      onClick={() => revokePasskey(p.id)}
                    >
                      Revoke
                    </Button>
                  </li>
                ))}
              </ul>
            )
          }
        </Loaded>
      </div>
    </Dialog>
  );
}
