import type SQLite from 'better-sqlite3-multiple-ciphers';
import type {
  SyncConflict,
  SyncPairing,
  SyncPullResponse,
  SyncRound,
  SyncStatus,
  SyncWebhookSecrets,
} from '../../../shared/schemas/sync';
import type { Connectivity } from '../../context';
import type { Db } from '../../db/database';
import type { SyncSettingsTable } from '../../db/schema';
import { fanOutEvent } from '../../domain/webhook-fanout';
import { type Clock, isoNow } from '../../lib/clock';
import { ApiError, notFound } from '../../lib/errors';
import { type Capture, captureBaseline } from '../capture';
import { exclusive } from '../exclusive';
import { loadBaselineIntoHub } from '../hub/baseline';
import { Hub } from '../hub/service';
import { sqliteHubStorage } from '../hub/sqlite-storage';
import type { HubStorage, PulledRow } from '../hub/storage';
import { type ApplyResult, applyPulledRows } from './apply';
import { checkDecisions } from './decisions';
import { LocalState } from './local-state';
import { NUMBER_SERIES, NumberTopUp } from './number-top-up';
import { acknowledge, pendingBatch, pendingCount } from './outbox';
import { loadSnapshot } from './snapshot-join';
import {
  type HubAddress,
  type HubTransport,
  httpTransport,
  joinHub,
  localTransport,
  SyncError,
  uploadBusiness,
} from './transport';

export interface SyncEngineDeps {
  db: Db;
  sqlite: SQLite.Database;
  capture: Capture;
  clock: Clock;
  connectivity: Connectivity;
  /** 'outbox' after local writes (push soon), 'online' / 'offline' from the desktop shell. */
  signals: NodeJS.EventEmitter;
  log?: { warn(obj: object, msg: string): void };
  /** How this install reaches a remote hub; HTTP unless a test puts faults in between. */
  remote?: RemoteHub;
  /** Where this install keeps the hub's state when it is a hub; its own SQLite unless given. */
  hubStorage?: HubStorage;
  /**
   * Applies the client hub actions pulled so far (domain/client-actions.ts), returning how many it
   * settled; their effects go out in the same round.
   */
  clientActions?: (accountId: string) => Promise<number>;
}

export interface RemoteHub {
  join: typeof joinHub;
  transport(hub: HubAddress, credential: string): HubTransport;
}

const HTTP: RemoteHub = { join: joinHub, transport: httpTransport };

const PUSH_BATCH = 500;
const PULL_PAGE = 1000;
const LONG_POLL_SECONDS = 25;
/** A local write goes out about this long after it commits; writes close together go in one push. */
const PUSH_DELAY_MS = 300;
/** Writes made by another process (the CLI) are noticed by looking this often. */
const PENDING_POLL_MS = 2000;
const MAX_BACKOFF_MS = 60_000;
/** Clock differences below this are network noise, not a wrong clock. */
const OFFSET_THRESHOLD_MS = 2000;

interface Loop {
  stopped: boolean;
  abort: AbortController;
  /** Ends a long poll now; ends a back-off wait only when `force` (the network came back, stop). */
  wake(force?: boolean): void;
  done: Promise<void>;
}

/**
 * A device's side of sync (docs/sync.md): pushes what this install changed, pulls what the hub
 * holds, applies it, and keeps doing so in the background while the machine is online. The hub's
 * own install runs the same engine against its hub in-process.
 */
export class SyncEngine {
  readonly hub: Hub;
  /** Number blocks topped up before they run dry (number-top-up.ts); nextNumber asks it too. */
  readonly numbers: NumberTopUp;
  private readonly local: LocalState;
  private readonly loops = new Map<string, Loop>();
  private readonly queues = new Map<string, Promise<unknown>>();
  private started = false;
  private timers: NodeJS.Timeout[] = [];
  /** The URL this server answers on, offered to devices when nothing better is configured. */
  serverUrl: string | undefined;
  /** SHA-256 of this server's own HTTPS certificate, given to devices to pin. */
  tlsFingerprint: string | null = null;

  /** Whether the hub's state lives in this install's own SQLite file (not PostgreSQL). */
  private readonly hubInThisFile: boolean;

  constructor(private readonly deps: SyncEngineDeps) {
    this.hubInThisFile = !deps.hubStorage;
    this.hub = new Hub(deps.hubStorage ?? sqliteHubStorage(deps.db, deps.sqlite), deps.clock);
    this.local = new LocalState(deps.sqlite);
    this.numbers = new NumberTopUp({
      db: deps.db,
      online: () => deps.connectivity.online,
      now: () => deps.clock.monotonicMs?.() ?? performance.now(),
      log: deps.log,
    });
    deps.capture.setWallClock(() => deps.clock.now().getTime());
  }

  async settings(accountId: string): Promise<SyncSettingsTable | undefined> {
    return this.deps.db
      .selectFrom('sync_settings')
      .selectAll()
      .where('account_id', '=', accountId)
      .executeTakeFirst();
  }

  async status(accountId: string): Promise<SyncStatus> {
    const settings = await this.settings(accountId);
    const { pending, conflicts } = await exclusive(this.deps, () => ({
      pending: pendingCount(this.local, accountId),
      conflicts: this.openConflictCount(accountId),
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
      throw new ApiError(
        409,
        'invalid_state',
        'Only a business that syncs has a hub to deliver its webhooks: set up sync first, or let this computer deliver them.',
      );
    }
    await (await this.transportFor(settings)).handOverWebhook(endpointId, secrets);
  }

  /** A one-time pairing code; the first one makes this install the hub of the business. */
  async pair(accountId: string, options: { name?: string; hubUrl?: string } = {}): Promise<SyncPairing> {
    let settings = await this.settings(accountId);
    if (settings?.role === 'device') {
      throw new ApiError(
        409,
        'invalid_state',
        `This install syncs with the hub at ${settings.hub_url}: create pairing codes there.`,
      );
    }
    const hubUrl = options.hubUrl ?? settings?.hub_url ?? this.serverUrl ?? 'http://127.0.0.1:4300';
    if (!settings) {
      settings = await this.becomeHub(accountId, hubUrl);
      // The business goes into the hub before any device can ask for it.
      await this.syncNow(accountId);
    } else if (options.hubUrl && options.hubUrl !== settings.hub_url) {
      await this.updateSettings(accountId, { hub_url: options.hubUrl });
    }
    return this.hub.createPairing(accountId, hubUrl, options.name, this.tlsFingerprint);
  }

  private async becomeHub(accountId: string, hubUrl: string): Promise<SyncSettingsTable> {
    const device = await this.hub.adopt(accountId, 'Hub');
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
      created_at: isoNow(this.deps.clock),
    };
    const { sqlite } = this.deps;
    await exclusive(this.deps, () =>
      sqlite
        .transaction(() => {
          // A hub in this very file takes the business in bulk, already pulled by its own install.
          const loaded = this.hubInThisFile ? loadBaselineIntoHub(sqlite, accountId) : undefined;
          if (loaded !== undefined) settings.cursor = loaded;
          insertSettings(sqlite, settings);
          if (loaded === undefined) captureBaseline(sqlite, accountId);
        })
        .immediate(),
    );
    // From the settings row on, this account's numbers come from leases: the plain counters stop here.
    const counters = await this.deps.db
      .selectFrom('counters')
      .select(['name', 'value'])
      .where('account_id', '=', accountId)
      .execute();
    for (const series of NUMBER_SERIES) {
      const used = counters.find((c) => c.name === series)?.value ?? 0;
      await this.hub.storage.seedNumbers(accountId, series, used + 1);
    }
    if (this.started) this.startLoop(accountId);
    return settings;
  }

  /**
   * Brings this install's business onto a hosted hub over the sync API (with the operator's admin
   * token): the hub makes the business and this install's device, then the first round pushes the
   * whole business. The install becomes a device of that hub; other devices join with its codes.
   */
  async upload(
    accountId: string,
    hub: HubAddress,
    adminToken: string,
    name?: string,
  ): Promise<{ client_id: string; device_id: string; pushed: number }> {
    const existing = await this.settings(accountId);
    if (existing) {
      throw new ApiError(
        409,
        'invalid_state',
        existing.role === 'hub'
          ? 'This install is already the hub of this business: its devices would be left behind.'
          : `This business already syncs with the hub at ${existing.hub_url}.`,
      );
    }
    const counters = await this.deps.db
      .selectFrom('counters')
      .select(['name', 'value'])
      .where('account_id', '=', accountId)
      .execute();
    const floors = Object.fromEntries(
      NUMBER_SERIES.map((series) => [series, (counters.find((c) => c.name === series)?.value ?? 0) + 1]),
    );
    const made = await uploadBusiness(hub, adminToken, {
      client_id: accountId,
      ...(name && { name }),
      number_floors: floors,
    });
    const { sqlite } = this.deps;
    await exclusive(this.deps, () =>
      sqlite
        .transaction(() => {
          insertSettings(sqlite, {
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
            created_at: isoNow(this.deps.clock),
          });
          captureBaseline(sqlite, accountId);
        })
        .immediate(),
    );
    const round = await this.syncNow(accountId);
    if (this.started) this.startLoop(accountId);
    return { client_id: accountId, device_id: made.device_id, pushed: round.pushed };
  }

  /** Joins the business of a hub: this folder receives the whole business and syncs from then on. */
  async join(
    hub: HubAddress,
    code: string,
    name?: string,
  ): Promise<{ client_id: string; device_id: string }> {
    const known = await this.deps.db.selectFrom('accounts').select('id').execute();
    const joined = await (this.deps.remote ?? HTTP).join(
      hub,
      code,
      name,
      known.map((a) => a.id),
    );
    const { sqlite, capture } = this.deps;
    const others = await this.deps.db.selectFrom('accounts').select('id').executeTakeFirst();
    await exclusive(this.deps, () => {
      if (!others) capture.renewNode();
      insertSettings(sqlite, {
        account_id: joined.client_id,
        role: 'device',
        hub_url: hub.url,
        hub_fingerprint: hub.fingerprint ?? null,
        device_id: joined.device_id,
        device_code: joined.device_code,
        credential: joined.credential,
        cursor: 0,
        last_synced_at: null,
        last_attempt_at: null,
        last_error: null,
        created_at: isoNow(this.deps.clock),
      });
    });
    await this.syncNow(joined.client_id);
    if (this.started) this.startLoop(joined.client_id);
    return { client_id: joined.client_id, device_id: joined.device_id };
  }

  /** One full round: push everything waiting, then pull until caught up. */
  async syncNow(accountId: string): Promise<SyncRound> {
    if (!(await this.settings(accountId))) {
      throw new ApiError(409, 'invalid_state', 'This business does not sync yet: pair a device first.');
    }
    const round = this.serialised(accountId, () => this.round(accountId, 0));
    // The background loop's long poll would hold this round back for up to 25 s: cut it short.
    this.loops.get(accountId)?.wake();
    return round;
  }

  async conflicts(accountId: string): Promise<SyncConflict[]> {
    const rows = await this.deps.db
      .selectFrom('decisions')
      .select(['id', 'kind', 'record_type', 'record_id', 'message', 'detected_at'])
      .where('account_id', '=', accountId)
      .where('status', '=', 'open')
      .orderBy('detected_at')
      .orderBy('id')
      .execute();
    return rows as SyncConflict[];
  }

  /** Dealt with here is dealt with everywhere: `resolved` outranks every open copy (docs/sync.md). */
  async resolveConflict(accountId: string, id: string): Promise<void> {
    const result = await this.deps.db
      .updateTable('decisions')
      .set({ status: 'resolved', resolved_at: isoNow(this.deps.clock) })
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .where('status', '=', 'open')
      .executeTakeFirst();
    if (result.numUpdatedRows === 0n) throw notFound(`No open conflict ${id}`);
  }

  async revokeDevice(accountId: string, deviceId: string): Promise<void> {
    const settings = await this.settings(accountId);
    if (settings?.role !== 'hub') throw new ApiError(409, 'invalid_state', 'Devices are managed on the hub.');
    await this.hub.revoke(accountId, deviceId, settings.device_id);
  }

  /** Starts background sync for every synced business of the folder. */
  start(): void {
    this.started = true;
    this.numbers.active = true;
    const ids = this.deps.sqlite.prepare('SELECT account_id FROM sync_settings').all() as Array<{
      account_id: string;
    }>;
    for (const { account_id } of ids) this.startLoop(account_id);
    const wakeAll = (force = false) => {
      for (const loop of this.loops.values()) loop.wake(force);
    };
    const online = () => wakeAll(true);
    let pushTimer: NodeJS.Timeout | undefined;
    const onOutbox = () => {
      pushTimer ??= setTimeout(() => {
        pushTimer = undefined;
        wakeAll();
      }, PUSH_DELAY_MS);
    };
    this.deps.signals.on('outbox', onOutbox);
    this.deps.signals.on('online', online);
    // Looks now and then for what another process (the CLI) did: a business it paired or joined,
    // changes it made. This process's own writes wake the loops through 'outbox' at once.
    const poll = setInterval(() => {
      const synced = this.deps.sqlite.prepare('SELECT account_id FROM sync_settings').all() as Array<{
        account_id: string;
      }>;
      for (const { account_id } of synced) this.startLoop(account_id);
      for (const [accountId, loop] of this.loops) {
        const waiting = this.deps.sqlite
          .prepare('SELECT 1 FROM sync_outbox WHERE account_id = ? LIMIT 1')
          .get(accountId);
        if (waiting) loop.wake();
      }
    }, PENDING_POLL_MS);
    poll.unref();
    this.timers.push(poll);
    this.stopListening = () => {
      clearTimeout(pushTimer);
      this.deps.signals.off('outbox', onOutbox);
      this.deps.signals.off('online', online);
    };
  }

  private stopListening = () => {};

  async stop(): Promise<void> {
    this.started = false;
    this.numbers.active = false;
    this.stopListening();
    for (const timer of this.timers) clearInterval(timer);
    for (const loop of this.loops.values()) {
      loop.stopped = true;
      loop.wake(true);
    }
    this.hub.shutdown();
    await Promise.all([...this.loops.values()].map((l) => l.done));
    this.loops.clear();
    await Promise.allSettled(this.queues.values());
  }

  private startLoop(accountId: string): void {
    if (this.loops.has(accountId)) return;
    let sleeping: { end(): void; backingOff: boolean } | undefined;
    const loop: Loop = {
      stopped: false,
      abort: new AbortController(),
      wake: (force = false) => {
        loop.abort.abort();
        if (sleeping && (force || !sleeping.backingOff)) sleeping.end();
      },
      done: Promise.resolve(),
    };
    const sleep = (ms: number, backingOff: boolean) =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(end, ms);
        function end() {
          clearTimeout(timer);
          sleeping = undefined;
          resolve();
        }
        sleeping = { end, backingOff };
      });
    loop.done = (async () => {
      let backoff = 1000;
      while (!loop.stopped) {
        if (loop.abort.signal.aborted) loop.abort = new AbortController();
        if (!this.deps.connectivity.online) {
          await sleep(MAX_BACKOFF_MS, true);
          continue;
        }
        const signal = loop.abort.signal;
        try {
          await this.serialised(accountId, async () => {
            const waiting = await exclusive(this.deps, () => pendingCount(this.local, accountId));
            return this.round(accountId, waiting > 0 ? 0 : LONG_POLL_SECONDS, signal);
          });
          backoff = 1000;
        } catch (error) {
          if (loop.stopped || signal.aborted) continue;
          this.deps.log?.warn({ err: error, accountId }, 'sync round failed');
          await sleep(backoff, true);
          backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
        }
      }
    })();
    this.loops.set(accountId, loop);
  }

  /** Rounds of one business run one at a time, whoever asks (the loop, sync now, the CLI's server). */
  private serialised<T>(accountId: string, fn: () => Promise<T>): Promise<T> {
    const previous = this.queues.get(accountId) ?? Promise.resolve();
    const next = previous.catch(() => undefined).then(fn);
    this.queues.set(accountId, next);
    return next;
  }

  private async transportFor(settings: SyncSettingsTable): Promise<HubTransport> {
    if (settings.role === 'hub') {
      const devices = await this.hub.storage.listDevices(settings.account_id);
      const own = devices.find((d) => d.id === settings.device_id);
      if (!own) throw new SyncError('This hub lost its own device record.', 'hub_error');
      return localTransport(this.hub, own, this.deps.clock);
    }
    if (!settings.hub_url || !settings.credential)
      throw new SyncError('No hub is set for this device.', 'hub_error');
    return (this.deps.remote ?? HTTP).transport(
      { url: settings.hub_url, fingerprint: settings.hub_fingerprint },
      settings.credential,
    );
  }

  private async round(accountId: string, waitSeconds: number, signal?: AbortSignal): Promise<SyncRound> {
    const settings = await this.settings(accountId);
    if (!settings) throw new ApiError(409, 'invalid_state', 'This business does not sync.');
    const { sqlite } = this.deps;
    await this.updateSettings(accountId, { last_attempt_at: isoNow(this.deps.clock) });
    try {
      const transport = await this.transportFor(settings);
      await this.numbers.topUp(accountId, transport);
      this.numbers.reached(accountId, transport, settings.role === 'device');
      let pushed = 0;
      let pulled = 0;
      let cursor = settings.cursor;
      if (cursor === 0 && settings.role === 'device') {
        // A first sync reads the hub's snapshot in bulk, then pulls what changed since like any round.
        const snapshot = await exclusive(this.deps, () =>
          loadSnapshot(
            { sqlite, capture: this.deps.capture, local: this.local },
            transport,
            accountId,
            isoNow(this.deps.clock),
          ),
        );
        if (snapshot) ({ cursor, rows: pulled } = snapshot);
      }
      for (let attempt = 1; ; attempt++) {
        pushed += await this.pushAll(accountId, transport);
        const wait = pushed > 0 ? 0 : waitSeconds;
        let deferred: number;
        ({ pulled, cursor, deferred } = await this.pullAll(
          accountId,
          transport,
          cursor,
          wait,
          signal,
          pulled,
        ));
        // Rows held back by a record made here that the hub has not merged yet: push it, pull again.
        if (deferred === 0 || attempt >= 3) break;
        if ((await exclusive(this.deps, () => pendingCount(this.local, accountId))) === 0) break;
      }
      // Caught up: the records the pull touched are checked on the whole state, and what that
      // decided goes out in this round, so a round leaves every machine's list as the hub has it.
      if (await this.deps.clientActions?.(accountId)) pushed += await this.pushAll(accountId, transport);
      if (await this.checkDecisions(accountId)) pushed += await this.pushAll(accountId, transport);
      await this.fanOutArrivedEvents();
      const now = isoNow(this.deps.clock);
      await this.updateSettings(accountId, { last_synced_at: now, last_error: null });
      const { pending, conflicts } = await exclusive(this.deps, () => {
        sqlite
          .prepare('UPDATE sync_node SET last_hlc = ?, clock_offset_ms = ?')
          .run(this.deps.capture.hlc.last(), this.deps.capture.offset());
        return { pending: pendingCount(this.local, accountId), conflicts: this.openConflictCount(accountId) };
      });
      return { pushed, pulled, pending, cursor, conflicts };
    } catch (error) {
      if (!signal?.aborted) {
        await this.updateSettings(accountId, { last_error: (error as Error).message });
      }
      throw error;
    }
  }

  private async pushAll(accountId: string, transport: HubTransport): Promise<number> {
    const { sqlite } = this.deps;
    let pushed = 0;
    for (;;) {
      const batch = await exclusive(this.deps, () => pendingBatch(this.local, accountId, PUSH_BATCH));
      if (batch.length === 0) return pushed;
      const result = await transport.push(batch);
      this.observeHubTime(result.hub_time);
      await exclusive(this.deps, () =>
        sqlite.transaction(() => acknowledge(this.local, accountId, result.acknowledged)).immediate(),
      );
      pushed += batch.length;
    }
  }

  private async pullAll(
    accountId: string,
    transport: HubTransport,
    from: number,
    waitSeconds: number,
    signal: AbortSignal | undefined,
    pulledBefore: number,
  ): Promise<{ pulled: number; cursor: number; deferred: number }> {
    let cursor = from;
    let pulled = pulledBefore;
    let wait = waitSeconds;
    for (;;) {
      const page: SyncPullResponse = await transport.pull(cursor, PULL_PAGE, wait, signal);
      wait = 0;
      this.observeHubTime(page.hub_time);
      const { deferred } = await this.applyPage(accountId, page.rows, page.cursor);
      pulled += page.rows.length;
      cursor = page.cursor;
      if (!page.has_more) return { pulled, cursor, deferred };
    }
  }

  private applyPage(accountId: string, rows: PulledRow[], cursor: number): Promise<ApplyResult> {
    const { sqlite, capture } = this.deps;
    const now = isoNow(this.deps.clock);
    return exclusive(this.deps, () => {
      sqlite.pragma('foreign_keys = OFF');
      try {
        return capture.applying(() =>
          sqlite
            .transaction(() => {
              const result = applyPulledRows(this.local, capture, accountId, rows, now);
              sqlite
                .prepare('UPDATE sync_settings SET cursor = ? WHERE account_id = ?')
                .run(cursor, accountId);
              return result;
            })
            .immediate(),
        );
      } finally {
        sqlite.pragma('foreign_keys = ON');
      }
    });
  }

  /** Checks the records pulled since the last check (device/decisions.ts); returns rows written. */
  private checkDecisions(accountId: string): Promise<number> {
    const { sqlite } = this.deps;
    const now = isoNow(this.deps.clock);
    return exclusive(this.deps, () =>
      sqlite.transaction(() => checkDecisions(this.local, accountId, now)).immediate(),
    );
  }

  /** Queues webhook deliveries, on this node, for events that other devices raised. */
  private async fanOutArrivedEvents(): Promise<void> {
    const { db, clock, signals } = this.deps;
    const arrived = await db.selectFrom('sync_event_fanout').select('event_id').execute();
    if (arrived.length === 0) return;
    for (const { event_id } of arrived) {
      await db.transaction().execute(async (tx) => {
        const event = await tx
          .selectFrom('events')
          .select(['id', 'type', 'account_id'])
          .where('id', '=', event_id)
          .executeTakeFirst();
        if (event) await fanOutEvent(tx, clock, event);
        await tx.deleteFrom('sync_event_fanout').where('event_id', '=', event_id).execute();
      });
    }
    signals.emit('outbox');
  }

  /** The hub's clock is the business's clock: a device whose clock is off corrects its own. */
  private observeHubTime(hubTime: string): void {
    const measured = Date.parse(hubTime) - this.deps.clock.now().getTime();
    this.deps.capture.setOffset(Math.abs(measured) < OFFSET_THRESHOLD_MS ? 0 : measured);
  }

  private openConflictCount(accountId: string): number {
    return (
      this.deps.sqlite
        .prepare(`SELECT count(*) AS n FROM decisions WHERE account_id = ? AND status = 'open'`)
        .get(accountId) as { n: number }
    ).n;
  }

  private async updateSettings(accountId: string, patch: Partial<SyncSettingsTable>): Promise<void> {
    await this.deps.db.updateTable('sync_settings').set(patch).where('account_id', '=', accountId).execute();
  }
}

function insertSettings(sqlite: SQLite.Database, settings: SyncSettingsTable): void {
  const columns = Object.keys(settings) as Array<keyof SyncSettingsTable>;
  sqlite
    .prepare(
      `INSERT INTO sync_settings (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
    )
    .run(...columns.map((c) => settings[c]));
}
