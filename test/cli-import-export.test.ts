import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { jobberExport } from './helpers/client-files';
import { bundledArgs } from './helpers/process-bundles';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '..');
const dataDir = mkdtempSync(path.join(tmpdir(), 'shopdesk-cli-import-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

async function cli(...args: string[]) {
  return run(process.execPath, bundledArgs('cli', ...args, '--data-dir', dataDir), {
    cwd: root,
  });
}

// Each step starts the CLI as a process: slow on a busy machine.
describe('CLI import and export', { timeout: 300_000 }, () => {
  it('dry-runs, imports and undoes a client export, and writes the accountant files', async () => {
    await cli('init', '--business', 'Pipe Pros', '--json');
    const file = path.join(dataDir, 'jobber-clients.csv');
    writeFileSync(file, jobberExport(50, 2).csv);

    const dry = await cli('import', 'customers', file, '--dry-run');
    expect(dry.stdout).toContain('Recognised a jobber export.');
    expect(dry.stdout).toContain(
      '50 rows: 48 customers would be added, 0 updated, 0 skipped (on match: skip), 2 rejected.',
    );
    expect(dry.stdout).toMatch(/row 26: has no name/);

    const imported = JSON.parse((await cli('import', 'customers', file, '--json')).stdout);
    expect(imported).toMatchObject({
      status: 'imported',
      preset: 'jobber',
      result: { added: 48, rejected: 2 },
    });
    const again = JSON.parse((await cli('import', 'customers', file, '--dry-run', '--json')).stdout);
    expect(again.dry_run).toMatchObject({ added: 0, skipped: 48, rejected: 2 });

    const undone = JSON.parse((await cli('import', 'undo', imported.id, '--json')).stdout);
    expect(undone.status).toBe('undone');

    const xero = await cli(
      'export',
      'accounting',
      '--from',
      '2026-07-01',
      '--to',
      '2026-09-30',
      '--format',
      'xero',
    );
    expect(xero.stdout.split('\r\n')[0]).toMatch(/^\*ContactName,EmailAddress,/);
    const bad = await cli(
      'export',
      'accounting',
      '--from',
      '2026-07-01',
      '--to',
      '2026-09-30',
      '--format',
      'sage',
    ).catch((error: { code: number; stderr: string }) => error);
    expect(bad).toMatchObject({ code: 2 });
    expect((bad as { stderr: string }).stderr).toMatch(/--format/);
  });
});
