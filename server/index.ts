import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { type AppContext, createContext, setOnline } from './context';
import { openDatabase } from './db/database';
import { buildApp } from './http/app';
import { type Clock, systemClock } from './lib/clock';
import { type MailWorker, type MailWorkerOptions, startMailWorker } from './outbound/mail-worker';
import { startWebhookWorker, type WebhookWorker, type WebhookWorkerOptions } from './outbound/webhook-worker';

export interface ServerOptions {
  dataDir: string;
  host?: string;
  port?: number;
  clock?: Clock;
  logger?: boolean;
  /** Tuning of the outbound workers (tests pin the jitter; benchmarks raise the bounds). */
  outbound?: { webhooks?: WebhookWorkerOptions; mail?: MailWorkerOptions };
}

export interface RunningServer {
  url: string;
  port: number;
  ctx: AppContext;
  app: FastifyInstance;
  /** The outbound workers; `runDue()` sends what is due now and resolves once it is recorded. */
  outbound: { webhooks: WebhookWorker; mail: MailWorker };
  /** Whether webhooks and e-mail may go out; the desktop shell calls it when the network comes and goes. */
  setOnline(online: boolean): void;
  /** Stops taking connections, lets in-flight requests finish, stops the workers, closes the database. */
  close(): Promise<void>;
}

/** The one way to run Shopdesk's server: headless mode, the desktop app and the tests all call this. */
export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const database = await openDatabase(options.dataDir);
  const ctx = createContext(database.db, options.clock ?? systemClock);
  const app = await buildApp(ctx, { logger: options.logger ?? false });
  try {
    await app.listen({ host: options.host ?? '127.0.0.1', port: options.port ?? 4300 });
  } catch (error) {
    await app.close();
    await database.close();
    throw error;
  }
  const outbound = {
    webhooks: startWebhookWorker(ctx, options.outbound?.webhooks),
    mail: startMailWorker(ctx, options.outbound?.mail),
  };
  const { port, address, family } = app.server.address() as AddressInfo;
  const host = family === 'IPv6' ? `[${address}]` : address;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${host}:${port}`,
    port,
    ctx,
    app,
    outbound,
    setOnline: (online) => setOnline(ctx, online),
    close: () => {
      closing ??= (async () => {
        await app.close();
        await Promise.all([outbound.webhooks.stop(), outbound.mail.stop()]);
        await database.close();
      })();
      return closing;
    },
  };
}
