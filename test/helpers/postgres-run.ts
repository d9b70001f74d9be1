import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { stopCluster, stopClusterSync } from './postgres-cluster';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The run's folder where the first test file that needs PostgreSQL records its cluster. */
    postgresRun: string;
  }
}

/** Where, inside the run's folder, the cluster's own folder is written once it is chosen. */
export const CLUSTER_FILE = 'cluster';

/**
 * Vitest global set-up: one PostgreSQL cluster per run. Nothing starts here, so a run without a
 * PostgreSQL test never starts one; the first test file that needs it starts it
 * (test/helpers/postgres.ts) and the others share it. The teardown stops it whether tests passed
 * or not, and an exit handler stops it should the run end without its teardown.
 */
export default function setup(project: TestProject) {
  const run = mkdtempSync(path.join(tmpdir(), 'shopdesk-pg-run-'));
  project.provide('postgresRun', run);
  const cluster = () => {
    try {
      return readFileSync(path.join(run, CLUSTER_FILE), 'utf8');
    } catch {
      return undefined;
    }
  };
  const onExit = () => {
    const dir = cluster();
    if (dir) stopClusterSync(dir);
    rmSync(run, { recursive: true, force: true });
  };
  process.once('exit', onExit);
  return async () => {
    process.off('exit', onExit);
    const dir = cluster();
    if (dir) await stopCluster(dir);
    rmSync(run, { recursive: true, force: true });
  };
}
