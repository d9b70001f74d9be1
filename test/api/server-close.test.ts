import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { startTestServer } from '../helpers/server';

// Connections idle for ten minutes before the server ends them itself: within a test's time only
// the close can have ended them.
const LONG_IDLE = { idleMs: 600_000 };

async function connect(port: number): Promise<{ socket: net.Socket; received: Promise<string> }> {
  const socket = net.connect(port, '127.0.0.1');
  await new Promise((resolve) => socket.once('connect', resolve));
  const chunks: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  const received = new Promise<string>((resolve) =>
    socket.once('close', () => resolve(Buffer.concat(chunks).toString('utf8'))),
  );
  return { socket, received };
}

describe('closing the server', () => {
  it('ends a connection a client opened and sent nothing on', async () => {
    const server = await startTestServer({ timeouts: LONG_IDLE });
    const { received } = await connect(server.port);
    await server.stop();
    expect(await received).toBe('');
  });

  it('answers a request in flight when the close begins, then ends its connection', async () => {
    const server = await startTestServer({ timeouts: LONG_IDLE });
    const shop = await server.createAccount();
    const { socket, received } = await connect(server.port);
    const body = JSON.stringify({ name: 'Late Customer', phone: '1' });
    const arrived = new Promise((resolve) => server.app.server.once('request', resolve));
    socket.write(
      `POST /api/portal/${shop.clientId}/customers HTTP/1.1\r\nHost: 127.0.0.1\r\n` +
        `Authorization: Bearer ${shop.portalKey}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, 10)}`,
    );
    await arrived;
    const stopped = server.stop();
    socket.write(body.slice(10));
    const response = await received;
    await stopped;
    expect(response).toMatch(/^HTTP\/1\.1 201 /);
    expect(response).toContain('"name":"Late Customer"');
  });
});
