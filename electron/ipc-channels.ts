/** The only IPC channels between the preload script and the main process; both sides use these names. */
export const INVOKE_CHANNELS = {
  appVersion: 'shopdesk:app-version',
  isOnline: 'shopdesk:is-online',
  openExternal: 'shopdesk:open-external',
  getUpdateSettings: 'shopdesk:updates:get-settings',
  setUpdatesEnabled: 'shopdesk:updates:set-enabled',
  getUpdateStatus: 'shopdesk:updates:get-status',
  restartToUpdate: 'shopdesk:updates:restart',
  recoveryKey: 'shopdesk:backups:recovery-key',
} as const;

export const EVENT_CHANNELS = {
  onlineChanged: 'shopdesk:online-changed',
  updateStatusChanged: 'shopdesk:updates:status-changed',
} as const;
