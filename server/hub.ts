import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { parsePort, UsageError } from './cli-args';
import { systemClock } from './lib/clock';
import { startHostedHub } from './sync/hub/hosted';
import { migratePgHub } from './sync/hub/pg-schema';
import { pgHubStorage } from './sync/hub/pg-storage';
import { Hub } from './sync/hub/service';

const USAGE = `npm run hub -- --database-url postgres://… [--listen-url postgres://…] [--host 0.0.0.0] [--port 4400] [--admin-token-file PATH]
npm run hub -- --database-url postgres://… --pair <client_id> --url <the hub's public URL> [--name <device>]`;
const DEFAULT_PORT = 4400;

/** The hosted hub process (docs/sync.md, "Hosted hub"), or one pairing code for a hosted business. */
async function main() {
  const { values } = parseCommandLine(process.argv.slice(2));
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const databaseUrl = values['database-url'] ?? process.env.DATABASE_URL;
  if (!databaseUrl) throw new UsageError(`--database-url (or DATABASE_URL) is required.\n${USAGE}`);
  const pool = new pg.Pool({ connectionString: databaseUrl, application_name: 'shopdesk-hub' });

  if (values.pair) {
    await pair(pool, values.pair, values.url, values.name);
    return;
  }

  const listenUrl = values['listen-url'] ?? process.env.LISTEN_DATABASE_URL;
  // A file or the environment, never the token itself on the command line, where `ps` shows it.
  const adminTokenFile = values['admin-token-file'];
  const adminToken = adminTokenFile
    ? readFileSync(adminTokenFile, 'utf8').trim()
    : process.env.HUB_ADMIN_TOKEN;
  const hosted = await startHostedHub({
    pool,
    ...(listenUrl && { listen: { connectionString: listenUrl } }),
    ...(adminToken && { adminToken }),
    host: values.host ?? '127.0.0.1',
    port: values.port === undefined ? DEFAULT_PORT : parsePort(values.port),
    logger: true,
  });
  // An idle connection dropped by the server (a restart, a failover) is replaced on the next query.
  pool.on('error', (error) => hosted.app.log.warn({ err: error }, 'database connection lost'));
  hosted.app.log.info({ url: hosted.url }, 'hosted hub ready');

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    hosted.app.log.info({ signal }, 'finishing in-flight requests');
    await hosted.close();
    await pool.end();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

async function pair(pool: pg.Pool, accountId: string, url: string | undefined, name: string | undefined) {
  if (!url) throw new UsageError(`--pair needs --url, the address devices reach the hub at.\n${USAGE}`);
  await migratePgHub(pool);
  // The hub listens for pushes from the start; that connection would keep this process alive.
  const hub = new Hub(pgHubStorage(pool), systemClock);
  try {
    if (!(await hub.storage.hasBusiness(accountId))) {
      throw new UsageError(
        `The hub holds no business ${accountId}: it arrives when its install pairs for the first time (docs/sync.md, "Hosted hub").`,
      );
    }
    const pairing = await hub.createPairing(accountId, url, name);
    console.log(`Pairing code: ${pairing.pairing_code} (until ${pairing.expires_at})`);
    console.log(`Pairing link: ${pairing.pairing_link}`);
  } finally {
    hub.shutdown();
    await pool.end();
  }
}

function parseCommandLine(argv: string[]) {
  try {
    return parseArgs({
      args: argv,
      strict: true,
      options: {
        'database-url': { type: 'string' },
        'listen-url': { type: 'string' },
        'admin-token-file': { type: 'string' },
        host: { type: 'string' },
        port: { type: 'string' },
        pair: { type: 'string' },
        url: { type: 'string' },
        name: { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (error) {
    throw new UsageError(`${(error as Error).message}\n${USAGE}`);
  }
}

main().catch((error) => {
  console.error(error instanceof UsageError ? `Usage: ${error.message}` : error);
  process.exit(error instanceof UsageError ? 2 : 1);
});
