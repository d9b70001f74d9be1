import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import { BODY_LIMIT_BYTES } from '../server/http/app';
import { registerJsonBodies, ZOD_SCHEMAS } from '../server/http/bodies';
import { registerErrorHandling } from '../server/http/errors';
import { systemClock } from '../server/lib/clock';
import { hubApiRoutes } from '../server/sync/hub/routes';
import { Hub } from '../server/sync/hub/service';
import { sqliteHubStorage } from '../server/sync/hub/sqlite-storage';
import { openDatabase } from '../server/sync/open';

/**
 * The embedded hub's storage (the install's SQLite) behind the sync API, alone in a process of its
 * own: the hub bench's SQLite target, so it is measured under the same conditions as `npm run hub`
 * on PostgreSQL. A real embedded hub also applies what arrives to its own tables (bench/cases/sync.ts
 * measures that). Usage: tsx bench/sqlite-hub.ts <data folder>; prints {"msg":"hosted hub ready","url"}.
 */
const dataDir = process.argv[2];
if (!dataDir) throw new Error('usage: tsx bench/sqlite-hub.ts <data folder>');
const database = await openDatabase(dataDir);
const hub = new Hub(sqliteHubStorage(database.db, database.sqlite), systemClock);
const app = Fastify({ bodyLimit: BODY_LIMIT_BYTES, schemaController: ZOD_SCHEMAS });
registerErrorHandling(app);
registerJsonBodies(app);
await app.register(
  hubApiRoutes(systemClock, () => hub),
  { prefix: '/api/sync/v1' },
);
await app.listen({ host: '127.0.0.1', port: 0 });
const { port } = app.server.address() as AddressInfo;
console.log(JSON.stringify({ msg: 'hosted hub ready', url: `http://127.0.0.1:${port}` }));
process.on('SIGTERM', () => {
  hub.shutdown();
  void app.close().then(() => database.close().then(() => process.exit(0)));
});
