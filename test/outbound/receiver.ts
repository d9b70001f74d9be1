import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

export type Handler = (request: Received, response: ServerResponse) => void;

export interface Receiver {
  url: string;
  received: Received[];
  /** Requests whose answer has not been sent yet. */
  open: number;
  maxOpen: number;
  handle(handler: Handler): void;
  close(): Promise<void>;
}

export const answer =
  (status: number, body = '') =>
  (_request: Received, response: ServerResponse) => {
    response.writeHead(status, { 'content-type': 'text/plain' }).end(body);
  };

/** A webhook receiver on 127.0.0.1, port 0, recording every request; its answer is swappable. */
export async function startReceiver(handler: Handler = answer(200, 'ok')): Promise<Receiver> {
  let current = handler;
  const state = { open: 0, maxOpen: 0 };
  const received: Received[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const entry = { headers: request.headers, body: Buffer.concat(chunks).toString('utf8') };
      received.push(entry);
      state.open++;
      state.maxOpen = Math.max(state.maxOpen, state.open);
      response.on('close', () => state.open--);
      current(entry, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    get open() {
      return state.open;
    },
    get maxOpen() {
      return state.maxOpen;
    },
    handle: (next) => {
      current = next;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * An independent check of a delivery's signature, written from the contract alone: HMAC-SHA256 of
 * "<timestamp>.<raw body>" in hex, any of the comma-separated v1= entries may match.
 */
export function signatureMatches(received: Received, secret: string): boolean {
  const timestamp = String(received.headers['x-service-timestamp']);
  const expected = createHmac('sha256', secret).update(`${timestamp}.${received.body}`).digest();
  return String(received.headers['x-service-signature'])
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part.startsWith('v1='))
    .some((part) => {
      const given = Buffer.from(part.slice(3), 'hex');
      return given.length === expected.length && timingSafeEqual(given, expected);
    });
}

/** Waits for a condition that a background worker makes true; fails the test with a message if it never does. */
export async function eventually(
  condition: () => boolean | Promise<boolean>,
  what: string,
  withinMs = 5000,
): Promise<void> {
  for (let waited = 0; waited < withinMs; waited += 25) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`Timed out waiting for ${what}`);
}
