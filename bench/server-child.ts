import type { FastifyReply, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import type { DatabaseKey } from '../server/db/cipher';
import { updateConfig } from '../server/domain/accounts';
import { createKey } from '../server/domain/api-keys';
import { insertEvent } from '../server/domain/events';
import { createSignInToken } from '../server/domain/sessions';
import { insertDelivery } from '../server/domain/webhook-fanout';
import { createEndpoint, deleteEndpoint } from '../server/domain/webhooks';
import { RateLimiter } from '../server/http/rate-limiter';
import { v1Guard } from '../server/http/v1/guard';
import { type RunningServer, startServer } from '../server/index';
import { clockFromEnvironment } from '../server/lib/clock';
import { keepHeapNearLive } from '../server/lib/heap-growth';
import { type ChildMessage, serveRequests } from './child-ipc';
import { benchClock } from './clock';

/**
 * The bench's server process: the server as headless mode runs it (this file is bundled like
 * server/serve.ts and started with serve.mjs's heap flag, bench/processes.ts), with the bench's
 * clock, answering the few things cases ask of it that no route offers (a key, a backup, a burst
 * of webhook deliveries…) over the IPC channel.
 */
export interface BenchServerOptions {
  dataDir: string;
  /** The data set's "now": the bench clock starts there (bench/clock.ts). */
  dataNow?: string;
  key?: DatabaseKey;
  integrityCheckDelayMs?: number;
  logger?: boolean;
}

function operations(server: RunningServer) {
  const { ctx } = server;
  const engine = () => {
    if (!ctx.sync) throw new Error('The server runs no sync engine');
    return ctx.sync;
  };
  return {
    createKey: async (accountId: string, kind: 'portal' | 'v1', name?: string) =>
      (await createKey(ctx, accountId, { kind, name })).key,
    signInToken: (accountId: string) => createSignInToken(ctx, accountId),
    /** The id of the customer `offset` places from the oldest (a page near the end of the list). */
    customerIdAt: async (accountId: string, offset: number) =>
      (
        await ctx.db
          .selectFrom('customers')
          .select('id')
          .where('account_id', '=', accountId)
          .orderBy('id', 'asc')
          .offset(offset)
          .limit(1)
          .executeTakeFirstOrThrow()
      ).id,
    databaseFile: async () =>
      (await sql<{ file: string }>`pragma database_list`.execute(ctx.db)).rows[0]!.file,
    backup: async () => {
      const { id, file, size_bytes } = await server.backups.create('manual');
      return { id, file, size_bytes };
    },
    backupsDataDir: async () => server.backups.dataDir,
    restore: async (backupId: string) => {
      await server.restore(backupId);
    },
    integrityChecked: () => server.integrityChecked,
    /** Queues `count` webhook.test deliveries to one new endpoint in one transaction, as a burst of events would. */
    queueWebhookBurst: async (accountId: string, url: string, count: number) => {
      await updateConfig(ctx, accountId, { allow_local_webhooks: true });
      const endpoint = await createEndpoint(ctx, accountId, 'portal', {
        url,
        events: ['webhook.test'],
        enabled: true,
      });
      await ctx.db.transaction().execute(async (tx) => {
        for (let i = 0; i < count; i++) {
          const event = await insertEvent(tx, ctx.clock, accountId, 'webhook.test', {
            id: endpoint.id,
            n: i,
          });
          await insertDelivery(tx, ctx.clock, { ...endpoint, account_id: accountId }, event);
        }
      });
      return endpoint.id;
    },
    runDueWebhooks: async () => {
      await server.outbound.webhooks.runDue();
    },
    wakeOutbox: async () => {
      ctx.signals.emit('outbox');
    },
    deleteEndpoint: (accountId: string, endpointId: string) =>
      deleteEndpoint(ctx, accountId, 'portal', endpointId),
    /**
     * CPU time per request through every layer, in milliseconds (inject: no sockets, no load
     * generator in the measure), one request per payload (a GET ignores its payload).
     */
    cpuPerRequest: async (method: 'GET' | 'POST', url: string, key: string, payloads: string[]) => {
      const before = process.cpuUsage();
      for (const payload of payloads) {
        const response = await server.app.inject({
          method,
          url,
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          ...(method === 'POST' && { payload }),
        });
        if (response.statusCode >= 300) throw new Error(`${method} ${url}: ${response.statusCode}`);
      }
      const used = process.cpuUsage(before);
      return (used.user + used.system) / 1000 / payloads.length;
    },
    /** The v1 guard (key, plan, both rate-limit windows, scope) alone: milliseconds a call, after a warm-up. */
    timeV1Guard: async (key: string, iterations: number) => {
      const guard = v1Guard(ctx, new RateLimiter());
      const request = {
        headers: { authorization: `Bearer ${key}` },
        method: 'GET',
      } as unknown as FastifyRequest;
      const reply = { header: () => reply } as unknown as FastifyReply;
      for (let i = 0; i < 200; i++) await guard(request, reply);
      const started = performance.now();
      for (let i = 0; i < iterations; i++) await guard(request, reply);
      return (performance.now() - started) / iterations;
    },
    pair: async (accountId: string, options: { name?: string; hubUrl?: string } = {}) => {
      const { pairing_code } = await engine().pair(accountId, options);
      return { pairing_code };
    },
    syncNow: async (accountId: string) => {
      await engine().syncNow(accountId);
    },
    setOnline: async (online: boolean) => server.setOnline(online),
  };
}

export type BenchOperations = ReturnType<typeof operations>;

async function main() {
  // First thing, as server/serve.ts does.
  keepHeapNearLive();
  const options = JSON.parse(process.argv[2]!) as BenchServerOptions;
  const started = performance.now();
  const server = await startServer({
    dataDir: options.dataDir,
    host: '127.0.0.1',
    port: 0,
    clock: options.dataNow ? benchClock(options.dataNow) : clockFromEnvironment(process.env),
    logger: options.logger ?? false,
    key: options.key ?? null,
    // The data_safety case takes its backups when it means to; one at start would disturb every case.
    backups: { schedule: false },
    ...(options.integrityCheckDelayMs !== undefined && {
      integrityCheckDelayMs: options.integrityCheckDelayMs,
    }),
  });
  const ready: ChildMessage = { ready: { url: server.url, startMs: performance.now() - started } };
  serveRequests(operations(server), () => server.close());
  process.send!(ready);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
