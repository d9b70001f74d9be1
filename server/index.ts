import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { type AppContext, createContext } from './context';
import { openDatabase } from './db/database';
import { buildApp } from './http/app';
import { type Clock, systemClock } from './lib/clock';

export interface ServerOptions {
  dataDir: string;
  host?: string;
  port?: number;
  clock?: Clock;
  logger?: boolean;
}

export interface RunningServer {
  url: string;
  port: number;
  ctx: AppContext;
  app: FastifyInstance;
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
  const { port, address, family } = app.server.address() as AddressInfo;
  const host = family === 'IPv6' ? `[${address}]` : address;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${host}:${port}`,
    port,
    ctx,
    app,
    close: () => {
      closing ??= (async () => {
        await app.close();
        await database.close();
      })();
      return closing;
    },
  };
}
