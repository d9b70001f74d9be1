import { describe, expect, it } from 'vitest';
import { JOB_STATUSES, type JobStatus } from '../../shared/schemas/job';
import { ApiError } from '../lib/errors';
import { type JobAction, nextJobStatus, scheduledStatus } from './jobs';

function outcome(status: JobStatus, action: JobAction): JobStatus | 'refused' {
  try {
    return nextJobStatus(status, action);
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(409);
    expect((error as ApiError).code).toBe('invalid_state');
    return 'refused';
  }
}

const cases = [
  ['unscheduled', 'start', 'in_progress'],
  ['scheduled', 'start', 'in_progress'],
  ['in_progress', 'start', 'refused'],
  ['completed', 'start', 'refused'],
  ['cancelled', 'start', 'refused'],
  ['unscheduled', 'complete', 'completed'],
  ['scheduled', 'complete', 'completed'],
  ['in_progress', 'complete', 'completed'],
  ['completed', 'complete', 'refused'],
  ['cancelled', 'complete', 'refused'],
  ['unscheduled', 'cancel', 'cancelled'],
  ['scheduled', 'cancel', 'cancelled'],
  ['in_progress', 'cancel', 'cancelled'],
  ['completed', 'cancel', 'refused'],
  ['cancelled', 'cancel', 'refused'],
] as const;

describe('job state machine', () => {
  it.each(cases)('%s + %s → %s', (status, action, expected) => {
    expect(outcome(status, action)).toBe(expected);
  });

  it('has a case for every status and action', () => {
    const covered = new Set(cases.map(([status, action]) => `${status}:${action}`));
    for (const status of JOB_STATUSES) {
      for (const action of ['start', 'complete', 'cancel']) expect(covered).toContain(`${status}:${action}`);
    }
  });

  it('says why a transition is refused', () => {
    expect(() => nextJobStatus('cancelled', 'complete')).toThrow('A cancelled job cannot be completed');
  });

  it('derives scheduled or unscheduled from the start', () => {
    expect(scheduledStatus('2026-11-20T14:00:00Z')).toBe('scheduled');
    expect(scheduledStatus(null)).toBe('unscheduled');
    expect(scheduledStatus(undefined)).toBe('unscheduled');
  });
});
