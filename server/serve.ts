import path from 'node:path';
import { parseCommandLine, parsePort, parseTls, UsageError } from './cli-args';
import { DatabaseKeyError } from './db/cipher';
import { databaseKeyFromEnvironment } from './db/key-source';
import { DataFolderError } from './db/storage-errors';
import { createAccount, listAccounts } from './domain/accounts';
import { createKey } from './domain/api-keys';
import { createSignInToken } from './domain/sessions';
import { startServer } from './index';
import { clockFromEnvironment } from './lib/clock';
import { keepHeapNearLive } from './lib/heap-growth';

const PARENT_CHECK_MS = 500;
/** Read first thing: a parent that ends during start-up must still be noticed. */
const parent = process.ppid;

/** This install's hub keeps its state in PostgreSQL, where hosted hub processes serve it too. */
async function pgHub(url: string) {
  // Loaded only for such an install: pg takes as long to load as a good part of the server.
  const [{ default: pg }, { migratePgHub }, { pgHubStorage }] = await Promise.all([
    import('pg'),
    import('./sync/hub/pg-schema'),
    import('./sync/hub/pg-storage'),
  ]);
  const pool = new pg.Pool({ connectionString: url, application_name: 'shopdesk-serve' });
  // An idle connection dropped by the server (a restart, a failover) is replaced on the next query.
  pool.on('error', (error) => console.warn(`Hub database connection lost: ${error.message}`));
  await migratePgHub(pool);
  return { pool, storage: pgHubStorage(pool) };
}

async function main() {
  const { values } = parseCommandLine(process.argv.slice(2));
  const dataDir = path.resolve(values['data-dir']);
  const hubUrl = values['hub-database-url'];
  const hub = hubUrl ? await pgHub(hubUrl) : undefined;
  const server = await startServer({
    dataDir,
    host: values.host ?? '127.0.0.1',
    port: parsePort(values.port),
    allowedHosts: values['allowed-host'] ?? [],
    logger: true,
    key: databaseKeyFromEnvironment(process.env),
    clock: clockFromEnvironment(process.env),
    tls: parseTls(values),
    allowInsecureHttp: values['insecure-http'],
    hubStorage: hub?.storage,
  });
  const { ctx } = server;
  let accounts = await listAccounts(ctx.db);
  if (accounts.length === 0) {
    // A first start on an empty folder should open straight onto a working business, not a dead end.
    const account = await createAccount(ctx, {
      businessName: 'My business',
      plan: 'platform',
      apiPlan: 'lite',
    });
    await createKey(ctx, account.id, { kind: 'portal' });
    accounts = [account];
    console.log(`Created an account in ${dataDir} (rename it under Settings).`);
  }
  console.log(`Shopdesk is running at ${server.url}`);
  if (server.tlsFingerprint) console.log(`TLS certificate SHA-256: ${server.tlsFingerprint}`);
  const backups = server.backups.status();
  console.log(
    `Database ${backups.encrypted ? 'encrypted' : 'NOT encrypted (set SHOPDESK_DB_KEY_FILE)'}; daily backups in ${backups.folder}`,
  );
  console.log(`API docs: ${server.url}/docs`);
  for (const account of accounts) {
    const token = await createSignInToken(ctx, account.id);
    const label = accounts.length > 1 ? ` (${account.config.business_name}, ${account.id})` : '';
    console.log(`Sign in${label}: ${server.url}/sign-in?token=${token}`);
  }

  // Set once serving, not first thing: while a start builds its heap, collecting each time it grew
  // by a quarter cost ~12 % of the start's CPU (BENCHMARKS.md, "Start-up, fifth pass").
  keepHeapNearLive();

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${signal}: finishing in-flight requests…`);
    await server.close();
    await hub?.pool.end();
    console.log('Stopped.');
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
  // `npm run serve` starts this through a shell, which ends on a signal without passing it on: a
  // server whose parent is gone stops as if it had been sent the signal itself.
  const watch = setInterval(() => {
    if (process.ppid !== parent) void stop('The process that started Shopdesk ended');
  }, PARENT_CHECK_MS);
  watch.unref();
}

main().catch((error) => {
  if (error instanceof UsageError) console.error(`Usage: ${error.message}`);
  else if (error instanceof DataFolderError || error instanceof DatabaseKeyError)
    console.error(`shopdesk: ${error.message}`);
  else console.error(error);
  process.exit(error instanceof UsageError ? 2 : 1);
});
