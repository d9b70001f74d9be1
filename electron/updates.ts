/** What the UI shows about updates (shared/desktop-api.ts). */
export interface UpdateStatus {
  state: 'idle' | 'checking' | 'available' | 'downloaded' | 'error';
  version: string | null;
  message: string | null;
}

/** The part of electron-updater's autoUpdater this module drives. */
export interface UpdaterLike {
  autoDownload: boolean;
  autoInstallOnAppQuit: boolean;
  setFeedURL(options: { provider: 'generic'; url: string }): void;
  checkForUpdates(): Promise<unknown>;
  quitAndInstall(): void;
  on(event: 'checking-for-update' | 'update-not-available', listener: () => void): unknown;
  on(event: 'update-available' | 'update-downloaded', listener: (info: { version: string }) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
}

export interface UpdateSettingsStore {
  get(): { enabled: boolean; feedUrl: string | null };
  setEnabled(enabled: boolean): void;
}

export interface UpdateDeps {
  updater: UpdaterLike;
  settings: UpdateSettingsStore;
  isOnline(): boolean;
  notify(notice: { title: string; body: string; onClick(): void }): void;
  /** Runs the quit sequence (the server finishes its in-flight writes and closes the database), then `then`. */
  quitThen(then: () => void): Promise<void>;
  log(message: string): void;
  checkIntervalMs?: number;
}

const SIX_HOURS_MS = 6 * 60 * 60 * 1000;

/**
 * Updates download in the background and wait for the user: they are told, and restart when it suits them
 * (never in the middle of their work, never silently on quit).
 */
export class UpdateController {
  private current: UpdateStatus = { state: 'idle', version: null, message: null };
  private readonly listeners = new Set<(status: UpdateStatus) => void>();
  private timer: ReturnType<typeof setInterval> | undefined;
  private feedApplied = false;

  constructor(private readonly deps: UpdateDeps) {
    const { updater } = deps;
    updater.autoDownload = true;
    updater.autoInstallOnAppQuit = false;
    updater.on('checking-for-update', () => this.set({ state: 'checking', version: null, message: null }));
    updater.on('update-not-available', () => this.set({ state: 'idle', version: null, message: null }));
    updater.on('update-available', (info) =>
      this.set({ state: 'available', version: info.version, message: 'Downloading…' }),
    );
    updater.on('update-downloaded', (info) => this.downloaded(info.version));
    updater.on('error', (error) => this.failed(error));
  }

  get status(): UpdateStatus {
    return this.current;
  }

  onStatusChange(listener: (status: UpdateStatus) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  start(): void {
    if (!this.deps.settings.get().enabled) return;
    void this.check();
    this.timer ??= setInterval(() => void this.check(), this.deps.checkIntervalMs ?? SIX_HOURS_MS);
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  async check(): Promise<void> {
    const { enabled, feedUrl } = this.deps.settings.get();
    if (!enabled || !this.deps.isOnline()) return;
    if (this.current.state === 'checking' || this.current.state === 'downloaded') return;
    if (feedUrl && !this.feedApplied) {
      this.deps.updater.setFeedURL({ provider: 'generic', url: feedUrl });
      this.feedApplied = true;
    }
    try {
      await this.deps.updater.checkForUpdates();
    } catch (error) {
      this.failed(error as Error);
    }
  }

  setEnabled(enabled: boolean): void {
    this.deps.settings.setEnabled(enabled);
    if (enabled) {
      this.start();
    } else {
      this.stop();
      if (this.current.state !== 'downloaded') this.set({ state: 'idle', version: null, message: null });
    }
  }

  async restartToUpdate(): Promise<void> {
    if (this.current.state !== 'downloaded') throw new Error('No update has been downloaded yet.');
    this.deps.log(`restarting into ${this.current.version}`);
    await this.deps.quitThen(() => this.deps.updater.quitAndInstall());
  }

  private downloaded(version: string): void {
    this.set({ state: 'downloaded', version, message: 'Restart Shopdesk to finish updating.' });
    this.deps.notify({
      title: `Shopdesk ${version} is ready`,
      body: 'Click to restart now, or restart later from the tray menu or Settings.',
      onClick: () => void this.restartToUpdate(),
    });
  }

  private failed(error: Error): void {
    this.deps.log(`update check failed: ${error.message}`);
    if (this.current.state !== 'downloaded')
      this.set({ state: 'error', version: null, message: error.message });
  }

  private set(status: UpdateStatus): void {
    this.current = status;
    for (const listener of this.listeners) listener(status);
  }
}
