import { readFileSync } from 'node:fs';
import { UsageError } from '../cli-args';
import type { AppContext } from '../context';
import { applyOutsideActions } from '../domain/crew-actions';
import { generatedFingerprint } from '../http/tls';
import { SyncEngine } from './device/engine';
import type { OpenedDatabase } from './open';

type Out = (json: unknown, text: string) => void;

export const SYNC_HELP = `  sync pair [--name NAME] [--url HUB_URL]
                        a one-time pairing code for a new device (15 minutes);
                        the first one makes this install the hub of the business
  sync pair --hub URL --admin-token-file PATH [--name NAME]
                        bring this business onto a hosted hub (the operator's admin token,
                        or SHOPDESK_HUB_ADMIN_TOKEN); devices then join with the hub's codes
  sync join --hub URL --code CODE [--name NAME] [--fingerprint SHA256]
                        on a new or empty folder: join the business of that hub
                        (--fingerprint: the one pairing showed, for a hub with its own certificate)
  sync now              push what waits, pull until caught up
  sync status           role, hub, last sync, changes waiting, conflicts`;

/** A file or the environment, never a flag: `ps` shows flags. */
function adminToken(file: string | undefined): string {
  const token = file ? readFileSync(file, 'utf8').trim() : process.env.SHOPDESK_HUB_ADMIN_TOKEN;
  if (!token) {
    throw new UsageError(
      "sync pair --hub needs the hub's admin token: --admin-token-file PATH or SHOPDESK_HUB_ADMIN_TOKEN",
    );
  }
  return token;
}

/** `sync …`: what Settings > Sync does, on a data folder (a server may be running on it). */
export async function runSyncCommand(
  sub: string | undefined,
  values: {
    hub?: string;
    code?: string;
    name?: string;
    url?: string;
    fingerprint?: string;
    'admin-token-file'?: string;
  },
  ctx: AppContext,
  database: OpenedDatabase,
  accountId: () => Promise<string>,
  out: Out,
  dataDir: string,
): Promise<void> {
  const engine = new SyncEngine({
    db: database.db,
    sqlite: database.sqlite,
    capture: database.capture,
    clock: ctx.clock,
    connectivity: ctx.connectivity,
    signals: ctx.signals,
    clientActions: (id) => applyOutsideActions(ctx, id),
  });
  switch (sub) {
    case 'pair': {
      if (values.hub) {
        const uploaded = await engine.upload(
          await accountId(),
          { url: values.hub, fingerprint: values.fingerprint },
          adminToken(values['admin-token-file']),
          values.name,
        );
        out(
          uploaded,
          `Business ${uploaded.client_id} is on the hub at ${values.hub} (${uploaded.pushed} changes pushed); this install syncs with it as device ${uploaded.device_id}. Devices join with codes from the hub (npm run hub -- --pair).`,
        );
        return;
      }
      engine.tlsFingerprint = generatedFingerprint(dataDir);
      const pairing = await engine.pair(await accountId(), { name: values.name, hubUrl: values.url });
      out(
        pairing,
        [
          `Pairing code: ${pairing.pairing_code} (valid until ${pairing.expires_at})`,
          `On the new device: sync join --hub ${pairing.hub_url} --code ${pairing.pairing_code}${pairing.fingerprint ? ` --fingerprint ${pairing.fingerprint}` : ''}`,
          `or paste this link in its Settings > Sync: ${pairing.pairing_link}`,
        ].join('\n'),
      );
      return;
    }
    case 'join': {
      if (!values.hub || !values.code) throw new UsageError('sync join needs --hub URL and --code CODE');
      const joined = await engine.join(
        { url: values.hub, fingerprint: values.fingerprint },
        values.code,
        values.name,
      );
      out(
        joined,
        `Joined business ${joined.client_id} as device ${joined.device_id}. This folder is ready to serve.`,
      );
      return;
    }
    case 'now': {
      const round = await engine.syncNow(await accountId());
      out(
        round,
        `Pushed ${round.pushed}, pulled ${round.pulled}; ${round.pending} waiting, ${round.conflicts} conflicts.`,
      );
      return;
    }
    case 'status': {
      const { role, hub_url, last_synced_at, pending, conflicts, devices, last_error } = await engine.status(
        await accountId(),
      );
      out(
        { role, hub_url, last_synced_at, pending, conflicts, ...(devices && { devices }) },
        [
          `Role: ${role}${hub_url ? ` (hub ${hub_url})` : ''}`,
          `Last synced: ${last_synced_at ?? 'never'}${last_error ? ` — ${last_error}` : ''}`,
          `Waiting to go out: ${pending}; conflicts: ${conflicts}`,
          ...(devices ?? []).map((d) => `  ${d.code} ${d.name} (${d.id})${d.revoked_at ? ' removed' : ''}`),
        ].join('\n'),
      );
      return;
    }
    default:
      throw new UsageError('sync takes pair, join, now or status');
  }
}
