import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { StorageHealth } from '../db/integrity';
import { registerErrorHandling } from './errors';

const sqliteError = (code: string, message: string) => Object.assign(new Error(message), { code });

async function appFailingWith(error: Error) {
  const health = new StorageHealth('/data/shop');
  const app = Fastify();
  registerErrorHandling(app, health);
  app.get('/fails', async () => {
    throw error;
  });
  app.get('/fine', async () => ({ ok: true }));
  await app.ready();
  return { app, health };
}

describe('storage failures met by a request', () => {
  it('a damaged page: 503 naming the file and the backups, and every later request refused', async () => {
    const { app } = await appFailingWith(sqliteError('SQLITE_CORRUPT', 'database disk image is malformed'));
    const first = await app.inject({ method: 'GET', url: '/fails' });
    expect(first.statusCode).toBe(503);
    expect(first.json().error).toMatchObject({ type: 'api_error', code: 'database_damaged' });
    expect(first.json().error.message).toContain('/data/shop/shopdesk.sqlite is damaged');
    expect(first.json().error.message).toContain('/data/shop/backups');
    const later = await app.inject({ method: 'GET', url: '/fine' });
    expect(later.statusCode).toBe(503);
    expect(later.json().error.code).toBe('database_damaged');
  });

  it('a lock another process kept: 503 database_busy with Retry-After', async () => {
    const { app } = await appFailingWith(sqliteError('SQLITE_BUSY', 'database is locked'));
    const response = await app.inject({ method: 'GET', url: '/fails' });
    expect(response.statusCode).toBe(503);
    expect(response.headers['retry-after']).toBe('1');
    expect(response.json().error.code).toBe('database_busy');
    expect((await app.inject({ method: 'GET', url: '/fine' })).statusCode).toBe(200);
  });

  it('no space left on the device: 507 insufficient_storage', async () => {
    const { app } = await appFailingWith(sqliteError('ENOSPC', 'no space left on device'));
    const response = await app.inject({ method: 'GET', url: '/fails' });
    expect(response.statusCode).toBe(507);
    expect(response.json().error.code).toBe('insufficient_storage');
  });
});
