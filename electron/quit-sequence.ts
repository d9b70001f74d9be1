import type { ToServer } from './protocol';

export interface StoppableServer {
  send(message: ToServer): void;
  kill(): void;
}

export type StopOutcome = 'clean' | 'killed' | 'not-running';

/** How long a killed process gets to be reaped before quitting goes on without it. */
const KILL_WAIT_MS = 2_000;

function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    void promise.then(() => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

/**
 * Asks the server process to finish its in-flight requests and close the database, and waits for it to
 * exit. A server that does not manage within the timeout is killed: SQLite's journal keeps the data safe,
 * and a hung shutdown must not keep the app from quitting.
 */
export async function stopServerProcess(
  server: StoppableServer,
  exited: Promise<unknown>,
  timeoutMs: number,
): Promise<'clean' | 'killed'> {
  server.send({ type: 'shutdown' });
  if (await settlesWithin(exited, timeoutMs)) return 'clean';
  server.kill();
  await settlesWithin(exited, KILL_WAIT_MS);
  return 'killed';
}

export interface QuitSteps {
  /** Stops what would otherwise talk to the server while it goes down (online polling, update checks). */
  beforeServerStops(): void;
  stopServer(): Promise<StopOutcome>;
  /** Ends the app once the server is down. */
  exit(): void;
  log(message: string): void;
}

/**
 * Quitting, for any reason (menu, tray, OS shutdown, restart into an update), goes through here: the
 * server stops first, then the app ends the way the first caller asked.
 */
export class QuitSequence {
  private stopping: Promise<void> | undefined;
  private finish: (() => void) | undefined;
  private serverStopped = false;

  constructor(private readonly steps: QuitSteps) {}

  /**
   * For app's 'before-quit': true means the caller must prevent this quit; the sequence ends the app
   * itself once the server is down. After that, quitting goes through (quitAndInstall relies on it).
   */
  interceptQuit(): boolean {
    if (this.serverStopped) return false;
    void this.run(() => this.steps.exit());
    return true;
  }

  async run(then: () => void): Promise<void> {
    this.finish ??= then;
    this.stopping ??= (async () => {
      this.steps.beforeServerStops();
      const outcome = await this.steps.stopServer();
      this.steps.log(`server stopped (${outcome})`);
      this.serverStopped = true;
      this.finish?.();
    })();
    await this.stopping;
  }
}
