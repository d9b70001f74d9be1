// The floor of the start-up case: a bare Fastify process with better-sqlite3, answering one route from
// the data file, as plain JavaScript. `node bench/floor-process.mjs FILE` prints "listening URL".
import SQLite from 'better-sqlite3-multiple-ciphers';
import Fastify from 'fastify';

const db = new SQLite(process.argv[2], { fileMustExist: true });
db.pragma('journal_mode = WAL');
const account = db.prepare('select id, created_at from accounts limit 1');
const app = Fastify({ logger: false });
app.get('/', () => account.get());
await app.listen({ host: '127.0.0.1', port: 0 });
console.log(`listening http://127.0.0.1:${app.server.address().port}`);
const stop = async () => {
  await app.close();
  db.close();
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
