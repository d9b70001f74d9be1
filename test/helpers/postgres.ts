import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, inject } from 'vitest';
import { migratePgHub } from '../../server/sync/hub/pg-schema';
import { startCluster } from './postgres-cluster';
import { CLUSTER_FILE } from './postgres-run';

export interface TestPostgres {
  /** postgres://… of a database of its own on the run's cluster. */
  url: string;
  /** Drops the database. */
  stop(): Promise<void>;
}

/** initdb and a first start on a loaded machine can take a while; a test file waits this long. */
const CLUSTER_START_MS = 180_000;

let runCluster: Promise<string> | undefined;

/**
 * A fresh database on the run's one PostgreSQL cluster (test/helpers/postgres-run.ts), for one
 * test file or describe block: files share the server, never each other's tables.
 */
export async function startTestPostgres(): Promise<TestPostgres> {
  runCluster ??= joinOrStartCluster();
  const clusterUrl = await runCluster;
  const name = `test_${randomUUID().replaceAll('-', '')}`;
  await onCluster(clusterUrl, `CREATE DATABASE ${name}`);
  const url = new URL(clusterUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    // FORCE: a pool a failed test left open must not keep the database.
    stop: () => onCluster(clusterUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}

/** startTestPostgres for the enclosing test file or describe block: answers the database's URL. */
export function startPostgresForSuite(): () => string {
  let postgres: TestPostgres | undefined;
  beforeAll(async () => {
    postgres = await startTestPostgres();
  }, CLUSTER_START_MS);
  afterAll(() => postgres?.stop());
  return () => {
    if (!postgres) throw new Error('the PostgreSQL database is there only once beforeAll has run');
    return postgres.url;
  };
}

/**
 * A database for the enclosing test file or describe block, with the hub's tables and one pool on
 * it: what a test of the hub on PostgreSQL needs. Call it where beforeAll may be called.
 */
export function startPgHubPoolForSuite(): () => pg.Pool {
  let postgres: TestPostgres | undefined;
  let pool: pg.Pool | undefined;
  beforeAll(async () => {
    postgres = await startTestPostgres();
    pool = new pg.Pool({ connectionString: postgres.url, max: 4 });
    await migratePgHub(pool);
  }, CLUSTER_START_MS);
  afterAll(async () => {
    await pool?.end();
    await postgres?.stop();
  });
  return () => pool!;
}

async function onCluster(clusterUrl: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: clusterUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/**
 * The first file to get here (an exclusive mkdir decides) starts the cluster and writes its URL;
 * the others wait for the URL, or for the reason it could not start. The cluster outlives the
 * worker that started it: the run's teardown stops it.
 */
async function joinOrStartCluster(): Promise<string> {
  const run = inject('postgresRun');
  if (!run)
    throw new Error('PostgreSQL tests need the global set-up in vitest.config.ts: run them through vitest');
  const urlFile = path.join(run, 'url');
  const failedFile = path.join(run, 'failed');
  if (claim(path.join(run, 'starting'))) {
    try {
      const dir = mkdtempSync(path.join(tmpdir(), 'shopdesk-pg-'));
      writeFileSync(path.join(run, CLUSTER_FILE), dir);
      const url = await startCluster(dir);
      writeFileSync(`${urlFile}.tmp`, url);
      renameSync(`${urlFile}.tmp`, urlFile);
      return url;
    } catch (error) {
      writeFileSync(failedFile, error instanceof Error ? error.message : String(error));
      throw error;
    }
  }
  const deadline = Date.now() + CLUSTER_START_MS;
  for (;;) {
    if (existsSync(urlFile)) return readFileSync(urlFile, 'utf8');
    if (existsSync(failedFile)) {
      throw new Error(`the run's PostgreSQL cluster did not start: ${readFileSync(failedFile, 'utf8')}`);
    }
    if (Date.now() > deadline) throw new Error("timed out waiting for the run's PostgreSQL cluster to start");
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

function claim(lock: string): boolean {
  try {
    mkdirSync(lock);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}
