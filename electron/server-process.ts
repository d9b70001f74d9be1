import path from 'node:path';
import { parseArgs } from 'node:util';
import { type AppContext, setOnline } from '../server/context';
import type { DatabaseKey } from '../server/db/cipher';
import { createAccount, listAccounts } from '../server/domain/accounts';
import { createKey } from '../server/domain/api-keys';
import { createSignInToken } from '../server/domain/sessions';
import { startServer } from '../server/index';
import { rotatingFile } from '../server/lib/rotating-file';
import { type FromServer, parseToServer, type ServerStartupFailed } from './protocol';

/** How the server process talks to its parent: Electron's parentPort, or Node's IPC channel in tests. */
export interface ParentChannel {
  post(message: FromServer): void;
  onMessage(listener: (message: unknown) => void): void;
}

export interface ServerProcessOptions {
  dataDir: string;
  port: number;
  /** Where the server's request and error log rotates; no log without it. */
  logDir?: string | undefined;
  /** From the main process's keychain, through the environment (see utility-server.ts). */
  key: DatabaseKey | null;
}

export function parseServerProcessArgs(argv: string[]): Omit<ServerProcessOptions, 'key'> {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      'data-dir': { type: 'string' },
      port: { type: 'string', default: '0' },
      'log-dir': { type: 'string' },
    },
  });
  const dataDir = values['data-dir'];
  if (!dataDir) throw new Error('--data-dir is required');
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`Invalid --port ${values.port}`);
  return { dataDir, port, logDir: values['log-dir'] };
}

/**
 * The account the window signs into: the oldest one. A first launch on an empty folder creates one with a
 * portal key, exactly like headless mode, so the owner lands in a working business rather than a dead end.
 */
async function desktopAccountId(ctx: AppContext): Promise<string> {
  const [first] = await listAccounts(ctx.db);
  if (first) return first.id;
  const account = await createAccount(ctx, {
    businessName: 'My business',
    plan: 'platform',
    apiPlan: 'lite',
  });
  await createKey(ctx, account.id, { kind: 'portal' });
  return account.id;
}

function startupFailure(error: unknown, port: number): ServerStartupFailed {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const message = error instanceof Error ? error.message : String(error);
  return { type: 'startup-failed', reason: code === 'EADDRINUSE' ? 'port_in_use' : 'error', port, message };
}

/**
 * The server process: starts the same server as headless mode on 127.0.0.1, reports `ready` with a sign-in
 * link, applies `online` changes to the server's connectivity and, on `shutdown`, lets in-flight requests
 * finish and closes the database before exiting.
 */
export function runServerProcess(
  channel: ParentChannel,
  options: ServerProcessOptions,
  exit: (code: number) => void,
): void {
  let shuttingDown = false;
  const started = startServer({
    dataDir: options.dataDir,
    host: '127.0.0.1',
    port: options.port,
    logger: options.logDir ? rotatingFile(path.join(options.logDir, 'server.log')) : false,
    key: options.key,
  }).catch((error: unknown) => {
    channel.post(startupFailure(error, options.port));
    return undefined;
  });
  // A failure after the server started (say, the database refusing the sign-in token) is left unhandled on
  // purpose: the process dies and the supervisor in the main process restarts it.
  const announced = started.then(async (server) => {
    if (!server) return exit(1);
    if (shuttingDown) return;
    const token = await createSignInToken(server.ctx, await desktopAccountId(server.ctx));
    channel.post({ type: 'ready', url: server.url, signInUrl: `${server.url}/sign-in?token=${token}` });
  });

  // Both wait for the start-up to settle, so a shutdown that arrives early never cuts a migration short.
  channel.onMessage((raw) => {
    const message = parseToServer(raw);
    if (message?.type === 'online') {
      const { online } = message;
      void started.then((server) => server && setOnline(server.ctx, online));
    } else if (message?.type === 'shutdown' && !shuttingDown) {
      shuttingDown = true;
      void announced
        .catch(() => undefined)
        .then(() => started)
        .then(async (server) => {
          await server?.close();
          exit(0);
        });
    }
  });
}
