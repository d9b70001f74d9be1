import { parseFromServer, type ServerReady, type ServerStartupFailed, type ToServer } from './protocol';
import { type StopOutcome, stopServerProcess } from './quit-sequence';

export interface ServerChild {
  send(message: ToServer): void;
  kill(): void;
}

export interface ChildEvents {
  onMessage(message: unknown): void;
  onExit(code: number): void;
}

/** Starts one server process (utilityProcess.fork in the app) and routes its events to the handlers. */
export type SpawnServer = (events: ChildEvents) => ServerChild;

export interface SupervisorEvents {
  ready(info: ServerReady): void;
  /** The server died unexpectedly and will be started again after `restartInMs`. */
  crashed(info: { exitCode: number; restartInMs: number; attempt: number }): void;
  /** Too many crashes in a minute: the supervisor stops trying. */
  gaveUp(info: { exitCode: number; crashesInLastMinute: number }): void;
  /** The server could not start at all (port taken, database unreadable): restarting would not help. */
  startupFailed(info: ServerStartupFailed): void;
}

export interface SupervisorOptions {
  backoffBaseMs?: number;
  backoffMaxMs?: number;
  maxRestartsPerMinute?: number;
  shutdownTimeoutMs?: number;
}

export type SupervisorState =
  | 'idle'
  | 'starting'
  | 'running'
  | 'restarting'
  | 'stopping'
  | 'stopped'
  | 'failed';

interface Running {
  child: ServerChild | undefined;
  exited: Promise<number>;
  failure: ServerStartupFailed | undefined;
}

const MINUTE_MS = 60_000;

/** Keeps the server process alive: restarts it after a crash with exponential backoff, within a cap. */
export class ServerSupervisor {
  private current: Running | undefined;
  private crashTimes: number[] = [];
  private restartTimer: ReturnType<typeof setTimeout> | undefined;
  private status: SupervisorState = 'idle';
  private readonly backoffBaseMs: number;
  private readonly backoffMaxMs: number;
  private readonly maxRestartsPerMinute: number;
  private readonly shutdownTimeoutMs: number;

  constructor(
    private readonly spawn: SpawnServer,
    private readonly events: SupervisorEvents,
    options: SupervisorOptions = {},
  ) {
    this.backoffBaseMs = options.backoffBaseMs ?? 1_000;
    this.backoffMaxMs = options.backoffMaxMs ?? 30_000;
    this.maxRestartsPerMinute = options.maxRestartsPerMinute ?? 5;
    this.shutdownTimeoutMs = options.shutdownTimeoutMs ?? 10_000;
  }

  get state(): SupervisorState {
    return this.status;
  }

  start(): void {
    if (this.status !== 'idle') throw new Error(`The server supervisor was already started (${this.status})`);
    this.launch();
  }

  /** Delivered only to a server that is up; the main process re-sends its state on every `ready`. */
  send(message: ToServer): void {
    if (this.status === 'running') this.current?.child?.send(message);
  }

  async stop(): Promise<StopOutcome> {
    clearTimeout(this.restartTimer);
    this.restartTimer = undefined;
    const running = this.current;
    this.status = 'stopping';
    const outcome = running?.child
      ? await stopServerProcess(running.child, running.exited, this.shutdownTimeoutMs)
      : 'not-running';
    this.status = 'stopped';
    return outcome;
  }

  private launch(): void {
    this.status = 'starting';
    let markExited: (code: number) => void = () => {};
    const running: Running = {
      child: undefined,
      exited: new Promise((resolve) => {
        markExited = resolve;
      }),
      failure: undefined,
    };
    this.current = running;
    running.child = this.spawn({
      onMessage: (message) => this.handleMessage(running, message),
      onExit: (code) => {
        markExited(code);
        this.handleExit(running, code);
      },
    });
  }

  private handleMessage(running: Running, raw: unknown): void {
    if (running !== this.current) return;
    const message = parseFromServer(raw);
    if (message?.type === 'ready' && this.status === 'starting') {
      this.status = 'running';
      this.events.ready(message);
    } else if (message?.type === 'startup-failed') {
      running.failure = message;
    }
  }

  private handleExit(running: Running, exitCode: number): void {
    if (running !== this.current) return;
    this.current = undefined;
    if (this.status === 'stopping' || this.status === 'stopped') return;
    if (running.failure) {
      this.status = 'failed';
      this.events.startupFailed(running.failure);
      return;
    }
    const now = Date.now();
    this.crashTimes = this.crashTimes.filter((time) => now - time < MINUTE_MS);
    if (this.crashTimes.length >= this.maxRestartsPerMinute) {
      this.status = 'failed';
      this.events.gaveUp({ exitCode, crashesInLastMinute: this.crashTimes.length + 1 });
      return;
    }
    // The delay doubles with each crash in the last minute, so a quiet minute resets it.
    const restartInMs = Math.min(this.backoffBaseMs * 2 ** this.crashTimes.length, this.backoffMaxMs);
    this.crashTimes.push(now);
    this.status = 'restarting';
    this.events.crashed({ exitCode, restartInMs, attempt: this.crashTimes.length });
    this.restartTimer = setTimeout(() => {
      this.restartTimer = undefined;
      this.launch();
    }, restartInMs);
  }
}
