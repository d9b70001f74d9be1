import { type FormEvent, useState } from 'react';
import type { Backup, BackupStatus } from '../../../shared/schemas/backup';
import { portal } from '../../lib/api';
import { useFormat } from '../../lib/session';
import { useResource } from '../../lib/use-resource';
import { useSubmit } from '../../lib/use-submit';
import {
  Badge,
  Button,
  Card,
  ConfirmDialog,
  Details,
  Field,
  fieldError,
  formError,
  Input,
  Notice,
  Table,
  type Tone,
  useToast,
} from '../../ui';
import { Loaded } from '../common';
import { useBusyAction } from '../use-busy-action';

const HEALTH: Record<BackupStatus['health'], { tone: Tone; label: string }> = {
  ok: { tone: 'success', label: 'Up to date' },
  failed: { tone: 'danger', label: 'Last backup failed' },
  overdue: { tone: 'warning', label: 'Overdue' },
  never: { tone: 'warning', label: 'No backup yet' },
};

const RESULT_TONE: Record<Backup['result'], Tone> = {
  verified: 'success',
  failed: 'danger',
  missing: 'danger',
};

const REASON: Record<Backup['reason'], string> = {
  scheduled: 'Daily',
  manual: 'By hand',
  'pre-migration': 'Before an update',
  'pre-restore': 'Before a restore',
};

function megabytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

export function BackupHealthBadge({ health }: { health: BackupStatus['health'] }) {
  return <Badge tone={HEALTH[health].tone}>{HEALTH[health].label}</Badge>;
}

/** Settings > Backups: how the backups are doing, where they go, and the way back to any of them. */
export function BackupSettings() {
  const overview = useResource(() => portal.get('/backups'), 'backups');
  const { busy, perform } = useBusyAction<string>();
  const toast = useToast();
  const format = useFormat();
  const [restoring, setRestoring] = useState<Backup>();

  const backUpNow = () =>
    perform('create', async () => {
      await portal.post('/backups');
      toast.show('Backed up and verified.', 'success');
      overview.reload();
    });
  const verify = (backup: Backup) =>
    perform(`verify:${backup.id}`, async () => {
      const checked = await portal.post('/backups/{backup_id}/verify', {
        params: { path: { backup_id: backup.id } },
      });
      toast.show(
        checked.result === 'verified' ? 'The backup is intact.' : `Problem: ${checked.error}`,
        checked.result === 'verified' ? 'success' : 'error',
      );
      overview.reload();
    });
  const restore = (backup: Backup) =>
    perform('restore', async () => {
      const result = await portal.post('/backups/{backup_id}/restore', {
        params: { path: { backup_id: backup.id } },
      });
      setRestoring(undefined);
      toast.show(
        `Restored the backup of ${format.dateTime(result.restored.created_at)}; the data it replaced is kept as a backup.`,
        'success',
      );
      overview.reload();
    });

  return (
    <Loaded resource={overview}>
      {({ status, data, managed_by }) => (
        <div className="stack">
          <Card
            title="Backups"
            actions={
              managed_by === 'owner' && (
                <Button variant="primary" write busy={busy === 'create'} onClick={backUpNow}>
                  Back up now
                </Button>
              )
            }
          >
            {managed_by === 'operator' && (
              <Notice>
                <span data-testid="backups-operator">
                  This data folder holds several businesses, and every backup holds them all. Whoever runs
                  this installation chooses where backups go and makes and restores them with the command line
                  (shopdesk backup). Here you can see them and check them.
                </span>
              </Notice>
            )}
            {status.last_error && <Notice tone="warning">{status.last_error}</Notice>}
            <Details
              items={[
                ['Status', <BackupHealthBadge key="health" health={status.health} />],
                ['Last backup', status.last_success_at ? format.dateTime(status.last_success_at) : 'Never'],
                ['Next backup', format.dateTime(status.next_due_at)],
                ['Encryption', status.encrypted ? 'Database and backups encrypted' : 'Not encrypted'],
              ]}
            />
            <p className="muted">
              Shopdesk backs up once a day while it runs, and before every update. It keeps the last 7 days, 4
              weeks and 12 months. Each backup is checked after it is written.
            </p>
          </Card>
          {managed_by === 'owner' ? (
            <BackupFolder status={status} onChanged={overview.reload} />
          ) : (
            <Card title="Where backups go">
              <Details items={[['Backups folder', status.folder]]} />
            </Card>
          )}
          {window.shopdesk && <RecoveryKey />}
          <Card title="Saved backups" padded={false}>
            <Table
              caption="Saved backups"
              rows={data}
              rowKey={(backup) => backup.id}
              columns={[
                { header: 'Taken', cell: (backup) => format.dateTime(backup.created_at) },
                { header: 'Why', cell: (backup) => REASON[backup.reason] },
                { header: 'Size', cell: (backup) => megabytes(backup.size_bytes), align: 'right' },
                {
                  header: 'Check',
                  cell: (backup) => <Badge tone={RESULT_TONE[backup.result]}>{backup.result}</Badge>,
                },
                {
                  header: '',
                  align: 'right',
                  cell: (backup) => (
                    <div className="row">
                      <Button busy={busy === `verify:${backup.id}`} onClick={() => verify(backup)}>
                        Verify
                      </Button>
                      {managed_by === 'owner' && (
                        <Button
                          write
                          variant="danger"
                          disabled={backup.result !== 'verified'}
                          onClick={() => setRestoring(backup)}
                        >
                          Restore…
                        </Button>
                      )}
                    </div>
                  ),
                },
              ]}
            />
          </Card>
          <ConfirmDialog
            open={restoring !== undefined}
            title="Restore this backup?"
            onClose={() => setRestoring(undefined)}
            confirmLabel="Restore"
            busy={busy === 'restore'}
            onConfirm={() => restoring && restore(restoring)}
          >
            <p>
              Everything will be as it was on {restoring && format.dateTime(restoring.created_at)}. Changes
              made since then disappear from the app, but are not lost: the current data is kept as a backup
              first, and you can restore it the same way.
            </p>
            <p className="muted">Shopdesk pauses for a few seconds while it swaps the data.</p>
          </ConfirmDialog>
        </div>
      )}
    </Loaded>
  );
}

function BackupFolder({ status, onChanged }: { status: BackupStatus; onChanged(): void }) {
  const [folder, setFolder] = useState(status.folder);
  const { busy: saving, error, run } = useSubmit();
  const toast = useToast();
  const save = (event: FormEvent) => {
    event.preventDefault();
    return run(async () => {
      await portal.put('/backups/folder', { body: { folder } });
      toast.show('Backups go to the new folder from now on.', 'success');
      onChanged();
    });
  };
  return (
    <Card title="Where backups go">
      <form onSubmit={save} className="stack">
        <Field
          label="Backups folder"
          hint="A folder on another drive (an external disk, a synced folder) survives this computer’s disk failing."
          error={fieldError(error, 'folder') ?? formError(error, ['folder'])}
        >
          <Input value={folder} onChange={(event) => setFolder(event.target.value)} required />
        </Field>
        <div className="row">
          <Button type="submit" write busy={saving} disabled={folder === status.folder}>
            Use this folder
          </Button>
        </div>
      </form>
    </Card>
  );
}

function RecoveryKey() {
  const [key, setKey] = useState<string | null>();
  return (
    <Card title="Recovery key">
      <p className="muted">
        The backups are encrypted with a key this computer keeps in its keychain. To open them on another
        computer (after a theft or a dead disk) you need this key: write it down and keep it somewhere safe.
      </p>
      {key === undefined ? (
        <Button onClick={() => window.shopdesk?.recoveryKey().then(setKey)}>Show the recovery key</Button>
      ) : (
        <p>
          <code data-testid="recovery-key">
            {key ?? 'This computer has no keychain: the data is not encrypted.'}
          </code>
        </p>
      )}
    </Card>
  );
}
