import { describe, expect, it } from 'vitest';
import type { DialogText } from './port-choice';
import type { ToServer } from './protocol';
import type { SupervisorEvents } from './server-supervisor';
import { DEFAULT_SETTINGS, type LoadedSettings } from './settings';
import { type ShellDeps, startShell } from './startup';

function fakeShell(options: { lock?: boolean; settings?: LoadedSettings } = {}) {
  const steps: string[] = [];
  const sent: ToServer[] = [];
  const errors: DialogText[] = [];
  const warnings: DialogText[] = [];
  const onlineListeners: ((online: boolean) => void)[] = [];
  let events: SupervisorEvents | undefined;
  let secondLaunch: (() => void) | undefined;
  const online = {
    current: false,
    onChange: (listener: (online: boolean) => void) => onlineListeners.push(listener),
  };
  const deps: ShellDeps = {
    claimSingleInstance: (onSecondLaunch) => {
      steps.push('lock');
      secondLaunch = onSecondLaunch;
      return options.lock ?? true;
    },
    whenReady: async () => {
      steps.push('ready');
    },
    prepareDataFolder: () => {
      steps.push('data folder');
      return '/data/shopdesk';
    },
    loadSettings: () => {
      steps.push('settings');
      return options.settings ?? { settings: DEFAULT_SETTINGS, problem: null };
    },
    settingsFile: '/user/settings.json',
    createSupervisor: (server, supervisorEvents) => {
      steps.push(`server ${server.dataFolder} port ${server.port}`);
      events = supervisorEvents;
      return {
        start: () => steps.push('server start'),
        send: (message) => sent.push(message),
        stop: async () => 'clean',
      };
    },
    window: {
      load: (url) => steps.push(`window ${url}`),
      showStatus: (title) => steps.push(`status ${title}`),
      focus: () => steps.push('focus'),
    },
    online,
    showError: async (text) => {
      errors.push(text);
    },
    showWarning: (text) => warnings.push(text),
    onServerState: (state) => steps.push(`state ${state}`),
    quit: () => steps.push('quit'),
    log: () => {},
  };
  return {
    deps,
    steps,
    sent,
    errors,
    warnings,
    online,
    events: () => events!,
    secondLaunch: () => secondLaunch!(),
    goOnline: (value: boolean) => {
      for (const listener of onlineListeners) listener(value);
    },
  };
}

const ready = {
  type: 'ready' as const,
  url: 'http://127.0.0.1:5123',
  signInUrl: 'http://127.0.0.1:5123/sign-in?token=sd_signin_x',
};

describe('startShell', () => {
  it('takes the lock, prepares the data folder, starts the server, then opens the window via the sign-in link', async () => {
    const shell = fakeShell();
    const started = await startShell(shell.deps);
    expect(shell.steps).toEqual([
      'lock',
      'ready',
      'data folder',
      'settings',
      'server /data/shopdesk port 0',
      'server start',
    ]);
    expect(started?.appOrigin()).toBeNull();

    shell.events().ready(ready);
    expect(shell.steps.slice(-2)).toEqual(['state running', `window ${ready.signInUrl}`]);
    expect(started?.appOrigin()).toBe('http://127.0.0.1:5123');
    // The new server assumes it is online; it is told the machine's real state at once.
    expect(shell.sent).toEqual([{ type: 'online', online: false }]);
  });

  it('stops at the lock when another instance runs, and focuses the window on a second launch', async () => {
    const second = fakeShell({ lock: false });
    expect(await startShell(second.deps)).toBeNull();
    expect(second.steps).toEqual(['lock']);

    const first = fakeShell();
    await startShell(first.deps);
    first.secondLaunch();
    expect(first.steps.at(-1)).toBe('focus');
  });

  it('uses the configured fixed port and explains a taken one, then quits', async () => {
    const shell = fakeShell({ settings: { settings: { ...DEFAULT_SETTINGS, port: 4400 }, problem: null } });
    await startShell(shell.deps);
    expect(shell.steps).toContain('server /data/shopdesk port 4400');

    shell
      .events()
      .startupFailed({ type: 'startup-failed', reason: 'port_in_use', port: 4400, message: 'EADDRINUSE' });
    await Promise.resolve();
    expect(shell.errors).toHaveLength(1);
    expect(shell.errors[0]!.message).toContain('Port 4400 is already in use');
    expect(shell.errors[0]!.detail).toContain('/user/settings.json');
    expect(shell.steps.at(-1)).toBe('quit');
  });

  it('reports other start-up failures with the data folder', async () => {
    const shell = fakeShell();
    await startShell(shell.deps);
    shell
      .events()
      .startupFailed({ type: 'startup-failed', reason: 'error', port: 0, message: 'disk I/O error' });
    await Promise.resolve();
    expect(shell.errors[0]!.detail).toContain('disk I/O error');
    expect(shell.errors[0]!.detail).toContain('/data/shopdesk');
    expect(shell.steps.at(-1)).toBe('quit');
  });

  it('warns when the settings file was ignored', async () => {
    const shell = fakeShell({ settings: { settings: DEFAULT_SETTINGS, problem: 'port: too big' } });
    await startShell(shell.deps);
    expect(shell.warnings[0]!.detail).toBe('port: too big');
  });

  it('shows what happened while the server restarts, and signs in again once it is back', async () => {
    const shell = fakeShell();
    const started = await startShell(shell.deps);
    shell.events().ready(ready);
    shell.events().crashed({ exitCode: 1, restartInMs: 2_000, attempt: 1 });
    expect(shell.steps.slice(-2)).toEqual([
      'state restarting',
      'status Shopdesk’s server stopped unexpectedly',
    ]);
    expect(started?.appOrigin()).toBeNull();

    const again = {
      ...ready,
      url: 'http://127.0.0.1:6001',
      signInUrl: 'http://127.0.0.1:6001/sign-in?token=t2',
    };
    shell.events().ready(again);
    expect(shell.steps.at(-1)).toBe(`window ${again.signInUrl}`);
    expect(started?.appOrigin()).toBe('http://127.0.0.1:6001');
  });

  it('tells the user when it gives up on the server', async () => {
    const shell = fakeShell();
    await startShell(shell.deps);
    shell.events().gaveUp({ exitCode: 1, crashesInLastMinute: 6 });
    expect(shell.steps.slice(-2)).toEqual(['state failed', 'status Shopdesk’s server keeps stopping']);
    expect(shell.errors[0]!.message).toContain('keeps stopping');
    expect(shell.steps).not.toContain('quit');
  });

  it('forwards online changes to the server', async () => {
    const shell = fakeShell();
    await startShell(shell.deps);
    shell.goOnline(true);
    expect(shell.sent).toEqual([{ type: 'online', online: true }]);
  });
});
