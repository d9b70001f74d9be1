import type { DesktopSettings } from './settings';

/** 0 asks the system for a free port; a configured port is kept stable for integrations that call the APIs. */
export function choosePort(settings: Pick<DesktopSettings, 'port'>): number {
  return settings.port ?? 0;
}

export interface DialogText {
  title: string;
  message: string;
  detail: string;
}

export function portInUseMessage(port: number, settingsFile: string): DialogText {
  return {
    title: 'Shopdesk cannot start',
    message: `Port ${port} is already in use by another program.`,
    detail:
      `Shopdesk is set to serve its local APIs on port ${port} (the "port" setting in ${settingsFile}). ` +
      'Close the program that uses that port, or change "port" to a free one (or remove it so Shopdesk ' +
      'picks a free port by itself), then start Shopdesk again.',
  };
}

export function startupFailedMessage(reason: string, dataFolder: string): DialogText {
  return {
    title: 'Shopdesk cannot start',
    message: 'Shopdesk could not start its local server.',
    detail: `${reason}\n\nData folder: ${dataFolder}`,
  };
}
