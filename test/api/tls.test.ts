import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TLSSocket } from 'node:tls';
import { afterEach, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../../server/index';

let server: RunningServer | undefined;
let folders: string[] = [];
afterEach(async () => {
  await server?.close();
  server = undefined;
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
  folders = [];
});

function dataFolder(): string {
  const folder = mkdtempSync(path.join(tmpdir(), 'shopdesk-tls-'));
  folders.push(folder);
  return folder;
}

/** What a paired device does: trust no authority, only the certificate whose fingerprint it pinned. */
function getPinned(url: string, fingerprint: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { rejectUnauthorized: false }, (response) => {
      const presented = (response.socket as TLSSocket).getPeerCertificate().fingerprint256;
      if (presented !== fingerprint) {
        reject(new Error(`certificate ${presented} is not the pinned ${fingerprint}`));
        return;
      }
      let body = '';
      response.on('data', (chunk) => {
        body += chunk;
      });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

const serverOptions = (dataDir: string) => ({ dataDir, port: 0, backups: { schedule: false } });

describe('HTTPS', () => {
  it('serves TLS with a generated certificate whose fingerprint stays the same across restarts', async () => {
    const dataDir = dataFolder();
    server = await startServer({ ...serverOptions(dataDir), tls: 'generate' });
    expect(server.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    expect(server.tlsFingerprint).toMatch(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
    const first = server.tlsFingerprint!;
    expect(await getPinned(`${server.url}/health`, first)).toEqual({ status: 200, body: '{"status":"ok"}' });
    await server.close();

    server = await startServer({ ...serverOptions(dataDir), tls: 'generate' });
    expect(server.tlsFingerprint).toBe(first);
    expect((await getPinned(`${server.url}/health`, first)).status).toBe(200);
  });

  it('serves the certificate the owner provides', async () => {
    const donorDir = dataFolder();
    const donor = await startServer({ ...serverOptions(donorDir), tls: 'generate' });
    const fingerprint = donor.tlsFingerprint!;
    await donor.close();
    const cert = readFileSync(path.join(donorDir, 'tls', 'hub-cert.pem'), 'utf8');
    const key = readFileSync(path.join(donorDir, 'tls', 'hub-key.pem'), 'utf8');
    server = await startServer({ ...serverOptions(dataFolder()), tls: { cert, key } });
    expect(server.tlsFingerprint).toBe(fingerprint);
    expect((await getPinned(`${server.url}/health`, fingerprint)).status).toBe(200);
  });

  it('refuses plain HTTP on an address other machines reach, before binding it', async () => {
    await expect(startServer({ ...serverOptions(dataFolder()), host: '0.0.0.0' })).rejects.toThrow(
      /Refusing plain HTTP on 0\.0\.0\.0/,
    );
  });
});
