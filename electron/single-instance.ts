export interface SingleInstanceApp {
  requestSingleInstanceLock(): boolean;
  on(event: 'second-instance', listener: () => void): unknown;
  quit(): void;
}

/**
 * Two copies of the app on one data folder would mean two servers on one database and two windows that
 * disagree. The first instance keeps running; a second launch only brings the first one's window forward.
 */
export function claimSingleInstance(app: SingleInstanceApp, onSecondLaunch: () => void): boolean {
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return false;
  }
  app.on('second-instance', onSecondLaunch);
  return true;
}
