/**
 * Fault injection for the crash tests, and only for them (docs/decisions.md): read once at start,
 * SHOPDESK_FAULT=crash-after-commit:<point> kills this process with SIGKILL right after the commit
 * at <point>, as a power cut there would. Unset (always, outside those tests) it does nothing.
 */
const FAULT = process.env.SHOPDESK_FAULT ?? '';

/** The named point just after a commit: the process dies here when the crash tests ask for it. */
export function crashAfterCommit(point: string): void {
  if (FAULT === `crash-after-commit:${point}`) process.kill(process.pid, 'SIGKILL');
}
