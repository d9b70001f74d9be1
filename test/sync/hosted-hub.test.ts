import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { createKey } from '../../server/domain/api-keys';
import { type HostedHub, startHostedHub } from '../../server/sync/hub/hosted';
import { migratePgHub } from '../../server/sync/hub/pg-schema';
import { pgHubStorage } from '../../server/sync/hub/pg-storage';
import { expectStatus } from '../helpers/api-responses';
import { startPostgresForSuite } from '../helpers/postgres';
import { bundledArgs } from '../helpers/process-bundles';
import { startTestServer, type TestServer } from '../helpers/server';

const databaseUrl = startPostgresForSuite();
const pools: pg.Pool[] = [];
const stops: Array<() => Promise<unknown>> = [];

function pool(): pg.Pool {
  const created = new pg.Pool({ connectionString: databaseUrl(), max: 4 });
  pools.push(created);
  return created;
}

afterAll(async () => {
  for (const stop of stops.splice(0).reverse()) await stop();
  await Promise.all(pools.splice(0).map((p) => p.end()));
});

async function customerCount(server: TestServer, accountId: string): Promise<number> {
  const rows = await server.ctx.db
    .selectFrom('customers')
    .select('id')
    .where('account_id', '=', accountId)
    .execute();
  return rows.length;
}

describe('a hosted hub on PostgreSQL', () => {
  it('serves a business paired by its install to a device that joins through the hosted hub', async () => {
    const officePool = pool();
    await migratePgHub(officePool);
    const office = await startTestServer({ hubStorage: pgHubStorage(officePool) });
    stops.push(() => office.stop());
    const account = await office.createAccount({ business: 'Sparkle' });
    for (let i = 0; i < 3; i++) {
      await account.portal('POST', '/customers', {
        body: { name: `Customer ${i}`, email: `c${i}@example.com` },
      });
    }
    // The first pairing makes the office install the business's hub: its business goes into PostgreSQL.
    expect((await account.portal('POST', '/sync/pair')).status).toBe(200);

    const hosted: HostedHub = await startHostedHub({ pool: pool(), port: 0 });
    stops.push(() => hosted.close());
    expect((await fetch(`${hosted.url}/health`)).status).toBe(200);
    const pairing = await hosted.hub.createPairing(account.clientId, hosted.url, 'Van');

    const van = await startTestServer();
    stops.push(() => van.stop());
    await van.ctx.sync!.join({ url: hosted.url }, pairing.pairing_code, 'Van');
    expect(await customerCount(van, account.clientId)).toBe(3);

    const { key } = await createKey(van.ctx, account.clientId, { kind: 'portal' });
    const made = await van.request('POST', `/api/portal/${account.clientId}/customers`, {
      key,
      body: { name: 'From the van', email: 'van@example.com' },
    });
    expectStatus(made, 201);
    await van.ctx.sync!.syncNow(account.clientId);
    await office.ctx.sync!.syncNow(account.clientId);
    expect(await customerCount(office, account.clientId)).toBe(4);
  });

  it('runs as `npm run hub`: migrates, logs JSON, answers health and stops on SIGTERM', async () => {
    const child: ChildProcess = spawn(
      process.execPath,
      bundledArgs('hub', '--database-url', databaseUrl(), '--port', '0'),
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    stops.push(async () => {
      child.kill('SIGKILL');
      await exited;
    });
    const lines = createInterface({ input: child.stdout! });
    let url: string | undefined;
    for await (const line of lines) {
      const entry = JSON.parse(line) as { msg: string; url?: string; level: number };
      if (entry.msg === 'hosted hub ready') {
        url = entry.url;
        break;
      }
    }
    expect((await fetch(`${url}/health`)).status).toBe(200);
    const unauthorised = await fetch(`${url}/api/sync/v1/pull?cursor=0`);
    expectStatus(unauthorised, 401);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  }, 60_000);

  it('health without its database: 503 in the error shape, with a code', async () => {
    const lost = pool();
    const hosted = await startHostedHub({ pool: lost, port: 0 });
    stops.push(() => hosted.close());
    expect((await fetch(`${hosted.url}/health`)).status).toBe(200);
    await lost.end();
    pools.splice(pools.indexOf(lost), 1);
    const down = await fetch(`${hosted.url}/health`);
    expectStatus(down, 503);
    expect((await down.json()).error).toMatchObject({
      type: 'api_error',
      code: 'database_unreachable',
      request_id: expect.any(String),
    });
  });

  it('`npm run hub -- --pair` prints a code that works and exits 0', async () => {
    const officePool = pool();
    await migratePgHub(officePool);
    const office = await startTestServer({ hubStorage: pgHubStorage(officePool) });
    stops.push(() => office.stop());
    const account = await office.createAccount({ business: 'Pairing from the shell' });
    expect((await account.portal('POST', '/sync/pair')).status).toBe(200);

    const child = spawn(
      process.execPath,
      bundledArgs(
        'hub',
        '--database-url',
        databaseUrl(),
        '--pair',
        account.clientId,
        '--url',
        'https://hub.example.com',
        '--name',
        'Van',
      ),
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    // Generous for a loaded machine; a process that keeps a connection open never exits at all.
    const timeout = setTimeout(() => child.kill('SIGKILL'), 100_000);
    const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
      child.once('exit', (exitCode, exitSignal) => resolve([exitCode, exitSignal])),
    );
    clearTimeout(timeout);
    expect({ code, signal, stderr }).toEqual({ code: 0, signal: null, stderr: '' });
    const printed = /Pairing code: (\S+)/.exec(stdout)?.[1];
    expect(printed).toBeDefined();
    expect(stdout).toContain('Pairing link: ');

    const hosted = await startHostedHub({ pool: pool(), port: 0 });
    stops.push(() => hosted.close());
    const van = await startTestServer();
    stops.push(() => van.stop());
    await van.ctx.sync!.join({ url: hosted.url }, printed!, 'Van');
    expect(await customerCount(van, account.clientId)).toBe(0);
    expect((await van.ctx.db.selectFrom('accounts').select('id').execute()).map((a) => a.id)).toContain(
      account.clientId,
    );
  }, 150_000);
});
