import { INVOKE_CHANNELS } from './ipc-channels';
import { isExternalHttpUrl } from './navigation-policy';
import type { UpdateStatus } from './updates';

export interface IpcHandlers {
  appVersion(): string;
  isOnline(): boolean;
  openExternal(url: string): Promise<void>;
  getUpdateSettings(): { enabled: boolean; feedUrl: string | null };
  setUpdatesEnabled(enabled: boolean): void;
  getUpdateStatus(): UpdateStatus;
  restartToUpdate(): Promise<void>;
  /** The database key, for the owner to write down: it opens the backups on another machine. */
  recoveryKey(): string | null;
}

/** The part of Electron's ipcMain used here, with the invoke event reduced to who sent it. */
export interface IpcMainLike {
  handle(
    channel: string,
    listener: (event: { senderFrame: { url: string } | null }, ...args: unknown[]) => unknown,
  ): void;
}

/**
 * Registers the preload API's handlers. Every call is checked: it must come from a page of the app's own
 * origin (not a page that slipped in some other way), and its arguments are validated, not trusted.
 */
export function registerIpcHandlers(
  ipcMain: IpcMainLike,
  handlers: IpcHandlers,
  isTrustedSender: (url: string) => boolean,
): void {
  const handle = (channel: string, run: (args: unknown[]) => unknown) => {
    ipcMain.handle(channel, (event, ...args) => {
      const sender = event.senderFrame?.url ?? '';
      if (!isTrustedSender(sender))
        throw new Error(`Refused ${channel} from ${sender || 'an unknown frame'}`);
      return run(args);
    });
  };
  handle(INVOKE_CHANNELS.appVersion, () => handlers.appVersion());
  handle(INVOKE_CHANNELS.isOnline, () => handlers.isOnline());
  handle(INVOKE_CHANNELS.openExternal, ([url]) => {
    if (typeof url !== 'string' || !isExternalHttpUrl(url))
      throw new Error('Only http(s) links can be opened');
    return handlers.openExternal(url);
  });
  handle(INVOKE_CHANNELS.getUpdateSettings, () => handlers.getUpdateSettings());
  handle(INVOKE_CHANNELS.setUpdatesEnabled, ([enabled]) => {
    if (typeof enabled !== 'boolean') throw new Error('setEnabled takes true or false');
    return handlers.setUpdatesEnabled(enabled);
  });
  handle(INVOKE_CHANNELS.getUpdateStatus, () => handlers.getUpdateStatus());
  handle(INVOKE_CHANNELS.restartToUpdate, () => handlers.restartToUpdate());
  handle(INVOKE_CHANNELS.recoveryKey, () => handlers.recoveryKey());
}
