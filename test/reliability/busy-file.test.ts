import path from 'node:path';
import Database from 'better-sqlite3-multiple-ciphers';
import { describe, expect, it } from 'vitest';
import { expectStatus } from '../helpers/api-responses';
import { startTestServer, type TestAccount, type TestServer } from '../helpers/server';
import { cli } from './processes';

/** Creates clients through v1 until `until` settles; returns every status code answered. */
async function writeLoad(shop: TestAccount, until: Promise<unknown>): Promise<number[]> {
  const statuses: number[] = [];
  let done = false;
  void until.finally(() => {
    done = true;
  });
  let n = 0;
  const writer = async () => {
    while (!done) {
      n += 1;
      const created = await shop.v1('POST', '/clients', {
        body: { name: `Load ${n}`, email: `load-${n}-${Math.random()}@example.com` },
      });
      statuses.push(created.status);
    }
  };
  await Promise.all([writer(), writer(), writer()]);
  return statuses;
}

/**
 * Rounds of the four CLI commands each of two loops runs during the write load: one by default,
 * to keep `npm test` quick (each command is a process start, seconds on a loaded machine); CI
 * (.ci/run) sets BUSY_CLI_ROUNDS=2.
 */
const CLI_ROUNDS = Number(process.env.BUSY_CLI_ROUNDS ?? 1);

describe('another process writing to the data file', () => {
  it('waits for its write lock without stopping the server, then writes', async () => {
    const server: TestServer = await startTestServer();
    try {
      const shop = await server.createAccount();
      // A second connection, as the CLI or a backup would hold one, keeps the write lock for a while.
      const other = new Database(path.join(server.dataDir, 'shopdesk.sqlite'));
      other.exec('BEGIN IMMEDIATE');
      const order: string[] = [];
      const write = shop
        .v1('POST', '/clients', { body: { name: 'Ada', email: 'ada@example.com' } })
        .then((response) => {
          order.push('write');
          return response;
        });
      // Answered while the write waits: the wait does not hold the event loop.
      await new Promise((resolve) => setTimeout(resolve, 200));
      const health = await server.request('GET', '/health');
      order.push('health');
      expectStatus(health, 200);
      other.exec('COMMIT');
      other.close();
      expect((await write).status).toBe(201);
      expect(order).toEqual(['health', 'write']);
    } finally {
      await server.stop();
    }
  });

  it('CLI commands in a loop during a write load: no 5xx, every command succeeds', async () => {
    const server = await startTestServer();
    try {
      const shop = await server.createAccount();
      const commands = [
        ['plan', '--api-plan', 'growth'],
        ['keys', 'create', '--scopes', 'read'],
        ['sign-in'],
        ['portal-key'],
      ];
      const cliLoop = async () => {
        const codes: number[] = [];
        for (let round = 0; round < CLI_ROUNDS; round++) {
          for (const command of commands) {
            const outcome = await cli(server.dataDir, ...command, '--client-id', shop.clientId);
            if (outcome.code !== 0) throw new Error(`${command.join(' ')}: ${outcome.stderr}`);
            codes.push(outcome.code);
          }
        }
        return codes;
      };
      const loops = Promise.all([cliLoop(), cliLoop()]);
      const statuses = await writeLoad(shop, loops);
      expect((await loops).flat()).toHaveLength(2 * CLI_ROUNDS * commands.length);
      expect(statuses.length).toBeGreaterThan(0);
      expect(statuses.filter((status) => status >= 500)).toEqual([]);
    } finally {
      await server.stop();
    }
    // Up to sixteen CLI processes, each waiting for the write lock: minutes on a loaded two-core machine.
  }, 300_000);
});
