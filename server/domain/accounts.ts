import { type Config, ConfigUpdate, defaultConfig, StoredConfig } from '../../shared/schemas/config';
import type { AppContext } from '../context';
import { runCompiledOnce } from '../db/compiled-once';
import type { Queryable, Tx } from '../db/database';
import type { AccountsTable } from '../db/schema';
import { isoNow } from '../lib/clock';
import { conflict, invalidState, notFound } from '../lib/errors';
import { newId } from '../lib/ids';

export type Plan = AccountsTable['plan'];
export type ApiPlan = AccountsTable['api_plan'];

export interface Account {
  id: string;
  plan: Plan;
  api_plan: ApiPlan;
  config: StoredConfig;
  created_at: string;
}

const parsedConfigs = new Map<string, StoredConfig>();
const PARSED_CONFIGS_KEPT = 100;

/**
 * A config stored before a rule was tightened (a locale no formatter knows, a CR in a prefix) would
 * fail every request of its account: the fields it now fails fall back to their defaults instead,
 * and the owner sees and can change them under Settings.
 */
function storedConfig(raw: Record<string, unknown>): StoredConfig {
  const parsed = StoredConfig.safeParse(raw);
  if (parsed.success) return parsed.data;
  const defaults: Record<string, unknown> = defaultConfig('My business');
  const repaired = { ...raw };
  for (const issue of parsed.error.issues) {
    const field = String(issue.path[0]);
    repaired[field] = defaults[field];
  }
  return StoredConfig.parse(repaired);
}

/**
 * The one way to read an account's stored config (accounts.config, here or as a synced row on a
 * hub). Every request reads its account; validating the stored config each time would cost more
 * than the query. The same stored text always parses to the same config, so remember the last few.
 */
export function readStoredConfig(text: string): StoredConfig {
  let config = parsedConfigs.get(text);
  if (!config) {
    config = Object.freeze(storedConfig(JSON.parse(text)));
    if (parsedConfigs.size >= PARSED_CONFIGS_KEPT) parsedConfigs.delete(parsedConfigs.keys().next().value!);
    parsedConfigs.set(text, config);
  }
  return config;
}

/** An account as the app uses it, from its stored row. */
export function toAccount(row: Omit<AccountsTable, 'updated_at'>): Account {
  return {
    id: row.id,
    plan: row.plan,
    api_plan: row.api_plan,
    config: readStoredConfig(row.config),
    created_at: row.created_at,
  };
}

export async function createAccount(
  ctx: AppContext,
  input: { businessName: string; plan: Plan; apiPlan: ApiPlan },
): Promise<Account> {
  const now = isoNow(ctx.clock);
  const row: AccountsTable = {
    id: newId('acct', ctx.clock.now().getTime()),
    plan: input.plan,
    api_plan: input.apiPlan,
    config: JSON.stringify(defaultConfig(input.businessName)),
    created_at: now,
    updated_at: now,
  };
  await ctx.db.insertInto('accounts').values(row).execute();
  return toAccount(row);
}

export async function findAccount(db: Queryable, id: string): Promise<Account | undefined> {
  // Every request reads its account: compiled once.
  const [row] = await runCompiledOnce(db, 'account by id', { id }, (v) =>
    db.selectFrom('accounts').selectAll().where('id', '=', v.id),
  );
  return row ? toAccount(row) : undefined;
}

export async function getAccount(db: Queryable, id: string): Promise<Account> {
  const account = await findAccount(db, id);
  if (!account) throw notFound(`No account ${id}`);
  return account;
}

export async function listAccounts(db: Queryable): Promise<Account[]> {
  const rows = await db.selectFrom('accounts').selectAll().orderBy('id').execute();
  return rows.map(toAccount);
}

export function presentConfig(account: Account): Config {
  const { smtp, ...rest } = account.config;
  return {
    ...rest,
    smtp: smtp ? { ...withoutPassword(smtp), password_set: Boolean(smtp.password) } : null,
    plan: account.plan,
    api_plan: account.api_plan,
    client_id: account.id,
  };
}

function withoutPassword<T extends { password?: string | undefined }>(smtp: T): Omit<T, 'password'> {
  const { password: _password, ...rest } = smtp;
  return rest;
}

/**
 * Amounts are stored without a currency of their own in the overview figures, so a new currency
 * would relabel past revenue ($ → €) without converting it: refused once money is on record.
 */
async function refuseCurrencyChange(tx: Tx, accountId: string, current: string): Promise<void> {
  const onRecord = await Promise.all(
    (['invoices', 'quotes'] as const).map((table) =>
      tx.selectFrom(table).select('id').where('account_id', '=', accountId).limit(1).executeTakeFirst(),
    ),
  );
  if (onRecord.some(Boolean)) {
    throw conflict(
      `Your invoices and quotes are in ${current}; a new currency would relabel their amounts without converting them. Keep ${current}.`,
      'currency',
    );
  }
}

export async function updateConfig(
  ctx: AppContext,
  accountId: string,
  update: ConfigUpdate,
): Promise<Account> {
  return ctx.db.transaction().execute(async (tx) => {
    const account = await getAccount(tx, accountId);
    const patch = ConfigUpdate.parse(update);
    // An SMTP update without a password keeps the stored one: GET never returns it, so a form
    // that round-trips the settings must not erase it.
    if (patch.smtp && patch.smtp.password === undefined && account.config.smtp?.password) {
      patch.smtp = { ...patch.smtp, password: account.config.smtp.password };
    }
    if (patch.currency && patch.currency !== account.config.currency) {
      await refuseCurrencyChange(tx, accountId, account.config.currency);
    }
    const config = StoredConfig.parse({ ...account.config, ...patch });
    await tx
      .updateTable('accounts')
      .set({ config: JSON.stringify(config), updated_at: isoNow(ctx.clock) })
      .where('id', '=', accountId)
      .execute();
    return { ...account, config };
  });
}

export async function setPlans(
  ctx: AppContext,
  accountId: string,
  plans: { plan?: Plan | undefined; apiPlan?: ApiPlan | undefined },
): Promise<Account> {
  const account = await getAccount(ctx.db, accountId);
  // A device's push may not change plans (docs/sync.md, "What a device may write"): changed here,
  // they would wait in its outbox for a hub that refuses them.
  const synced = await ctx.db
    .selectFrom('sync_settings')
    .select(['role', 'hub_url'])
    .where('account_id', '=', accountId)
    .executeTakeFirst();
  if (synced?.role === 'device') {
    throw invalidState(
      `This business syncs with the hub at ${synced.hub_url}: its plans are changed by the hub's operator (shopdesk plan on the hub's folder).`,
    );
  }
  const next = { plan: plans.plan ?? account.plan, api_plan: plans.apiPlan ?? account.api_plan };
  await ctx.db
    .updateTable('accounts')
    .set({ ...next, updated_at: isoNow(ctx.clock) })
    .where('id', '=', accountId)
    .execute();
  return { ...account, ...next };
}
