import { contextBridge, type IpcRendererEvent, ipcRenderer } from 'electron';
import type { DesktopApi } from '../shared/desktop-api';
import { EVENT_CHANNELS, INVOKE_CHANNELS } from './ipc-channels';

type UpdateStatus = Awaited<ReturnType<DesktopApi['updates']['getStatus']>>;

/** Subscribes to one event channel; the page gets the value only, never Electron's event object. */
function subscribe<T>(channel: string, accept: (value: unknown) => value is T, listener: (value: T) => void) {
  const wrapped = (_event: IpcRendererEvent, value: unknown) => {
    if (accept(value)) listener(value);
  };
  ipcRenderer.on(channel, wrapped);
  return () => {
    ipcRenderer.removeListener(channel, wrapped);
  };
}

const isBoolean = (value: unknown): value is boolean => typeof value === 'boolean';
const isUpdateStatus = (value: unknown): value is UpdateStatus =>
  typeof value === 'object' && value !== null && typeof (value as { state?: unknown }).state === 'string';

const api: DesktopApi = {
  appVersion: () => ipcRenderer.invoke(INVOKE_CHANNELS.appVersion),
  isOnline: () => ipcRenderer.invoke(INVOKE_CHANNELS.isOnline),
  onOnlineChange: (listener) => subscribe(EVENT_CHANNELS.onlineChanged, isBoolean, listener),
  openExternal: (url) => ipcRenderer.invoke(INVOKE_CHANNELS.openExternal, String(url)),
  updates: {
    getSettings: () => ipcRenderer.invoke(INVOKE_CHANNELS.getUpdateSettings),
    setEnabled: (enabled) => ipcRenderer.invoke(INVOKE_CHANNELS.setUpdatesEnabled, enabled === true),
    getStatus: () => ipcRenderer.invoke(INVOKE_CHANNELS.getUpdateStatus),
    onStatusChange: (listener) => subscribe(EVENT_CHANNELS.updateStatusChanged, isUpdateStatus, listener),
    restartToUpdate: () => ipcRenderer.invoke(INVOKE_CHANNELS.restartToUpdate),
  },
  recoveryKey: () => ipcRenderer.invoke(INVOKE_CHANNELS.recoveryKey),
};

contextBridge.exposeInMainWorld('shopdesk', api);
