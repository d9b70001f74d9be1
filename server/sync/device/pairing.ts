import type { SyncJoinResponse } from '../../../shared/schemas/sync';
import type { SyncSettingsTable } from '../../db/schema';
import { NUMBER_SERIES } from '../../domain/number-blocks';
import { isoNow } from '../../lib/clock';
import { invalidState } from '../../lib/errors';
import { captureBaseline } from '../capture';
import { exclusive } from '../exclusive';
import { loadBaselineIntoHub } from '../hub/baseline';
import type { Hub } from '../hub/service';
import type { EngineDeps } from './engine-deps';
import type { LocalState } from './local-state';
import { HTTP_HUB } from './round';
import { accountIds, counterValues, insertSettings, readSettings } from './sync-settings';
import { type HubAddress, uploadBusiness } from './transport';

/**
 * How a business starts to sync (docs/sync.md, "Pairing"): this install becomes its hub, uploads
 * it to a hosted hub, or joins a hub as a device. Each writes the settings row that turns on
 * change capture for the business; the caller then runs the first round.
 */

export interface PairingParts {
  deps: EngineDeps;
  local: LocalState;
  hub: Hub;
  /** Whether the hub's state lives in this install's own SQLite file (not PostgreSQL). */
  hubInThisFile: boolean;
}

/** The business's next number in each series: where the hub's leases start. */
function numberFloors(local: LocalState, accountId: string): Record<string, number> {
  const used = counterValues(local, accountId);
  return Object.fromEntries(NUMBER_SERIES.map((series) => [series, (used.get(series) ?? 0) + 1]));
}

function deviceSettings(
  deps: EngineDeps,
  accountId: string,
  hub: HubAddress,
  made: SyncJoinResponse,
): SyncSettingsTable {
  return {
    account_id: accountId,
    role: 'device',
    hub_url: hub.url,
    hub_fingerprint: hub.fingerprint ?? null,
    device_id: made.device_id,
    device_code: made.device_code,
    credential: made.credential,
    cursor: 0,
    last_synced_at: null,
    last_attempt_at: null,
    last_error: null,
    created_at: isoNow(deps.clock),
  };
}

/**
 * Makes this install the hub of the business, or returns the settings another process on the same
 * folder (the server beside a `sync pair` CLI, two CLIs) wrote first: the settings row is checked
 * again inside the transaction that would write it, and the losing process's hub device is deleted.
 */
export async function becomeHub(
  { deps, local, hub, hubInThisFile }: PairingParts,
  accountId: string,
  hubUrl: string,
): Promise<SyncSettingsTable> {
  const device = await hub.adopt(accountId, 'Hub');
  const settings: SyncSettingsTable = {
    account_id: accountId,
    role: 'hub',
    hub_url: hubUrl,
    hub_fingerprint: null,
    device_id: device.id,
    device_code: device.code,
    credential: null,
    cursor: 0,
    last_synced_at: null,
    last_attempt_at: null,
    last_error: null,
    created_at: isoNow(deps.clock),
  };
  const { sqlite } = deps;
  const { earlier, floors } = await exclusive(deps, () => {
    const earlier = sqlite
      .transaction((): SyncSettingsTable | undefined => {
        const existing = readSettings(local, accountId);
        if (existing) return existing;
        // A hub in this very file takes the business in bulk, already pulled by its own install.
        const loaded = hubInThisFile ? loadBaselineIntoHub(sqlite, accountId) : undefined;
        if (loaded !== undefined) settings.cursor = loaded;
        insertSettings(local, settings);
        if (loaded === undefined) captureBaseline(sqlite, accountId);
        return undefined;
      })
      .immediate();
    // From the settings row on, this account's numbers come from leases: the plain counters stop here.
    return { earlier, floors: earlier ? {} : numberFloors(local, accountId) };
  });
  if (earlier) {
    await hub.storage.forgetUnusedDevice(accountId, device.id);
    return earlier;
  }
  for (const series of NUMBER_SERIES) await hub.storage.seedNumbers(accountId, series, floors[series]!);
  return settings;
}

/**
 * Brings this install's business onto a hosted hub over the sync API (with the operator's admin
 * token): the hub makes the business and this install's device; the first round then pushes the
 * whole business. The install becomes a device of that hub; other devices join with its codes.
 */
export async function uploadToHub(
  { deps, local }: PairingParts,
  accountId: string,
  hub: HubAddress,
  adminToken: string,
  name?: string,
): Promise<SyncJoinResponse> {
  const { existing, floors } = await exclusive(deps, () => ({
    existing: readSettings(local, accountId),
    floors: numberFloors(local, accountId),
  }));
  if (existing) {
    throw invalidState(
      existing.role === 'hub'
        ? 'This install is already the hub of this business: its devices would be left behind.'
        : `This business already syncs with the hub at ${existing.hub_url}.`,
    );
  }
  const made = await uploadBusiness(hub, adminToken, {
    client_id: accountId,
    ...(name && { name }),
    number_floors: floors,
  });
  const { sqlite } = deps;
  await exclusive(deps, () =>
    sqlite
      .transaction(() => {
        insertSettings(local, deviceSettings(deps, accountId, hub, made));
        captureBaseline(sqlite, accountId);
      })
      .immediate(),
  );
  return made;
}

/** Joins the business of a hub: this folder receives the whole business at the first round. */
export async function joinAsDevice(
  { deps, local }: PairingParts,
  hub: HubAddress,
  code: string,
  name?: string,
): Promise<SyncJoinResponse> {
  const known = await exclusive(deps, () => accountIds(local));
  const joined = await (deps.remote ?? HTTP_HUB).join(hub, code, name, known);
  await exclusive(deps, () => {
    // A folder that held no business yet may be a copy of another install: it takes a node id of its own.
    if (accountIds(local).length === 0) deps.capture.renewNode();
    insertSettings(local, deviceSettings(deps, joined.client_id, hub, joined));
  });
  return joined;
}
