import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The webhook endpoint of the campaign: every event id it was sent, however often. */
export interface EventReceiver {
  url: string;
  deliveries: Map<string, number>;
  close(): Promise<void>;
}

export async function startEventReceiver(): Promise<EventReceiver> {
  const deliveries = new Map<string, number>();
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      try {
        const { id } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id?: unknown };
        if (typeof id === 'string') deliveries.set(id, (deliveries.get(id) ?? 0) + 1);
        response.writeHead(200).end('ok');
      } catch {
        response.writeHead(400).end('not an event');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/events`,
    deliveries,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
