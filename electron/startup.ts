import type { Log } from './log';
import { choosePort, type DialogText, portInUseMessage, startupFailedMessage } from './port-choice';
import type { ToServer } from './protocol';
import type { StopOutcome } from './quit-sequence';
import type { SupervisorEvents } from './server-supervisor';
import type { LoadedSettings } from './settings';
import type { TrayState } from './tray';

/** The app window as the start-up sequence sees it. */
export interface WindowHost {
  /** Shows a page of the server, creating the window first if there is none. */
  load(url: string): void;
  /** Shows a page of the shell's own about the server's state. */
  showStatus(title: string, detail: string): void;
  focus(): void;
}

export interface SupervisorHandle {
  start(): void;
  send(message: ToServer): void;
  stop(): Promise<StopOutcome>;
}

export interface ShellDeps {
  claimSingleInstance(onSecondLaunch: () => void): boolean;
  whenReady(): Promise<void>;
  /** Resolves (flag, env, default) and creates the data folder. */
  prepareDataFolder(): string;
  loadSettings(): LoadedSettings;
  settingsFile: string;
  createSupervisor(server: { dataFolder: string; port: number }, events: SupervisorEvents): SupervisorHandle;
  window: WindowHost;
  online: { readonly current: boolean; onChange(listener: (online: boolean) => void): unknown };
  /** Resolves when the user has dismissed the message. */
  showError(text: DialogText): Promise<void>;
  showWarning(text: DialogText): void;
  onServerState(state: TrayState['server']): void;
  quit(): void;
  log: Log;
}

export interface Shell {
  supervisor: SupervisorHandle;
  dataFolder: string;
  /** The running server's origin; null while it is down. */
  appOrigin(): string | null;
}

function seconds(ms: number): string {
  return ms < 1_000 ? 'a moment' : `${Math.round(ms / 1_000)} s`;
}

/**
 * Start-up, in order: the single-instance lock, the data folder, the settings, the server, and the window
 * (opened through the server's sign-in link once the server reports ready). Returns null when another
 * instance already runs.
 */
export async function startShell(deps: ShellDeps): Promise<Shell | null> {
  if (!deps.claimSingleInstance(() => deps.window.focus())) return null;
  await deps.whenReady();
  const dataFolder = deps.prepareDataFolder();
  const { settings, problem } = deps.loadSettings();
  if (problem) {
    deps.showWarning({
      title: 'Shopdesk settings ignored',
      message: 'The desktop settings file could not be used; Shopdesk starts with its defaults.',
      detail: problem,
    });
  }
  let appOrigin: string | null = null;
  const supervisor = deps.createSupervisor(
    { dataFolder, port: choosePort(settings) },
    {
      ready: (info) => {
        appOrigin = new URL(info.url).origin;
        deps.log(`server ready at ${info.url}`);
        // A new server process starts out online; tell it what the machine really is.
        supervisor.send({ type: 'online', online: deps.online.current });
        deps.onServerState('running');
        deps.window.load(info.signInUrl);
      },
      crashed: ({ exitCode, restartInMs, attempt }) => {
        appOrigin = null;
        deps.log(`server exited unexpectedly (code ${exitCode}); restart ${attempt} in ${restartInMs} ms`);
        deps.onServerState('restarting');
        deps.window.showStatus(
          'Shopdesk’s server stopped unexpectedly',
          `It is being restarted in ${seconds(restartInMs)}; this page reloads by itself. ` +
            'Everything saved before the problem is safe.',
        );
      },
      gaveUp: ({ exitCode, crashesInLastMinute }) => {
        appOrigin = null;
        deps.log(
          `server crashed ${crashesInLastMinute} times in a minute (last code ${exitCode}); giving up`,
        );
        deps.onServerState('failed');
        const detail =
          `It stopped ${crashesInLastMinute} times within a minute, so Shopdesk stopped restarting it. ` +
          'Quit Shopdesk and start it again; if this keeps happening, the log in the app’s data folder tells why.';
        deps.window.showStatus('Shopdesk’s server keeps stopping', detail);
        void deps.showError({ title: 'Shopdesk', message: 'Shopdesk’s server keeps stopping.', detail });
      },
      startupFailed: (failure) => {
        deps.log(`server could not start: ${failure.message}`);
        deps.onServerState('failed');
        const text =
          failure.reason === 'port_in_use'
            ? portInUseMessage(failure.port, deps.settingsFile)
            : startupFailedMessage(failure.message, dataFolder);
        void deps.showError(text).then(() => deps.quit());
      },
    },
  );
  deps.online.onChange((online) => supervisor.send({ type: 'online', online }));
  supervisor.start();
  return { supervisor, dataFolder, appOrigin: () => appOrigin };
}
