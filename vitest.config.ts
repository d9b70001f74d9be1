import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * A worker per core, at least two (vitest's default keeps one core for itself, one worker on this
 * 2-core machine): most files wait on servers, child processes, PostgreSQL or Chromium rather than
 * compute, so two share the machine well. Nothing is shared between files but the PostgreSQL
 * cluster (a database per file) and the ui project's Chromium (contexts per file); ports are 0.
 */
const shared = {
  testTimeout: 30_000,
  hookTimeout: 60_000,
  pool: 'forks',
  maxWorkers: Math.max(2, availableParallelism()),
} as const;

/**
 * A worker runs its files in one process that keeps the modules it loaded, instead of loading the
 * server graph again for every file (~2 s a file, a quarter of the suite's worker time). The id
 * generator, the one module state a test can see, is put back as a new process has it before each
 * file (test/helpers/fresh-file.ts); servers, databases, timers and browser connections are closed
 * by the files that open them. No test reloads modules (`vi.resetModules`): a second copy of the
 * shared schemas would take their ids in zod's registry, which is per process, from the first.
 */
const sharedWorkers: { isolate: false; setupFiles: string[] } = {
  isolate: false,
  setupFiles: ['test/helpers/fresh-file.ts'],
};

/**
 * Four projects, each a set of folders so a new test file joins one by where it lives; one runs
 * alone with `npx vitest run --project <name>` (README, "Tests"). The projects do not extend the
 * root: its global set-up must run once per run, not once per project.
 */
export default defineConfig({
  test: {
    ...shared,
    // One PostgreSQL cluster for the whole run, started by the first test that needs it; the
    // bundles of the processes tests start (test/helpers/process-bundles.ts), built when stale.
    globalSetup: ['test/helpers/postgres-run.ts', 'test/helpers/process-bundles.ts'],
    projects: [
      {
        test: {
          ...shared,
          name: 'unit',
          ...sharedWorkers,
          include: [
            'server/**/*.test.ts',
            'shared/**/*.test.ts',
            'electron/**/*.test.ts',
            'renderer/**/*.test.ts',
            'test/renderer/**/*.test.ts',
          ],
        },
      },
      {
        test: {
          ...shared,
          ...sharedWorkers,
          name: 'api',
          // Everything under test/ that is not sync, UI or renderer: the API, outbound, reliability, CLI.
          include: ['test/**/*.test.ts'],
          exclude: ['test/sync/**', 'test/ui/**', 'test/renderer/**'],
        },
      },
      {
        test: { ...shared, ...sharedWorkers, name: 'sync', include: ['test/sync/**/*.test.ts'] },
      },
      {
        test: {
          ...shared,
          ...sharedWorkers,
          name: 'ui',
          include: ['test/ui/**/*.test.ts'],
          // A browser flow walks through many screens; on a loaded machine that takes its time.
          testTimeout: 90_000,
          hookTimeout: 120_000,
          globalSetup: ['test/ui/build-renderer.ts', 'test/ui/chromium-server.ts'],
        },
      },
    ],
  },
});
