import { EventEmitter } from 'node:events';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { UpdateController, type UpdateDeps, type UpdaterLike } from './updates';

class FakeUpdater extends EventEmitter implements UpdaterLike {
  autoDownload = false;
  autoInstallOnAppQuit = true;
  feeds: string[] = [];
  checks = 0;
  installs = 0;
  failNextCheck: Error | null = null;

  setFeedURL(options: { provider: 'generic'; url: string }) {
    this.feeds.push(options.url);
  }
  async checkForUpdates() {
    this.checks += 1;
    if (this.failNextCheck) {
      const error = this.failNextCheck;
      this.failNextCheck = null;
      throw error;
    }
    return null;
  }
  quitAndInstall() {
    this.installs += 1;
  }
}

function controller(
  settings: { enabled: boolean; feedUrl: string | null },
  overrides: Partial<UpdateDeps> = {},
) {
  const updater = new FakeUpdater();
  const notices: { title: string; onClick(): void }[] = [];
  const steps: string[] = [];
  const saved: boolean[] = [];
  const current = { ...settings };
  const updates = new UpdateController({
    updater,
    settings: {
      get: () => current,
      setEnabled: (enabled) => {
        current.enabled = enabled;
        saved.push(enabled);
      },
    },
    isOnline: () => true,
    notify: (notice) => notices.push(notice),
    quitThen: async (then) => {
      steps.push('server finished its writes');
      then();
    },
    log: () => {},
    checkIntervalMs: 1_000,
    ...overrides,
  });
  return { updates, updater, notices, steps, saved };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('UpdateController', () => {
  it('downloads by itself but never installs on quit', () => {
    const { updater } = controller({ enabled: true, feedUrl: null });
    expect(updater.autoDownload).toBe(true);
    expect(updater.autoInstallOnAppQuit).toBe(false);
  });

  it('never checks when turned off', async () => {
    const { updates, updater } = controller({ enabled: false, feedUrl: null });
    updates.start();
    await vi.advanceTimersByTimeAsync(10_000);
    await updates.check();
    expect(updater.checks).toBe(0);
  });

  it('checks at start and periodically, on the configured feed', async () => {
    const { updates, updater } = controller({ enabled: true, feedUrl: 'https://updates.example/shopdesk' });
    updates.start();
    await vi.advanceTimersByTimeAsync(2_000);
    expect(updater.checks).toBe(3);
    expect(updater.feeds).toEqual(['https://updates.example/shopdesk']);
  });

  it('skips checks while offline', async () => {
    const { updates, updater } = controller({ enabled: true, feedUrl: null }, { isOnline: () => false });
    updates.start();
    await vi.advanceTimersByTimeAsync(2_000);
    expect(updater.checks).toBe(0);
  });

  it('reports progress and prompts once an update is downloaded', () => {
    const { updates, updater, notices } = controller({ enabled: true, feedUrl: null });
    const seen: string[] = [];
    updates.onStatusChange((status) => seen.push(status.state));
    updater.emit('checking-for-update');
    updater.emit('update-available', { version: '1.2.0' });
    updater.emit('update-downloaded', { version: '1.2.0' });
    expect(seen).toEqual(['checking', 'available', 'downloaded']);
    expect(updates.status).toMatchObject({ state: 'downloaded', version: '1.2.0' });
    expect(notices.map((notice) => notice.title)).toEqual(['Shopdesk 1.2.0 is ready']);
  });

  it('restarts into the update only after the server finished, and only when one is downloaded', async () => {
    const { updates, updater, notices, steps } = controller({ enabled: true, feedUrl: null });
    await expect(updates.restartToUpdate()).rejects.toThrow(/No update/);
    expect(updater.installs).toBe(0);

    updater.emit('update-downloaded', { version: '1.2.0' });
    updater.quitAndInstall = () => {
      steps.push('quitAndInstall');
    };
    notices[0]!.onClick();
    await vi.waitFor(() => expect(steps).toEqual(['server finished its writes', 'quitAndInstall']));
  });

  it('shows a failed check as an error', async () => {
    const { updates, updater } = controller({ enabled: true, feedUrl: null });
    updater.failNextCheck = new Error('net::ERR_NAME_NOT_RESOLVED');
    await updates.check();
    expect(updates.status).toEqual({ state: 'error', version: null, message: 'net::ERR_NAME_NOT_RESOLVED' });
  });

  it('can be turned off and on', async () => {
    const { updates, updater, saved } = controller({ enabled: true, feedUrl: null });
    updates.start();
    await vi.advanceTimersByTimeAsync(0);
    updates.setEnabled(false);
    const checks = updater.checks;
    await vi.advanceTimersByTimeAsync(5_000);
    expect(updater.checks).toBe(checks);
    updates.setEnabled(true);
    await vi.advanceTimersByTimeAsync(0);
    expect(updater.checks).toBe(checks + 1);
    expect(saved).toEqual([false, true]);
  });
});
