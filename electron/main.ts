import { randomBytes } from 'node:crypto';
import path from 'node:path';
import {
  app,
  BrowserWindow,
  dialog,
  ipcMain,
  Menu,
  Notification,
  nativeImage,
  net,
  powerMonitor,
  safeStorage,
  session,
  shell,
  Tray,
  utilityProcess,
} from 'electron';
import { autoUpdater } from 'electron-updater';
import { withShellCsp } from './csp';
import { ensureDataFolder, resolveDataFolder } from './data-folder';
import { type DesktopDatabaseKey, loadDatabaseKey } from './database-key';
import { registerIpcHandlers } from './ipc';
import { EVENT_CHANNELS } from './ipc-channels';
import { fileLog } from './log';
import { allowPermission, applyNavigationPolicy } from './navigation-policy';
import { OnlineWatcher } from './online-forwarding';
import type { DialogText } from './port-choice';
import { QuitSequence } from './quit-sequence';
import { ServerSupervisor } from './server-supervisor';
import { type DesktopSettings, type LoadedSettings, loadSettings, saveSettings } from './settings';
import { claimSingleInstance } from './single-instance';
import { type Shell, startShell, type WindowHost } from './startup';
import { type TrayState, trayMenuTemplate, trayTooltip } from './tray';
import { UpdateController } from './updates';
import { focusWindow, mainWindowOptions, statusPageUrl } from './window';

// The bundle sits in dist/electron beside the preload script, the server's entry and the icons.
const preloadPath = path.join(__dirname, 'preload.cjs');
const serverEntry = path.join(__dirname, 'utility-server.cjs');
const iconPath = path.join(__dirname, 'icon.png');
const trayIconPath = path.join(__dirname, 'tray-icon.png');
const settingsFile = path.join(app.getPath('userData'), 'settings.json');
const logFolder = path.join(app.getPath('userData'), 'logs');
const log = fileLog(logFolder);

app.setAppUserModelId('com.shopdesk.app');

let shellState: Shell | null = null;
let window: BrowserWindow | null = null;
/** What a re-opened window shows: the app once signed in (the session cookie persists), or a status page. */
let windowPage: string | null = null;
let tray: Tray | null = null;
const trayState: TrayState = { online: true, server: 'starting', updateReady: null };

let loaded: LoadedSettings | undefined;
const settings = (): LoadedSettings => {
  loaded ??= loadSettings(settingsFile);
  return loaded;
};

let databaseKey: DesktopDatabaseKey | undefined;
/** Read after the app is ready (the keychain needs it); a locked keychain stops the start with its message. */
const desktopDatabaseKey = (): DesktopDatabaseKey => {
  databaseKey ??= loadDatabaseKey({
    safeStorage,
    file: path.join(app.getPath('userData'), 'database-key.sealed'),
    randomHex: () => randomBytes(32).toString('hex'),
  });
  if (databaseKey.state === 'unavailable') log(databaseKey.reason);
  return databaseKey;
};

const appOrigin = () => shellState?.appOrigin() ?? null;

function broadcast(channel: string, value: unknown) {
  for (const open of BrowserWindow.getAllWindows()) open.webContents.send(channel, value);
}

function showPage(url: string) {
  const target = ensureWindow();
  target.loadURL(url).catch((error: Error) => log(`loading the window failed: ${error.message}`));
}

function ensureWindow(): BrowserWindow {
  if (window && !window.isDestroyed()) return window;
  const created = new BrowserWindow(mainWindowOptions(preloadPath, iconPath));
  created.once('ready-to-show', () => created.show());
  created.on('closed', () => {
    if (window === created) window = null;
  });
  window = created;
  return created;
}

function openWindow() {
  if (window && !window.isDestroyed()) focusWindow(window);
  else if (windowPage) showPage(windowPage);
}

const windowHost: WindowHost = {
  load: (url) => {
    windowPage = `${new URL(url).origin}/`;
    showPage(url);
  },
  showStatus: (title, detail) => {
    windowPage = statusPageUrl(title, detail);
    showPage(windowPage);
  },
  focus: openWindow,
};

async function showError(text: DialogText): Promise<void> {
  await dialog.showMessageBox({ type: 'error', buttons: ['OK'], ...text });
}

const online = new OnlineWatcher({ probe: () => net.isOnline() });

function refreshTray() {
  if (!tray) return;
  tray.setToolTip(trayTooltip(trayState));
  tray.setContextMenu(
    Menu.buildFromTemplate(
      trayMenuTemplate(trayState, {
        open: openWindow,
        restartToUpdate: () => updates.restartToUpdate().catch((error: Error) => log(error.message)),
        quit: () => app.quit(),
      }),
    ),
  );
}

const quitSequence = new QuitSequence({
  beforeServerStops: () => {
    online.stop();
    updates.stop();
  },
  stopServer: async () => (shellState ? shellState.supervisor.stop() : 'not-running'),
  exit: () => app.exit(0),
  log,
});

const updates = new UpdateController({
  updater: autoUpdater,
  settings: {
    get: () => settings().settings.updates,
    setEnabled: (enabled) => {
      const current = settings();
      // Rewriting a file the user got wrong would silently throw their other settings away.
      if (current.problem) throw new Error(current.problem);
      const next: DesktopSettings = {
        ...current.settings,
        updates: { ...current.settings.updates, enabled },
      };
      saveSettings(settingsFile, next);
      loaded = { settings: next, problem: null };
    },
  },
  isOnline: () => online.current,
  notify: ({ title, body, onClick }) => {
    if (!Notification.isSupported()) return;
    const notification = new Notification({ title, body, icon: iconPath });
    notification.on('click', onClick);
    notification.show();
  },
  quitThen: (then) => quitSequence.run(then),
  log,
});
autoUpdater.logger = {
  info: (message?: unknown) => log(`updater: ${String(message)}`),
  warn: (message?: unknown) => log(`updater: ${String(message)}`),
  error: (message?: unknown) => log(`updater: ${String(message)}`),
};

function hardenSessions() {
  const ses = session.defaultSession;
  ses.setPermissionRequestHandler((_contents, permission, callback, details) =>
    callback(allowPermission(permission, details.requestingUrl, appOrigin())),
  );
  ses.setPermissionCheckHandler((_contents, permission, requestingOrigin) =>
    allowPermission(permission, requestingOrigin, appOrigin()),
  );
  ses.webRequest.onHeadersReceived((details, callback) =>
    callback({ responseHeaders: withShellCsp(details.url, details.responseHeaders ?? {}, appOrigin()) }),
  );
}

app.on('web-contents-created', (_event, contents) => {
  applyNavigationPolicy(contents, {
    appOrigin,
    openExternal: (url) => void shell.openExternal(url),
    log,
  });
});

app.on('before-quit', (event) => {
  if (quitSequence.interceptQuit()) event.preventDefault();
});

// Closing the window ends the app, except on macOS where apps stay in the dock until quit.
app.on('window-all-closed', () => {
  if (process.platform !== 'darwin') app.quit();
});
app.on('activate', openWindow);

registerIpcHandlers(
  ipcMain,
  {
    appVersion: () => app.getVersion(),
    isOnline: () => online.current,
    openExternal: (url) => shell.openExternal(url),
    getUpdateSettings: () => settings().settings.updates,
    setUpdatesEnabled: (enabled) => updates.setEnabled(enabled),
    getUpdateStatus: () => updates.status,
    restartToUpdate: () => updates.restartToUpdate(),
    recoveryKey: () => (databaseKey?.state === 'ready' ? databaseKey.hex : null),
  },
  (url) => {
    const origin = appOrigin();
    try {
      return origin !== null && new URL(url).origin === origin;
    } catch {
      return false;
    }
  },
);

online.onChange((isOnline) => {
  log(isOnline ? 'online' : 'offline');
  trayState.online = isOnline;
  refreshTray();
  broadcast(EVENT_CHANNELS.onlineChanged, isOnline);
});
updates.onStatusChange((status) => {
  trayState.updateReady = status.state === 'downloaded' ? status.version : null;
  refreshTray();
  broadcast(EVENT_CHANNELS.updateStatusChanged, status);
});

async function main() {
  shellState = await startShell({
    claimSingleInstance: (onSecondLaunch) => claimSingleInstance(app, onSecondLaunch),
    whenReady: async () => {
      await app.whenReady();
      hardenSessions();
      online.start();
      // The OS is shutting down: let the server finish its writes first (Linux and macOS wait for us).
      // Electron passes an event here although its typings declare no argument.
      powerMonitor.on('shutdown', (event?: { preventDefault(): void }) => {
        event?.preventDefault();
        void quitSequence.run(() => app.exit(0));
      });
      // Waking up or unlocking is when the network most often changed; do not wait for the next poll.
      powerMonitor.on('resume', () => online.check());
      powerMonitor.on('unlock-screen', () => online.check());
      tray = new Tray(nativeImage.createFromPath(trayIconPath));
      tray.on('click', openWindow);
      refreshTray();
    },
    prepareDataFolder: () =>
      ensureDataFolder(
        resolveDataFolder({
          argv: process.argv,
          env: process.env,
          userDataPath: app.getPath('userData'),
          cwd: process.cwd(),
        }),
      ),
    loadSettings: settings,
    settingsFile,
    createSupervisor: ({ dataFolder, port }, events) => {
      const key = desktopDatabaseKey();
      return new ServerSupervisor((childEvents) => {
        const child = utilityProcess.fork(
          serverEntry,
          ['--data-dir', dataFolder, '--port', String(port), '--log-dir', logFolder],
          {
            serviceName: 'Shopdesk server',
            stdio: 'pipe',
            // The environment, not the arguments: those are visible to every user through `ps`.
            env: { ...process.env, ...(key.state === 'ready' ? { SHOPDESK_DB_KEY: key.hex } : {}) },
          },
        );
        child.stdout?.on('data', (chunk: Buffer) => log(`server: ${chunk.toString().trimEnd()}`));
        child.stderr?.on('data', (chunk: Buffer) => log(`server: ${chunk.toString().trimEnd()}`));
        child.on('message', childEvents.onMessage);
        child.on('exit', childEvents.onExit);
        return { send: (message) => child.postMessage(message), kill: () => void child.kill() };
      }, events);
    },
    window: windowHost,
    online,
    showError,
    showWarning: async (text) => {
      await dialog.showMessageBox({ type: 'warning', buttons: ['OK'], ...text });
    },
    onServerState: (state) => {
      trayState.server = state;
      refreshTray();
    },
    quit: () => app.quit(),
    log,
  });
  if (shellState) {
    log(`started; data folder ${shellState.dataFolder}`);
    updates.start();
  }
}

main().catch(async (error: Error) => {
  log(`start-up failed: ${error.stack ?? error.message}`);
  await showError({
    title: 'Shopdesk cannot start',
    message: 'Shopdesk could not start.',
    detail: error.message,
  });
  app.exit(1);
});
