import type { Db } from '../db/database';
import { type Account, getAccount } from '../domain/accounts';
import { notFound } from '../lib/errors';

interface Cached {
  config: string;
  account: Account;
}

/**
 * The accounts behind v1 requests, re-read on every request but parsed only when their stored row
 * changed: validating the config is the larger part of a v1 request's auth cost, and a row that is
 * byte-for-byte the same parses to the same account.
 */
export class AccountCache {
  private readonly parsed = new Map<string, Cached>();

  constructor(private readonly db: Db) {}

  async get(accountId: string): Promise<Account> {
    const row = await this.db
      .selectFrom('accounts')
      .select(['plan', 'api_plan', 'config'])
      .where('id', '=', accountId)
      .executeTakeFirst();
    if (!row) throw notFound(`No account ${accountId}`);
    const cached = this.parsed.get(accountId);
    if (cached && cached.config === row.config) {
      return { ...cached.account, plan: row.plan, api_plan: row.api_plan };
    }
    const account = await getAccount(this.db, accountId);
    this.parsed.set(accountId, { config: row.config, account });
    return { ...account, plan: row.plan, api_plan: row.api_plan };
  }
}
