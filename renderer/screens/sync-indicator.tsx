import type { SyncStatus } from '../../shared/schemas/sync';
import type { Formatters } from '../lib/format';
import { count } from '../lib/plural';
import { href } from '../lib/router';
import { useFormat } from '../lib/session';
import { useSyncStatus } from '../lib/use-sync-status';

export interface SyncSummary {
  tone: 'ok' | 'busy' | 'offline' | 'problem' | 'attention';
  text: string;
}

export function changesWaiting(changes: number): string {
  return `${count(changes, 'change', 'changes')} waiting`;
}

/**
 * Sync in one phrase a shop owner understands, most urgent first: being offline explains an
 * error, and a problem or a conflict matters more than a sync in progress. Null while standalone.
 */
export function describeSync(status: SyncStatus, format: Formatters): SyncSummary | null {
  if (status.role === 'standalone') return null;
  if (!status.online) {
    return {
      tone: 'offline',
      text: status.pending > 0 ? `Offline — ${changesWaiting(status.pending)}` : 'Offline',
    };
  }
  if (status.last_error) return { tone: 'problem', text: 'Sync problem' };
  if (status.conflicts > 0) {
    return {
      tone: 'attention',
      text: `${count(status.conflicts, 'conflict', 'conflicts')} to resolve`,
    };
  }
  if (status.pending > 0 || !status.last_synced_at) return { tone: 'busy', text: 'Syncing…' };
  return { tone: 'ok', text: `Synced ${format.relative(status.last_synced_at)}` };
}

/** The shell's sync line, a link to Settings > Sync; nothing while this computer does not sync. */
export function SyncIndicator() {
  const format = useFormat();
  const { status } = useSyncStatus();
  const summary = status && describeSync(status, format);
  if (!summary) return null;
  return (
    <a
      className={`sync-indicator sync-${summary.tone}`}
      href={href('settings', 'sync')}
      title="Open Settings > Sync"
      data-testid="sync-indicator"
    >
      <span className="sync-dot" aria-hidden="true" />
      {summary.tone === 'problem' ? `${summary.text} — see Settings` : summary.text}
    </a>
  );
}
