import type { ReactNode } from 'react';

export type Tone = 'neutral' | 'info' | 'success' | 'warning' | 'danger' | 'accent';

const STATUS_TONES: Record<string, Tone> = {
  draft: 'neutral',
  sent: 'info',
  partially_paid: 'warning',
  paid: 'success',
  void: 'neutral',
  overdue: 'danger',
  accepted: 'success',
  declined: 'danger',
  converted: 'accent',
  expired: 'warning',
  unscheduled: 'neutral',
  scheduled: 'info',
  in_progress: 'accent',
  completed: 'success',
  cancelled: 'neutral',
  pending: 'warning',
  confirmed: 'info',
  no_show: 'danger',
  succeeded: 'success',
  failed: 'danger',
  retrying: 'warning',
  queued: 'neutral',
  waiting: 'warning',
  sending: 'info',
  disabled: 'danger',
  enabled: 'success',
  revoked: 'neutral',
  active: 'success',
};

export function Badge({ tone = 'neutral', children }: { tone?: Tone; children: ReactNode }) {
  return <span className={`badge badge-${tone}`}>{children}</span>;
}

export function statusLabel(status: string): string {
  const text = status.replace(/_/g, ' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** A record's status in the colour every screen uses for it. */
export function StatusBadge({ status }: { status: string }) {
  return <Badge tone={STATUS_TONES[status] ?? 'neutral'}>{statusLabel(status)}</Badge>;
}
