import { useSyncExternalStore } from 'react';
import type { SyncStatus } from '../../shared/schemas/sync';
import { portal } from './api';

/** Often enough that "Synced 2 min ago" and "changes waiting" stay current, rare enough to cost nothing. */
const POLL_MS = 10_000;

export interface SyncStatusSnapshot {
  status?: SyncStatus;
  error?: Error;
}

/*
 * One store for the whole page: the shell's indicator and Settings > Sync read the same status,
 * so a "Sync now" on the tab updates the indicator at once and the server is asked once per poll.
 */
let snapshot: SyncStatusSnapshot = {};
const listeners = new Set<() => void>();
let timer: ReturnType<typeof setInterval> | undefined;
let generation = 0;

function publish(next: SyncStatusSnapshot) {
  snapshot = next;
  for (const listener of listeners) listener();
}

/** Asks the server again; an answer overtaken by a newer one is dropped. */
export async function refreshSyncStatus(): Promise<void> {
  const mine = ++generation;
  try {
    const status = await portal.get('/sync');
    if (mine === generation) publish({ status });
  } catch (error) {
    if (mine === generation) publish({ status: snapshot.status, error: error as Error });
  }
}

/** Shows a status a write answered with (sync now) without another round trip. */
export function showSyncStatus(status: SyncStatus) {
  generation++;
  publish({ status });
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  if (listeners.size === 1) {
    void refreshSyncStatus();
    timer = setInterval(refreshSyncStatus, POLL_MS);
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) clearInterval(timer);
  };
}

export function useSyncStatus(): SyncStatusSnapshot {
  return useSyncExternalStore(subscribe, () => snapshot);
}
