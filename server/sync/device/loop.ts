import { runAs, SYSTEM_ACTOR } from '../../lib/actor';
import { exclusive } from '../exclusive';
import type { EngineDeps } from './engine-deps';
import type { LocalState } from './local-state';
import { pendingCount } from './outbox';
import type { SyncRounds } from './round';
import { hasPending, syncedAccounts } from './sync-settings';

const LONG_POLL_SECONDS = 25;
/** A local write goes out about this long after it commits; writes close together go in one push. */
const PUSH_DELAY_MS = 300;
/** Writes made by another process (the CLI) are noticed by looking this often. */
const PENDING_POLL_MS = 2000;
const FIRST_BACKOFF_MS = 1000;
const MAX_BACKOFF_MS = 60_000;

interface Loop {
  stopped: boolean;
  abort: AbortController;
  /** Ends a long poll now; ends a back-off wait only when `force` (the network came back, stop). */
  wake(force?: boolean): void;
  done: Promise<void>;
}

/**
 * Background sync while the server runs: one loop per synced business, each a round after
 * another, long-polling the hub when nothing waits here, backing off when a round fails, woken
 * by local writes and by the network coming back.
 */
export class BackgroundSync {
  private readonly loops = new Map<string, Loop>();
  private started = false;
  private stopListening = () => {};

  constructor(
    private readonly deps: Pick<EngineDeps, 'db' | 'sqlite' | 'connectivity' | 'signals' | 'log'>,
    private readonly local: LocalState,
    private readonly rounds: SyncRounds,
  ) {}

  /** Starts a loop for every synced business of the folder, and keeps looking for new ones. */
  start(): void {
    this.started = true;
    for (const accountId of syncedAccounts(this.local)) this.add(accountId);
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
      for (const accountId of syncedAccounts(this.local)) this.add(accountId);
      for (const [accountId, loop] of this.loops) if (hasPending(this.local, accountId)) loop.wake();
    }, PENDING_POLL_MS);
    poll.unref();
    this.stopListening = () => {
      clearInterval(poll);
      clearTimeout(pushTimer);
      this.deps.signals.off('outbox', onOutbox);
      this.deps.signals.off('online', online);
    };
  }

  /** Ends every loop; resolves once each has finished its round. */
  async stop(): Promise<void> {
    this.started = false;
    this.stopListening();
    for (const loop of this.loops.values()) {
      loop.stopped = true;
      loop.wake(true);
    }
    await Promise.all([...this.loops.values()].map((l) => l.done));
    this.loops.clear();
  }

  /** Cuts a business's long poll short: a round someone asked for should not wait behind it. */
  wake(accountId: string): void {
    this.loops.get(accountId)?.wake();
  }

  /** Starts the business's loop, once background sync runs. */
  add(accountId: string): void {
    if (!this.started || this.loops.has(accountId)) return;
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
    // A loop started by a request (a pairing) must not keep that request's actor for its rounds.
    loop.done = runAs(SYSTEM_ACTOR, async () => {
      let backoff = FIRST_BACKOFF_MS;
      while (!loop.stopped) {
        if (loop.abort.signal.aborted) loop.abort = new AbortController();
        if (!this.deps.connectivity.online) {
          await sleep(MAX_BACKOFF_MS, true);
          continue;
        }
        const signal = loop.abort.signal;
        try {
          const began = performance.now();
          const { pending } = await this.rounds.serialised(accountId, async () => {
            const waiting = await exclusive(this.deps, () => pendingCount(this.local, accountId));
            return this.rounds.run(accountId, waiting > 0 ? 0 : LONG_POLL_SECONDS, signal);
          });
          backoff = FIRST_BACKOFF_MS;
          // Writes kept coming during the round: the next one waits out the push delay (their own
          // wake-ups do not cut it short), so a busy install sends one round for many writes
          // instead of a round, with its commits, for every few.
          const since = performance.now() - began;
          if (pending > 0 && since < PUSH_DELAY_MS) await sleep(PUSH_DELAY_MS - since, true);
        } catch (error) {
          if (loop.stopped || signal.aborted) continue;
          this.deps.log?.warn({ err: error, accountId }, 'sync round failed');
          await sleep(backoff, true);
          backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
        }
      }
    });
    this.loops.set(accountId, loop);
  }
}
