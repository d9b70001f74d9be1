import net from 'node:net';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobberExport } from '../helpers/client-files';
import { startTestServer, type TestServer } from '../helpers/server';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ timeouts: { requestMs: 300 } });
});
afterAll(() => server.stop());

/** Sends `chunks` one every 100 ms: the request takes longer to arrive than requestMs whatever the machine's speed. */
async function* slowly(chunks: string[]) {
  for (const chunk of chunks) {
    yield new TextEncoder().encode(chunk);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('the whole-request deadline', () => {
  it('cuts an ordinary request whose body takes longer than requestMs to arrive (408)', async () => {
    const shop = await server.createAccount();
    const url = new URL(server.url);
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(Number(url.port), url.hostname);
      let text = '';
      let sent = 0;
      socket.on('data', (chunk) => {
        text += chunk;
      });
      socket.on('close', () => resolve(text));
      socket.on('error', reject);
      socket.write(
        `POST /api/portal/${shop.clientId}/customers HTTP/1.1\r\nHost: ${url.host}\r\nAuthorization: Bearer ${shop.portalKey}\r\nContent-Type: application/json\r\nContent-Length: 40\r\n\r\n`,
      );
      const drip = setInterval(() => {
        if (socket.destroyed || sent >= 39) return clearInterval(drip);
        socket.write(' ');
        sent += 1;
      }, 100);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('lets a CSV upload take longer than that, its body still arriving', async () => {
    const shop = await server.createAccount();
    const cookie = await shop.signIn();
    const lines = jobberExport(20).csv.split(/(?<=\r?\n)/);
    const response = await fetch(`${server.url}/api/portal/${shop.clientId}/customer-imports`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'text/csv' },
      body: Readable.toWeb(Readable.from(slowly(lines))),
      duplex: 'half',
    } as RequestInit);
    expect(response.status).toBe(201);
    expect(await response.json()).toMatchObject({ preset: 'jobber', status: 'uploaded' });
  });
});
