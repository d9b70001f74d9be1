import type { ApiKey, ApiKeyWithSecret, Scope } from '../../shared/schemas/api-key';
import type { AppContext } from '../context';
import { runCompiledOnce } from '../db/compiled-once';
import type { Queryable } from '../db/database';
import { otherWritersVersion, ownAccountWrites } from '../db/other-writers';
import type { ApiKeysTable } from '../db/schema';
import { storageProblem } from '../db/storage-errors';
import { isoNow, toIso } from '../lib/clock';
import { ApiError, invalidState, notFound, unauthorized } from '../lib/errors';
import { newId } from '../lib/ids';
import { hashSecret, newSecret, SECRET_PREFIXES } from '../lib/secrets';
import { type Account, toAccount } from './accounts';

export const ROTATION_GRACE_MS = 7 * 24 * 60 * 60 * 1000;
const LAST_USED_GRANULARITY_MS = 60_000;

type KeyKind = ApiKeysTable['kind'];

function prefixFor(kind: KeyKind, mode: ApiKeysTable['mode']): string {
  if (kind === 'portal') return SECRET_PREFIXES.portal;
  if (kind === 'feed') return SECRET_PREFIXES.feed;
  return mode === 'live' ? SECRET_PREFIXES.live : SECRET_PREFIXES.test;
}

async function previousSecretExpiry(db: Queryable, keyId: string): Promise<string | null> {
  const row = await db
    .selectFrom('api_key_secrets')
    .select((eb) => eb.fn.max('expires_at').as('expires_at'))
    .where('key_id', '=', keyId)
    .where('expires_at', 'is not', null)
    .executeTakeFirst();
  return row?.expires_at ?? null;
}

/** The calendar feed token only reads, whatever an older row recorded for it. */
const FEED_SCOPES: Scope[] = ['read'];

function scopesOf(row: Pick<ApiKeysTable, 'kind' | 'scopes'>): Scope[] {
  return row.kind === 'feed' ? FEED_SCOPES : (JSON.parse(row.scopes) as Scope[]);
}

function present(row: ApiKeysTable, previousExpiry: string | null, now: Date): ApiKey {
  return {
    id: row.id,
    object: 'api_key',
    kind: row.kind,
    mode: row.mode,
    scopes: scopesOf(row),
    name: row.name,
    redacted: `${prefixFor(row.kind, row.mode)}…${row.last4}`,
    created_at: row.created_at,
    revoked_at: row.revoked_at,
    last_used_at: row.last_used_at,
    previous_secret_expires_at: previousExpiry && new Date(previousExpiry) > now ? previousExpiry : null,
  };
}

export async function createKey(
  ctx: AppContext,
  accountId: string,
  input: { kind: KeyKind; mode?: ApiKeysTable['mode']; scopes?: Scope[]; name?: string | undefined },
): Promise<ApiKeyWithSecret> {
  const mode = input.mode ?? 'live';
  const scopes: Scope[] =
    input.kind === 'v1'
      ? [...new Set<Scope>(input.scopes ?? ['read', 'write'])]
      : input.kind === 'feed'
        ? FEED_SCOPES
        : ['read', 'write'];
  const secret = newSecret(prefixFor(input.kind, mode));
  const now = isoNow(ctx.clock);
  const row: ApiKeysTable = {
    id: newId('key', ctx.clock.now().getTime()),
    account_id: accountId,
    kind: input.kind,
    mode,
    scopes: JSON.stringify(scopes),
    name: input.name ?? null,
    last4: secret.slice(-4),
    created_at: now,
    revoked_at: null,
    last_used_at: null,
  };
  await ctx.db
    .transaction()
    .execute(async (tx) => {
      // One portal key and one feed token are active per account: a new one replaces the old at once.
      if (input.kind !== 'v1') {
        await tx
          .updateTable('api_keys')
          .set({ revoked_at: now })
          .where('account_id', '=', accountId)
          .where('kind', '=', input.kind)
          .where('revoked_at', 'is', null)
          .execute();
      }
      await tx.insertInto('api_keys').values(row).execute();
      await tx
        .insertInto('api_key_secrets')
        .values({ hash: hashSecret(secret), key_id: row.id, created_at: now, expires_at: null })
        .execute();
    })
    .finally(() => forgetKeys(ctx.db));
  return { ...present(row, null, ctx.clock.now()), key: secret };
}

export async function listKeys(ctx: AppContext, accountId: string, kind: KeyKind): Promise<ApiKey[]> {
  const rows = await ctx.db
    .selectFrom('api_keys')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('kind', '=', kind)
    .orderBy('id', 'desc')
    .execute();
  return Promise.all(
    rows.map(async (row) => present(row, await previousSecretExpiry(ctx.db, row.id), ctx.clock.now())),
  );
}

async function getActiveKey(ctx: AppContext, accountId: string, keyId: string): Promise<ApiKeysTable> {
  const row = await ctx.db
    .selectFrom('api_keys')
    .selectAll()
    .where('id', '=', keyId)
    .where('account_id', '=', accountId)
    .executeTakeFirst();
  if (!row) throw notFound(`No API key ${keyId}`);
  if (row.revoked_at) throw invalidState(`API key ${keyId} is revoked`);
  return row;
}

/**
 * Issues a new secret for a v1 key. The old secret keeps working for seven days (its responses
 * carry X-Key-Expires-At) so integrations can be updated without downtime; any older one stops.
 */
export async function rotateKey(
  ctx: AppContext,
  accountId: string,
  keyId: string,
): Promise<ApiKeyWithSecret> {
  const row = await getActiveKey(ctx, accountId, keyId);
  const now = ctx.clock.now();
  const expiresAt = toIso(new Date(now.getTime() + ROTATION_GRACE_MS));
  const secret = newSecret(prefixFor(row.kind, row.mode));
  await ctx.db
    .transaction()
    .execute(async (tx) => {
      // Only the current secret and the one before it work (contract part 2): a secret already
      // rotated out stops now, and the current one becomes the previous one for the grace period.
      await tx
        .updateTable('api_key_secrets')
        .set({ expires_at: toIso(now) })
        .where('key_id', '=', keyId)
        .where('expires_at', '>', toIso(now))
        .execute();
      await tx
        .updateTable('api_key_secrets')
        .set({ expires_at: expiresAt })
        .where('key_id', '=', keyId)
        .where('expires_at', 'is', null)
        .execute();
      await tx
        .insertInto('api_key_secrets')
        .values({ hash: hashSecret(secret), key_id: keyId, created_at: toIso(now), expires_at: null })
        .execute();
      await tx
        .updateTable('api_keys')
        .set({ last4: secret.slice(-4) })
        .where('id', '=', keyId)
        .execute();
    })
    .finally(() => forgetKeys(ctx.db));
  return { ...present({ ...row, last4: secret.slice(-4) }, expiresAt, now), key: secret };
}

export async function revokeKey(ctx: AppContext, accountId: string, keyId: string): Promise<ApiKey> {
  const row = await getActiveKey(ctx, accountId, keyId);
  const now = isoNow(ctx.clock);
  await ctx.db
    .updateTable('api_keys')
    .set({ revoked_at: now })
    .where('id', '=', keyId)
    .execute()
    .finally(() => forgetKeys(ctx.db));
  return present({ ...row, revoked_at: now }, null, ctx.clock.now());
}

export interface AuthenticatedKey {
  keyId: string;
  accountId: string;
  kind: KeyKind;
  mode: ApiKeysTable['mode'];
  scopes: Scope[];
  /** Set when the presented secret is a rotated-out one still inside its grace period. */
  expiresAt: string | null;
}

type SecretRow = Pick<
  ApiKeysTable,
  'id' | 'account_id' | 'kind' | 'mode' | 'scopes' | 'revoked_at' | 'last_used_at'
> & {
  expires_at: string | null;
  /** The key's account, read with it: every request needs both. Undefined when the account is gone. */
  account: Account | undefined;
};

/**
 * Presented secrets already looked up, by hash, for one database, with their accounts: every
 * request of an integration presents the same key. Dropped whole when this process writes a key
 * (create, rotate, revoke) or an account (a settings or plan change, a sync pull), and when another
 * connection (the CLI) commits anything, so a revocation refuses the very next request and a plan
 * change applies to it.
 */
interface SecretCache {
  otherWriters: number;
  accountWrites: number;
  rows: Map<string, SecretRow | undefined>;
}

const secretCaches = new WeakMap<object, SecretCache>();
/** Counts this process's key writes per database: a lookup that overlapped one is not cached. */
const keyWrites = new WeakMap<object, number>();
/** Unknown secrets are cached too (a client retrying a wrong key); this bounds what they can fill. */
const SECRET_CACHE_SIZE = 1000;

function forgetKeys(db: object): void {
  secretCaches.delete(db);
  keyWrites.set(db, (keyWrites.get(db) ?? 0) + 1);
}

async function findSecret(db: AppContext['db'], hash: string): Promise<SecretRow | undefined> {
  const version = otherWritersVersion(db);
  const accountWrites = ownAccountWrites(db);
  const writes = keyWrites.get(db) ?? 0;
  let cache = secretCaches.get(db);
  if (
    version !== null &&
    cache?.otherWriters === version &&
    cache.accountWrites === accountWrites &&
    cache.rows.has(hash)
  )
    return cache.rows.get(hash);
  const found = await runCompiledOnce(db, 'api key by secret hash', { hash }, (v) =>
    db
      .selectFrom('api_key_secrets as s')
      .innerJoin('api_keys as k', 'k.id', 's.key_id')
      .leftJoin('accounts as a', 'a.id', 'k.account_id')
      .select([
        'k.id',
        'k.account_id',
        'k.kind',
        'k.mode',
        'k.scopes',
        'k.revoked_at',
        'k.last_used_at',
        's.expires_at',
        'a.id as account_found',
        'a.plan',
        'a.api_plan',
        'a.config',
        'a.created_at',
      ])
      .where('s.hash', '=', v.hash),
  );
  const [result] = found;
  const row: SecretRow | undefined = result && {
    id: result.id,
    account_id: result.account_id,
    kind: result.kind,
    mode: result.mode,
    scopes: result.scopes,
    revoked_at: result.revoked_at,
    last_used_at: result.last_used_at,
    expires_at: result.expires_at,
    account:
      result.account_found === null
        ? undefined
        : Object.freeze(
            toAccount({
              id: result.account_found,
              plan: result.plan!,
              api_plan: result.api_plan!,
              config: result.config!,
              created_at: result.created_at!,
            }),
          ),
  };
  if (version === null || (keyWrites.get(db) ?? 0) !== writes || ownAccountWrites(db) !== accountWrites)
    return row;
  cache = secretCaches.get(db);
  if (
    cache?.otherWriters !== version ||
    cache.accountWrites !== accountWrites ||
    cache.rows.size >= SECRET_CACHE_SIZE
  ) {
    cache = { otherWriters: version, accountWrites: accountWrites ?? 0, rows: new Map() };
    secretCaches.set(db, cache);
  }
  cache.rows.set(hash, row);
  return row;
}

/**
 * Resolves a presented secret to its key and the key's account, or throws 401 (unknown, revoked
 * or expired), or 404 when the account is gone.
 */
export async function authenticateSecret(
  ctx: AppContext,
  secret: string,
): Promise<{ key: AuthenticatedKey; account: Account }> {
  const row = await findSecret(ctx.db, hashSecret(secret));
  if (!row || row.revoked_at) {
    throw unauthorized('The API key is missing, unknown or revoked.');
  }
  const now = ctx.clock.now();
  if (row.expires_at && new Date(row.expires_at) <= now) {
    throw new ApiError(
      401,
      'api_key_expired',
      `This key was rotated and its grace period ended at ${row.expires_at}.`,
    );
  }
  if (!row.last_used_at || now.getTime() - new Date(row.last_used_at).getTime() > LAST_USED_GRANULARITY_MS) {
    const lastUsed = toIso(now);
    await ctx.db
      .updateTable('api_keys')
      .set({ last_used_at: lastUsed })
      .where('id', '=', row.id)
      .execute()
      .catch((error: unknown) => {
        // A note of when the key was last used must not turn a read into a failure on a full disk.
        if (storageProblem(error) !== 'full') throw error;
      });
    // The cached row is this key's (only key writes change it): it keeps the note it just got.
    row.last_used_at = lastUsed;
  }
  if (!row.account) throw notFound(`No account ${row.account_id}`);
  return {
    key: {
      keyId: row.id,
      accountId: row.account_id,
      kind: row.kind,
      mode: row.mode,
      scopes: scopesOf(row),
      expiresAt: row.expires_at,
    },
    account: row.account,
  };
}
