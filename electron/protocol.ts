/**
 * The messages between the main process and the server's utility process. Both sides check what they
 * receive: a message is structured-cloned data from another process, not a trusted value.
 */

/** main → server */
export type ToServer = { type: 'online'; online: boolean } | { type: 'shutdown' };

export interface ServerReady {
  type: 'ready';
  /** The server's origin, e.g. http://127.0.0.1:53124. */
  url: string;
  /** A one-time link that signs the window in (valid 15 minutes). */
  signInUrl: string;
}

export interface ServerStartupFailed {
  type: 'startup-failed';
  /** 'port_in_use' when a fixed port is taken; the main process explains how to change it. */
  reason: 'port_in_use' | 'error';
  port: number;
  message: string;
}

/** server → main */
export type FromServer = ServerReady | ServerStartupFailed;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

export function parseToServer(value: unknown): ToServer | undefined {
  if (!isRecord(value)) return undefined;
  if (value.type === 'shutdown') return { type: 'shutdown' };
  if (value.type === 'online' && typeof value.online === 'boolean')
    return { type: 'online', online: value.online };
  return undefined;
}

export function parseFromServer(value: unknown): FromServer | undefined {
  if (!isRecord(value)) return undefined;
  if (value.type === 'ready' && typeof value.url === 'string' && typeof value.signInUrl === 'string') {
    return { type: 'ready', url: value.url, signInUrl: value.signInUrl };
  }
  if (
    value.type === 'startup-failed' &&
    (value.reason === 'port_in_use' || value.reason === 'error') &&
    typeof value.port === 'number' &&
    typeof value.message === 'string'
  ) {
    return { type: 'startup-failed', reason: value.reason, port: value.port, message: value.message };
  }
  return undefined;
}
