import { UsageError } from '../cli-args';
import type { AppContext } from '../context';
import type { OpenedDatabase } from '../db/database';
import { generatedFingerprint } from '../http/tls';
import { SyncEngine } from './device/engine';

type Out = (json: unknown, text: string) => void;

export const SYNC_HELP = `  sync pair [--name NAME] [--url HUB_URL]
                        a one-time pairing code for a new device (15 minutes);
                        the first one makes this install the hub of the business
  sync join --hub URL --code CODE [--name NAME] [--fingerprint SHA256]
                        on a new or empty folder: join the business of that hub
                        (--fingerprint: the one pairing showed, for a hub with its own certificate)
  sync now              push what waits, pull until caught up
  sync status           role, hub, last sync, changes waiting, conflicts`;

/** `sync …`: what Settings > Sync does, on a data folder (a server may be running on it). */
export async function runSyncCommand(
  sub: string | undefined,
  values: { hub?: string; code?: string; name?: string; url?: string; fingerprint?: string },
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
  });
  switch (sub) {
    case 'pair': {
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
