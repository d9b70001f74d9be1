import { describe, expect, it } from 'vitest';
import type { Clock } from '../lib/clock';
import { isMemberSessionToken, memberSignedIn, newMemberSession } from './member-sessions';

const at = (iso: string): Clock => ({ now: () => new Date(iso) });
const crew = { id: 'tm_1', role: 'crew' as const, can_see_prices: 0, deactivated_at: null };

describe('member sessions', () => {
  const { row, token } = newMemberSession(at('2026-11-24T10:00:00Z'), 'acct_1', 'tm_1', 'Phone');
  const now = new Date('2026-11-25T10:00:00Z');

  it('keeps only the hash of the secret and names its row in the token', () => {
    expect(isMemberSessionToken(token)).toBe(true);
    expect(token.startsWith(`${row.id}.`)).toBe(true);
    expect(row.token_hash).not.toContain(token.split('.')[1]);
    expect(row.expires_at).toBe('2026-12-24T10:00:00.000Z');
  });

  it('signs the member in with their role, prices hidden from the crew unless allowed', () => {
    expect(memberSignedIn(token, row, crew, now)).toEqual({
      id: 'tm_1',
      role: 'crew',
      canSeePrices: false,
      sessionId: row.id,
    });
    expect(memberSignedIn(token, row, { ...crew, can_see_prices: 1 }, now)?.canSeePrices).toBe(true);
    expect(memberSignedIn(token, row, { ...crew, role: 'office' }, now)?.canSeePrices).toBe(true);
  });

  it('refuses a wrong secret, another session, a revoked or expired one, and a member off the team', () => {
    const other = newMemberSession(at('2026-11-24T10:00:00Z'), 'acct_1', 'tm_1', null);
    expect(memberSignedIn(other.token, row, crew, now)).toBeNull();
    expect(memberSignedIn(`${row.id}.${other.token.split('.')[1]}`, row, crew, now)).toBeNull();
    expect(memberSignedIn(token, { ...row, revoked_at: '2026-11-24T11:00:00Z' }, crew, now)).toBeNull();
    expect(memberSignedIn(token, row, crew, new Date('2026-12-24T10:00:00Z'))).toBeNull();
    expect(memberSignedIn(token, row, { ...crew, deactivated_at: '2026-11-24T12:00:00Z' }, now)).toBeNull();
    expect(memberSignedIn('garbage', row, crew, now)).toBeNull();
  });
});
