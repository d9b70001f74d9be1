/**
 * What the desktop shell's preload script exposes to the portal UI as `window.shopdesk`.
 * Absent when the UI runs in a plain browser (headless mode), so the UI must treat it as optional.
 */
export interface DesktopApi {
  appVersion(): Promise<string>;
  /** The machine's network state as the shell sees it, and changes to it. */
  isOnline(): Promise<boolean>;
  onOnlineChange(listener: (online: boolean) => void): () => void;
  /** Opens an http(s) link in the system browser. */
  openExternal(url: string): Promise<void>;
  updates: {
    getSettings(): Promise<{ enabled: boolean; feedUrl: string | null }>;
    setEnabled(enabled: boolean): Promise<void>;
    /** 'idle' | 'checking' | 'available' | 'downloaded' | 'error', with the version when known. */
    getStatus(): Promise<{ state: string; version: string | null; message: string | null }>;
    onStatusChange(
      listener: (status: { state: string; version: string | null; message: string | null }) => void,
    ): () => void;
    /** Restarts into a downloaded update once the server has finished its in-flight writes. */
    restartToUpdate(): Promise<void>;
  };
  /**
   * The key the database and its backups are encrypted with (null when the machine has no keychain and
   * the data is not encrypted). Backups restored on another machine need it: the owner writes it down.
   */
  recoveryKey(): Promise<string | null>;
}

declare global {
  interface Window {
    shopdesk?: DesktopApi;
  }
}
