import type {
  SyncConflict,
  SyncPairing,
  SyncRound,
  SyncStatus,
  SyncWebhookSecrets,
} from '../../../shared/schemas/sync';
import type { AppContext, SyncPort } from '../../context';
import type { SyncSettingsTable } from '../../db/schema';
import { isoNow } from '../../lib/clock';
import { invalidState, notFound } from '../../lib/errors';
import { exclusive } from '../exclusive';
import { Hub } from '../hub/service';
import { sqliteHubStorage } from '../hub/sqlite-storage';
import type { EngineDeps } from './engine-deps';
import { LocalState } from './local-state';
import { BackgroundSync } from './loop';
import { NumberTopUp } from './number-top-up';
import { pendingCount } from './outbox';
import { becomeHub, joinAsDevice, type PairingParts, uploadToHub } from './pairing';
import { SyncRounds } from './round';
import {
  openConflictCount,
  openConflicts,
  readSettings,
  resolveDecision,
  updateSettings,
} from './sync-settings';
import type { HubAddress } from './transport';

export type { EngineDeps as SyncEngineDeps } from './engine-deps';

/** The context of a server that runs sync: its routes reach the whole engine, the domain only SyncPort. */
export type EngineContext = AppContext<SyncEngine>;

const FALLBACK_HUB_URL = 'http://127.0.0.1:4300';

/**
 * A device's side of sync (docs/sync.md): pushes what this install changed, pulls what the hub
 * holds, applies it, and keeps doing so in the background while the machine is online. The hub's
 * own install runs the same engine against its hub in-process. Pairing is in pairing.ts, one
 * round in round.ts, the background loops in loop.ts.
 */
export class SyncEngine implements SyncPort {
  readonly hub: Hub;
  /** Number blocks topped up before they run dry (number-top-up.ts); nextNumber asks it too. */
  readonly numbers: NumberTopUp;
  private readonly local: LocalState;
  private readonly rounds: SyncRounds;
  private readonly background: BackgroundSync;
  private readonly pairing: PairingParts;
  /** The URL this server answers on, offered to devices when nothing better is configured. */
  serverUrl: string | undefined;
  /** SHA-256 of this server's own HTTPS certificate, given to devices to pin. */
  tlsFingerprint: string | null = null;

  constructor(private readonly deps: EngineDeps) {
    this.hub = new Hub(deps.hubStorage ?? sqliteHubStorage(deps.db, deps.sqlite), deps.clock);
    this.local = new LocalState(deps.sqlite);
    this.numbers = new NumberTopUp({
      db: deps.db,
      online: () => deps.connectivity.online,
      now: () => deps.clock.monotonicMs?.() ?? performance.now(),
      log: deps.log,
    });
    this.rounds = new SyncRounds(deps, this.local, this.hub, this.numbers);
    this.background = new BackgroundSync(deps, this.local, this.rounds);
    this.pairing = { deps, local: this.local, hub: this.hub, hubInThisFile: !deps.hubStorage };
    deps.capture.setWallClock(() => deps.clock.now().getTime());
  }

  settings(accountId: string): Promise<SyncSettingsTable | undefined> {
    return exclusive(this.deps, () => readSettings(this.local, accountId));
  }

  async status(accountId: string): Promise<SyncStatus> {
    const { settings, pending, conflicts } = await exclusive(this.deps, () => ({
      settings: readSettings(this.local, accountId),
      pending: pendingCount(this.local, accountId),
      conflicts: openConflictCount(this.local, accountId),
    }));
    const status: SyncStatus = {
      role: settings?.role ?? 'standalone',
      hub_url: settings?.hub_url ?? null,
      device_id: settings?.device_id ?? null,
      online: this.deps.connectivity.online,
      last_synced_at: settings?.last_synced_at ?? null,
      last_error: settings?.last_error ?? null,
      pending,
      conflicts,
    };
    if (settings?.role === 'hub') status.devices = await this.hub.devices(accountId, settings.device_id);
    return status;
  }

  /** Gives the business's hub an endpoint's signing secrets (webhook-handover.ts); needs the hub online. */
  async handOverWebhook(accountId: string, endpointId: string, secrets: SyncWebhookSecrets): Promise<void> {
    const settings = await this.settings(accountId);
    if (!settings) {
      throw invalidState(
        'Only a business that syncs has a hub to deliver its webhooks: set up sync first, or let this computer deliver them.',
      );
    }
    await (await this.rounds.transportFor(settings)).handOverWebhook(endpointId, secrets);
  }

  /** A one-time pairing code; the first one makes this install the hub of the business. */
  async pair(accountId: string, options: { name?: string; hubUrl?: string } = {}): Promise<SyncPairing> {
    const ownUrl = this.serverUrl ?? FALLBACK_HUB_URL;
    let settings = await this.settings(accountId);
    if (!settings) {
      settings = await becomeHub(this.pairing, accountId, options.hubUrl ?? ownUrl);
      this.background.add(accountId);
      // The business goes into the hub before any device can ask for it.
      await this.syncNow(accountId);
    }
    if (settings.role === 'device') {
      throw invalidState(
        `This install syncs with the hub at ${settings.hub_url}: create pairing codes there.`,
      );
    }
    const hubUrl = options.hubUrl ?? settings.hub_url ?? ownUrl;
    if (options.hubUrl && options.hubUrl !== settings.hub_url) {
      await exclusive(this.deps, () => updateSettings(this.local, accountId, { hub_url: options.hubUrl }));
    }
    return this.hub.createPairing(accountId, hubUrl, options.name, this.tlsFingerprint);
  }

  /** Brings this install's business onto a hosted hub (pairing.ts); the first round pushes it all. */
  async upload(
    accountId: string,
    hub: HubAddress,
    adminToken: string,
    name?: string,
  ): Promise<{ client_id: string; device_id: string; pushed: number }> {
    const made = await uploadToHub(this.pairing, accountId, hub, adminToken, name);
    const round = await this.syncNow(accountId);
    this.background.add(accountId);
    return { client_id: accountId, device_id: made.device_id, pushed: round.pushed };
  }

  /** Joins the business of a hub: this folder receives the whole business and syncs from then on. */
  async join(
    hub: HubAddress,
    code: string,
    name?: string,
  ): Promise<{ client_id: string; device_id: string }> {
    const joined = await joinAsDevice(this.pairing, hub, code, name);
    await this.syncNow(joined.client_id);
    this.background.add(joined.client_id);
    return { client_id: joined.client_id, device_id: joined.device_id };
  }

  /** One full round: push everything waiting, then pull until caught up. */
  async syncNow(accountId: string): Promise<SyncRound> {
    if (!(await this.settings(accountId))) {
      throw invalidState('This business does not sync yet: pair a device first.');
    }
    const round = this.rounds.serialised(accountId, () => this.rounds.run(accountId, 0));
    // The background loop's long poll would hold this round back for up to 25 s: cut it short.
    this.background.wake(accountId);
    return round;
  }

  conflicts(accountId: string): Promise<SyncConflict[]> {
    return exclusive(this.deps, () => openConflicts(this.local, accountId));
  }

  /** Dealt with here is dealt with everywhere: `resolved` outranks every open copy (docs/sync.md). */
  async resolveConflict(accountId: string, id: string): Promise<void> {
    const at = isoNow(this.deps.clock);
    const resolved = await exclusive(this.deps, () => resolveDecision(this.local, accountId, id, at));
    if (!resolved) throw notFound(`No open conflict ${id}`);
  }

  async revokeDevice(accountId: string, deviceId: string): Promise<void> {
    const settings = await this.settings(accountId);
    if (settings?.role !== 'hub') throw invalidState('Devices are managed on the hub.');
    await this.hub.revoke(accountId, deviceId, settings.device_id);
  }

  /** Starts background sync for every synced business of the folder. */
  start(): void {
    this.numbers.active = true;
    this.background.start();
  }

  async stop(): Promise<void> {
    this.numbers.active = false;
    const loopsDone = this.background.stop();
    this.hub.shutdown();
    await loopsDone;
    await this.rounds.settled();
  }
}
