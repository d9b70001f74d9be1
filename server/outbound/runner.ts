import type { AppContext } from '../context';
import { runAs, SYSTEM_ACTOR } from '../lib/actor';

/** What a runner needs of its surroundings: the server's context, or a delivery thread's own. */
export type OutboxHost = Pick<AppContext, 'signals' | 'connectivity'> & {
  /** Where failures are logged (the server's log by default). */
  logError?(message: string, error: unknown): void;
};

export interface OutboxRunnerOptions<Job extends { id: string }> {
  /** Most jobs in flight at once. */
  concurrency: number;
  /** How often the outbox is looked at without a signal (writers need not signal). */
  pollMs: number;
  /** Claims up to `max` due jobs, leaving out those this process already runs; a short transaction. */
  claim(max: number, running: string[]): Promise<Job[]>;
  /** Does one job and records its outcome. Must not throw; `signal` aborts when the runner stops. */
  run(job: Job, signal: AbortSignal): Promise<void>;
  /**
   * Runs once before the first claim: puts back claims a previous run left when it ended without
   * recording them. Only one server runs on a data folder (folder-lock.ts), so every claim found
   * at start is such a leftover, whatever its lease says.
   */
  takeBackLeftClaims(): Promise<void>;
}

/** A started outbox worker as its owner (server shutdown, tests) sees it. */
export interface OutboxWorker {
  readonly inFlight: number;
  /** Runs everything due now (by ctx.clock) to completion and waits until the outcomes are recorded. */
  runDue(): Promise<void>;
  /** Stops claiming, aborts jobs in flight (they give their claims back) and waits for them. */
  stop(): Promise<void>;
}

/**
 * Drives an outbox table: wakes on ctx.signals 'outbox' and 'online' and on a timer, claims due
 * jobs up to the concurrency bound and runs them without ever holding a transaction open across
 * network calls. While ctx.connectivity.online is false it claims nothing.
 */
export class OutboxRunner<Job extends { id: string }> implements OutboxWorker {
  private readonly running = new Map<string, Promise<void>>();
  private readonly stopping = new AbortController();
  private readonly timer: NodeJS.Timeout;
  private pumping: Promise<void> | null = null;
  private kickedWhilePumping = false;
  private readonly kick = () => void this.pump();
  private readonly recovered: Promise<void>;

  constructor(
    private readonly ctx: OutboxHost,
    private readonly options: OutboxRunnerOptions<Job>,
  ) {
    this.recovered = options.takeBackLeftClaims().catch((error: unknown) => {
      // Left claims then come back when their leases run out, as they would without this step.
      this.logError('outbox: taking back claims left by the previous run failed', error);
    });
    ctx.signals.on('outbox', this.kick);
    ctx.signals.on('online', this.kick);
    this.timer = setInterval(this.kick, options.pollMs);
    this.timer.unref();
    this.kick();
  }

  private logError(message: string, error: unknown): void {
    if (this.ctx.logError) this.ctx.logError(message, error);
    else console.error(message, error);
  }

  get inFlight(): number {
    return this.running.size;
  }

  /** Claims and starts due jobs until the bound is reached or nothing is due. */
  pump(): Promise<void> {
    if (this.pumping) {
      this.kickedWhilePumping = true;
      return this.pumping;
    }
    // A request's write wakes the runner; its jobs are still the system's work.
    this.pumping = runAs(SYSTEM_ACTOR, async () => {
      try {
        await this.recovered;
        do {
          this.kickedWhilePumping = false;
          await this.fill();
        } while (this.kickedWhilePumping);
      } catch (error) {
        // A failed claim (database busy or closing) is retried at the next tick; nothing was claimed.
        if (!this.stopping.signal.aborted) this.logError('outbox: claim failed', error);
      } finally {
        this.pumping = null;
      }
    });
    return this.pumping;
  }

  private async fill(): Promise<void> {
    while (!this.stopping.signal.aborted && this.ctx.connectivity.online) {
      const free = this.options.concurrency - this.running.size;
      if (free <= 0) return;
      const jobs = await this.options.claim(free, [...this.running.keys()]);
      for (const job of jobs) this.start(job);
      if (jobs.length < free) return;
    }
  }

  private start(job: Job): void {
    const done = this.options
      .run(job, this.stopping.signal)
      .catch((error) => this.logError(`outbox: job ${job.id} failed to record`, error))
      .finally(() => {
        this.running.delete(job.id);
        this.kick();
      });
    this.running.set(job.id, done);
  }

  /** Runs everything due now (by ctx.clock) to completion, including jobs already in flight. */
  async runDue(): Promise<void> {
    for (;;) {
      await this.pump();
      if (this.running.size === 0) return;
      await Promise.all(this.running.values());
    }
  }

  /** Stops claiming, aborts jobs in flight (they give their claims back) and waits for them. */
  async stop(): Promise<void> {
    this.stopping.abort();
    clearInterval(this.timer);
    this.ctx.signals.off('outbox', this.kick);
    this.ctx.signals.off('online', this.kick);
    await this.recovered;
    await this.pumping;
    await Promise.all(this.running.values());
  }
}
