import type { SyncedTable } from './synced-table';

const ownAccount = (r: string) => `${r}.account_id`;

/**
 * Who signs in (migrations 0031 and 0032, docs/crew-design.md): synced, so the hosted hub checks a crew
 * member's session from its rows while every owner computer is off, and a revocation made on any
 * install reaches every server that could be asked.
 */
export const PEOPLE_TABLES: SyncedTable[] = [
  {
    name: 'member_sessions',
    pk: ['id'],
    account: ownAccount,
    refs: { member_id: 'team_members' },
    writable: [
      'id',
      'account_id',
      'member_id',
      'token_hash',
      'user_agent',
      'created_at',
      'expires_at',
      'revoked_at',
    ],
    parents: { member_id: ['team_members'] },
  },
  {
    name: 'member_invites',
    pk: ['id'],
    account: ownAccount,
    refs: { member_id: 'team_members' },
    writable: [
      'id',
      'account_id',
      'member_id',
      'token_hash',
      'created_at',
      'expires_at',
      'used_at',
      'revoked_at',
    ],
    parents: { member_id: ['team_members'] },
  },
  {
    name: 'member_passkeys',
    pk: ['id'],
    account: ownAccount,
    refs: { member_id: 'team_members' },
    writable: [
      'id',
      'account_id',
      'member_id',
      'credential_id',
      'public_key',
      'transports',
      'created_at',
      'revoked_at',
    ],
    parents: { member_id: ['team_members'] },
  },
];
