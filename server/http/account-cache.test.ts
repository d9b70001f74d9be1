import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AppContext, createContext } from '../context';
import { type OpenedDatabase, openDatabase } from '../db/database';
import { createAccount, setPlans, updateConfig } from '../domain/accounts';
import { manualClock } from '../lib/clock';
import { AccountCache } from './account-cache';

let dir: string;
let database: OpenedDatabase;
let ctx: AppContext;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'shopdesk-account-cache-'));
  database = await openDatabase(dir);
  ctx = createContext(database.db, manualClock());
});
afterAll(async () => {
  await database.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('AccountCache', () => {
  it('sees plan and config changes at once, even within the same second', async () => {
    const account = await createAccount(ctx, { businessName: 'Before', plan: 'basic', apiPlan: 'lite' });
    const cache = new AccountCache(ctx.db);
    expect(await cache.get(account.id)).toMatchObject({ plan: 'basic', api_plan: 'lite' });

    await setPlans(ctx, account.id, { plan: 'platform', apiPlan: 'none' });
    expect(await cache.get(account.id)).toMatchObject({ plan: 'platform', api_plan: 'none' });

    await updateConfig(ctx, account.id, { business_name: 'After' });
    expect((await cache.get(account.id)).config.business_name).toBe('After');
  });

  it('answers 404 for an unknown account', async () => {
    await expect(new AccountCache(ctx.db).get('acct_missing')).rejects.toMatchObject({ status: 404 });
  });
});
