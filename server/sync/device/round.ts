import type { SyncPullResponse, SyncRound } from '../../../shared/schemas/sync';
import type { SyncSettingsTable } from '../../db/schema';
import { fanOutEvent } from '../../domain/webhook-fanout';
import { runAs, SYSTEM_ACTOR } from '../../lib/actor';
import { isoNow } from '../../lib/clock';
import { invalidState } from '../../lib/errors';
import { exclusive } from '../exclusive';
import type { Hub } from '../hub/service';
import type { PulledRow, PushResult } from '../hub/storage';
import { type ApplyResult, applyPulledRows } from './apply';
import { checkDecisions } from './decisions';
import type { EngineDeps } from './engine-deps';
import type { LocalState } from './local-state';
import type { NumberTopUp } from './number-top-up';
import { acknowledge, pendingBatch, pendingCount } from './outbox';
import { loadSnapshot } from './snapshot-join';
import { hasDeferred, openConflictCount, readSettings, saveNodeClock, updateSettings } from './sync-settings';
import { type HubTransport, httpTransport, joinHub, localTransport, SyncError } from './transport';

const PUSH_BATCH = 500;
const PULL_PAGE = 1000;
/** Clock differences below this are network noise, not a wrong clock. */
const OFFSET_THRESHOLD_MS = 2000;

export const HTTP_HUB = { join: joinHub, transport: httpTransport };

/**
 * One round of sync for one business (docs/sync.md): push everything waiting, pull until caught
 * up, check the decisions the pull calls for, and queue webhook deliveries for events that
 * arrived. Rounds of one business run one at a time, whoever asks (the loop, sync now, the CLI's
 * server).
 */
export class SyncRounds {
  private readonly queues = new Map<string, Promise<unknown>>();

  constructor(
    private readonly deps: EngineDeps,
    private readonly local: LocalState,
    private readonly hub: Hub,
    private readonly numbers: NumberTopUp,
  ) {}

  /** Runs `fn` after the business's rounds already queued. */
  serialised<T>(accountId: string, fn: () => Promise<T>): Promise<T> {
    const previous = this.queues.get(accountId) ?? Promise.resolve();
    // A round is the system's work, whoever asked for it (docs/crew-design.md, "Who made each change").
    const next = previous.catch(() => undefined).then(() => runAs(SYSTEM_ACTOR, fn));
    this.queues.set(accountId, next);
    return next;
  }

  /** Waits for every queued round to end, whatever its outcome. */
  async settled(): Promise<void> {
    await Promise.allSettled(this.queues.values());
  }

  async transportFor(settings: SyncSettingsTable): Promise<HubTransport> {
    if (settings.role === 'hub') {
      const devices = await this.hub.storage.listDevices(settings.account_id);
      const own = devices.find((d) => d.id === settings.device_id);
      if (!own) throw new SyncError('This hub lost its own device record.', 'hub_error');
      return localTransport(this.hub, own, this.deps.clock);
    }
    if (!settings.hub_url || !settings.credential)
      throw new SyncError('No hub is set for this device.', 'hub_error');
    return (this.deps.remote ?? HTTP_HUB).transport(
      { url: settings.hub_url, fingerprint: settings.hub_fingerprint },
      settings.credential,
    );
  }

  /** A pull with nothing to push waits up to `waitSeconds` for the hub to have something. */
  async run(accountId: string, waitSeconds: number, signal?: AbortSignal): Promise<SyncRound> {
    const settings = await this.inFile(() => {
      const found = readSettings(this.local, accountId);
      if (found) updateSettings(this.local, accountId, { last_attempt_at: isoNow(this.deps.clock) });
      return found;
    });
    if (!settings) throw invalidState('This business does not sync.');
    try {
      const transport = await this.transportFor(settings);
      await this.numbers.topUp(accountId, transport);
      this.numbers.reached(accountId, transport, settings.role === 'device');
      let pushed = 0;
      let pulled = 0;
      let cursor = settings.cursor;
      if (cursor === 0 && settings.role === 'device') {
        // A first sync reads the hub's snapshot in bulk, then pulls what changed since like any round.
        const snapshot = await this.inFile(() =>
          loadSnapshot(
            { sqlite: this.deps.sqlite, capture: this.deps.capture, local: this.local },
            transport,
            accountId,
            isoNow(this.deps.clock),
          ),
        );
        if (snapshot) ({ cursor, rows: pulled } = snapshot);
      }
      for (let attempt = 1; ; attempt++) {
        const push = await this.pushAll(accountId, transport, cursor);
        pushed += push.pushed;
        cursor = push.cursor;
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
        // A long poll cut short by a local write pushes it in this round, not in a round of its own.
        const woken = wait > 0 && signal?.aborted === true;
        // Rows held back by a record made here that the hub has not merged yet: push it, pull again.
        if ((deferred === 0 && !woken) || attempt >= 3) break;
        if ((await this.inFile(() => pendingCount(this.local, accountId))) === 0) break;
      }
      // Caught up: the records the pull touched are checked on the whole state, and what that
      // decided goes out in this round, so a round leaves every machine's list as the hub has it.
      const pushMore = async () => {
        const push = await this.pushAll(accountId, transport, cursor);
        pushed += push.pushed;
        cursor = push.cursor;
      };
      if (await this.deps.clientActions?.(accountId)) await pushMore();
      if (await this.checkDecisions(accountId)) await pushMore();
      await this.fanOutArrivedEvents();
      const now = isoNow(this.deps.clock);
      const { pending, conflicts } = await this.inFile(() => {
        // One commit for both: a busy install runs a few rounds a second.
        this.deps.sqlite
          .transaction(() => {
            updateSettings(this.local, accountId, { last_synced_at: now, last_error: null });
            saveNodeClock(this.local, this.deps.capture.hlc.last(), this.deps.capture.offset());
          })
          .immediate();
        return {
          pending: pendingCount(this.local, accountId),
          conflicts: openConflictCount(this.local, accountId),
        };
      });
      return { pushed, pulled, pending, cursor, conflicts };
    } catch (error) {
      if (!signal?.aborted) {
        const message = (error as Error).message;
        await this.inFile(() => updateSettings(this.local, accountId, { last_error: message }));
      }
      throw error;
    }
  }

  private inFile<T>(fn: () => T | Promise<T>): Promise<T> {
    return exclusive(this.deps, fn);
  }

  /**
   * Pushes everything waiting. A push that the hub answers was taken exactly as sent, right after
   * the rows this install has (in-process only, hub/storage.ts `as_pushed_after`), moves the
   * cursor past it: pulled back, its rows would change nothing here.
   */
  private async pushAll(
    accountId: string,
    transport: HubTransport,
    from: number,
  ): Promise<{ pushed: number; cursor: number }> {
    const { sqlite } = this.deps;
    let pushed = 0;
    let cursor = from;
    for (;;) {
      const batch = await this.inFile(() => pendingBatch(this.local, accountId, PUSH_BATCH));
      if (batch.length === 0) return { pushed, cursor };
      const from = cursor;
      const settle = (result: PushResult) => {
        acknowledge(this.local, accountId, result.acknowledged, batch);
        if (result.as_pushed_after !== from || hasDeferred(this.local, accountId)) return from;
        updateSettings(this.local, accountId, { cursor: result.last_seq });
        return result.last_seq;
      };
      // The embedded hub settles the answer in the push's own commit; any other, after it.
      let settled: number | undefined;
      const result = await transport.push(batch, (answer) => {
        settled = settle(answer);
      });
      this.observeHubTime(result.hub_time);
      cursor = settled ?? (await this.inFile(() => sqlite.transaction(() => settle(result)).immediate()));
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
      const { deferred } = await this.applyPage(accountId, page.rows, page.cursor, cursor);
      pulled += page.rows.length;
      cursor = page.cursor;
      if (!page.has_more) return { pulled, cursor, deferred };
    }
  }

  private applyPage(
    accountId: string,
    rows: PulledRow[],
    cursor: number,
    from: number,
  ): Promise<ApplyResult> {
    const { sqlite, capture } = this.deps;
    const now = isoNow(this.deps.clock);
    return this.inFile(() => {
      // Nothing new and nothing held back: no transaction to commit (a busy install pulls often).
      if (rows.length === 0 && cursor === from && !hasDeferred(this.local, accountId))
        return { applied: 0, deferred: 0 };
      sqlite.pragma('foreign_keys = OFF');
      try {
        return capture.applying(() =>
          sqlite
            .transaction(() => {
              const result = applyPulledRows(this.local, capture, accountId, rows, now);
              updateSettings(this.local, accountId, { cursor });
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
    const now = isoNow(this.deps.clock);
    return this.inFile(() =>
      this.deps.sqlite.transaction(() => checkDecisions(this.local, accountId, now)).immediate(),
    );
  }

  /**
   * Queues webhook deliveries, on this node, for events that other devices raised. The one use of
   * Kysely here: the fan-out is the domain's, and the domain speaks Kysely.
   */
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
}
