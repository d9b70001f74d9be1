import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import { cli, serve } from '../reliability/processes';

export interface SkewedMachine {
  url: string;
  /** A portal key of the business on this machine. */
  key: string;
  request(method: string, urlPath: string, body?: unknown): Promise<{ status: number; body: any }>;
  stop(): Promise<void>;
}

/**
 * Another computer of the business, as a real server process whose whole clock is `offsetMs` off
 * (clock-offset.mjs): it joins through `hubUrl` with a pairing code, like `sync join` on a new
 * folder. Its ids carry its own time, as a second machine's would; servers in the test process
 * share one id generator, so they cannot stand for it.
 */
export async function startSkewedMachine(
  hubUrl: string,
  code: string,
  offsetMs: number,
): Promise<SkewedMachine> {
  const dir = mkdtempSync(path.join(tmpdir(), 'shopdesk-skewed-'));
  const env = {
    TEST_CLOCK_OFFSET_MS: String(offsetMs),
    NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import=${path.join(import.meta.dirname, 'clock-offset.mjs')}`,
  };
  const joined = await cli(dir, 'sync', 'join', '--hub', hubUrl, '--code', code, '--json');
  expect(joined.code, joined.stderr).toBe(0);
  const issued = await cli(dir, 'portal-key', '--json');
  expect(issued.code, issued.stderr).toBe(0);
  const key = (JSON.parse(issued.stdout) as { key: string }).key;
  const server = serve(dir, env);
  const url = await server.url;
  return {
    url,
    key,
    async request(method, urlPath, body) {
      const response = await fetch(`${url}${urlPath}`, {
        method,
        headers: {
          authorization: `Bearer ${key}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      return { status: response.status, body: text ? JSON.parse(text) : null };
    },
    async stop() {
      server.child.kill('SIGTERM');
      await server.exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
