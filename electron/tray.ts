import type { MenuItemConstructorOptions } from 'electron';

export interface TrayState {
  online: boolean;
  server: 'starting' | 'running' | 'restarting' | 'failed';
  /** The version of a downloaded update waiting for a restart. */
  updateReady: string | null;
}

export interface TrayActions {
  open(): void;
  restartToUpdate(): void;
  quit(): void;
}

const SERVER_LABELS: Record<TrayState['server'], string> = {
  starting: 'Starting…',
  running: 'Running',
  restarting: 'Restarting after a problem…',
  failed: 'Stopped: quit and start Shopdesk again',
};

export function trayTooltip(state: TrayState): string {
  return `Shopdesk: ${state.online ? 'online' : 'offline (changes wait and go out when back online)'}`;
}

export function trayMenuTemplate(state: TrayState, actions: TrayActions): MenuItemConstructorOptions[] {
  const items: MenuItemConstructorOptions[] = [
    { label: 'Open Shopdesk', click: actions.open },
    { type: 'separator' },
    { label: state.online ? 'Online' : 'Offline: e-mail and webhooks wait', enabled: false },
    { label: `Server: ${SERVER_LABELS[state.server]}`, enabled: false },
  ];
  if (state.updateReady) {
    items.push(
      { type: 'separator' },
      { label: `Restart to update to ${state.updateReady}`, click: actions.restartToUpdate },
    );
  }
  items.push({ type: 'separator' }, { label: 'Quit Shopdesk', click: actions.quit });
  return items;
}
