import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { rotatingFile } from './rotating-file';

let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('rotatingFile', () => {
  it('moves the file aside past its bound and keeps only the newest ones', () => {
    dir = mkdtempSync(path.join(tmpdir(), 'shopdesk-log-'));
    const file = path.join(dir, 'logs', 'server.log');
    const log = rotatingFile(file, { maxBytes: 100, keep: 2 });
    for (let i = 0; i < 20; i++) log.write(`line ${String(i).padStart(2, '0')} ${'x'.repeat(30)}\n`);
    expect(readFileSync(file, 'utf8')).toContain('line 19');
    expect(readFileSync(`${file}.1`, 'utf8')).toContain('line 17');
    expect(existsSync(`${file}.2`)).toBe(true);
    expect(existsSync(`${file}.3`)).toBe(false);
    for (const name of [file, `${file}.1`, `${file}.2`]) {
      expect(readFileSync(name).length).toBeLessThanOrEqual(100);
    }
  });

  it('carries on from an existing file after a restart', () => {
    dir = mkdtempSync(path.join(tmpdir(), 'shopdesk-log-'));
    const file = path.join(dir, 'shopdesk.log');
    rotatingFile(file, { maxBytes: 60 }).write(`${'a'.repeat(50)}\n`);
    rotatingFile(file, { maxBytes: 60 }).write(`${'b'.repeat(50)}\n`);
    expect(readFileSync(file, 'utf8')).toBe(`${'b'.repeat(50)}\n`);
    expect(readFileSync(`${file}.1`, 'utf8')).toBe(`${'a'.repeat(50)}\n`);
  });
});
