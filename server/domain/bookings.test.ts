import { describe, expect, it } from 'vitest';
import type { BookingStatus } from '../../shared/schemas/booking';
import { ApiError } from '../lib/errors';
import { type BookingAction, nextBookingStatus } from './bookings';

function outcome(status: BookingStatus, action: BookingAction): BookingStatus | 'refused' {
  try {
    return nextBookingStatus(status, action);
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(409);
    return 'refused';
  }
}

describe('booking state machine', () => {
  it.each([
    ['pending', 'confirm', 'confirmed'],
    ['pending', 'cancel', 'cancelled'],
    ['pending', 'complete', 'refused'],
    ['pending', 'no_show', 'refused'],
    ['confirmed', 'confirm', 'refused'],
    ['confirmed', 'cancel', 'cancelled'],
    ['confirmed', 'complete', 'completed'],
    ['confirmed', 'no_show', 'no_show'],
    ['completed', 'cancel', 'refused'],
    ['completed', 'no_show', 'refused'],
    ['cancelled', 'confirm', 'refused'],
    ['cancelled', 'complete', 'refused'],
    ['no_show', 'complete', 'refused'],
    ['no_show', 'cancel', 'refused'],
  ] as const)('%s + %s → %s', (status, action, expected) => {
    expect(outcome(status, action)).toBe(expected);
  });

  it('says why a transition is refused', () => {
    expect(() => nextBookingStatus('no_show', 'confirm')).toThrow('A no-show booking cannot be confirmed');
  });
});
