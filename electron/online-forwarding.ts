export type OnlineListener = (online: boolean) => void;

export interface OnlineWatcherOptions {
  /** net.isOnline() in the app. */
  probe(): boolean;
  intervalMs?: number;
}

/**
 * Watches the machine's network state. Electron has no online/offline event in the main process, so this
 * polls net.isOnline() every few seconds (and on demand, e.g. when the machine wakes) and reports changes
 * only: listeners forward them to the server process and the UI.
 */
export class OnlineWatcher {
  // Until the first probe, assume online: that is also what a freshly started server assumes.
  private online = true;
  private timer: ReturnType<typeof setInterval> | undefined;
  private readonly listeners = new Set<OnlineListener>();
  private readonly intervalMs: number;

  constructor(private readonly options: OnlineWatcherOptions) {
    this.intervalMs = options.intervalMs ?? 3_000;
  }

  get current(): boolean {
    return this.online;
  }

  onChange(listener: OnlineListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Takes the first reading without reporting it, then polls. */
  start(): void {
    if (this.timer) return;
    this.online = this.options.probe();
    this.timer = setInterval(() => this.check(), this.intervalMs);
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  check(): void {
    const online = this.options.probe();
    if (online === this.online) return;
    this.online = online;
    for (const listener of this.listeners) listener(online);
  }
}
