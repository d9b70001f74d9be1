import type { Db } from '../../db/database';
import {
  LEASE_LOW_WATER,
  type LeasedBlock,
  NUMBER_SERIES,
  numbersLeft,
  storeBlocks,
} from '../../domain/number-blocks';
import type { HubTransport } from './transport';

export const LEASE_SIZE = 100;
/** A writer waits this long at most for the hub when its blocks are empty (it holds the database meanwhile). */
const BRIEF_LEASE_MS = 5000;
/** After the hub failed a lease, writers stop asking it for this long and use the device's own series. */
const QUIET_AFTER_FAILURE_MS = 15_000;

/**
 * Keeps a device's number blocks from running dry while its hub can be reached (docs/sync.md,
 * "Numbers"). A sync round tops them up when it starts, but a round may sit in a long poll or a
 * back-off for a minute, so a number taken below the low-water mark asks for a top-up at once, and a
 * writer that finds a series empty asks the hub briefly before issuing from the device's own series.
 */
export class NumberTopUp {
  private readonly running = new Map<string, Promise<void>>();
  /** How the last round reached the hub; `remote` unless this install is the hub itself. */
  private readonly hubs = new Map<string, { transport: HubTransport; remote: boolean }>();
  private readonly failedAt = new Map<string, number>();
  /** Set while the server syncs in the background; a CLI's or a test's engine never tops up on its own. */
  active = false;

  constructor(
    private readonly deps: {
      db: Db;
      online: () => boolean;
      now: () => number;
      log?: { warn(obj: object, msg: string): void };
    },
  ) {}

  /** Called by each round with the transport it reached the hub by. */
  reached(accountId: string, transport: HubTransport, remote: boolean): void {
    this.hubs.set(accountId, { transport, remote });
    this.failedAt.delete(accountId);
  }

  /** Tops up every series below the low-water mark; one top-up per business at a time. */
  topUp(accountId: string, transport: HubTransport): Promise<void> {
    const running = this.running.get(accountId);
    if (running) return running;
    const done = (async () => {
      const left = await numbersLeft(this.deps.db, accountId);
      const low = NUMBER_SERIES.filter((series) => (left.get(series) ?? 0) < LEASE_LOW_WATER);
      if (low.length === 0) return;
      const { blocks } = await transport.lease(low, LEASE_SIZE);
      await storeBlocks(this.deps.db, accountId, blocks);
    })().finally(() => this.running.delete(accountId));
    this.running.set(accountId, done);
    return done;
  }

  /** A number was taken and the series is below the low-water mark: top up after the writer commits. */
  runningLow(accountId: string): void {
    const hub = this.hubs.get(accountId);
    if (!this.active || !hub || !this.mayAsk(accountId)) return;
    setImmediate(() => {
      if (!this.active) return;
      this.topUp(accountId, hub.transport).catch((error: unknown) => this.failed(accountId, error));
    });
  }

  /**
   * Inside a writer's transaction, with the series' blocks empty: blocks leased now for the writer
   * to store, or null when the hub cannot answer promptly (the device's own series then).
   */
  async leaseNow(accountId: string, series: string): Promise<LeasedBlock[] | null> {
    // The hub's own install keeps its hub state in this very database, which the writer holds.
    const hub = this.hubs.get(accountId);
    if (!this.active || !hub?.remote || !this.mayAsk(accountId)) return null;
    const lease = hub.transport.lease([series], LEASE_SIZE, AbortSignal.timeout(BRIEF_LEASE_MS));
    try {
      return (await lease).blocks;
    } catch (error) {
      this.failed(accountId, error);
      return null;
    }
  }

  private mayAsk(accountId: string): boolean {
    if (!this.deps.online()) return false;
    const failed = this.failedAt.get(accountId);
    return failed === undefined || this.deps.now() - failed >= QUIET_AFTER_FAILURE_MS;
  }

  private failed(accountId: string, error: unknown): void {
    this.failedAt.set(accountId, this.deps.now());
    this.deps.log?.warn({ err: error, accountId }, 'number top-up failed');
  }
}
