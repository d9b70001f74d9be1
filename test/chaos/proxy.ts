import { connect, createServer, type Socket } from 'node:net';

/**
 * A device's road to the hub: a TCP relay on 127.0.0.1 the campaign can cut (a partition: the
 * device and the hub both run, neither reaches the other) and mend.
 */
export interface Link {
  url: string;
  cut: boolean;
  setCut(cut: boolean): void;
  close(): Promise<void>;
}

export async function startLink(targetPort: number): Promise<Link> {
  const open = new Set<Socket>();
  let cut = false;
  const server = createServer((inbound) => {
    if (cut) {
      inbound.destroy();
      return;
    }
    const outbound = connect(targetPort, '127.0.0.1');
    open.add(inbound);
    open.add(outbound);
    const end = () => {
      inbound.destroy();
      outbound.destroy();
      open.delete(inbound);
      open.delete(outbound);
    };
    inbound.on('error', end).on('close', end);
    outbound.on('error', end).on('close', end);
    inbound.pipe(outbound);
    outbound.pipe(inbound);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    get cut() {
      return cut;
    },
    setCut(value) {
      cut = value;
      if (cut) for (const socket of open) socket.destroy();
    },
    close: () =>
      new Promise((resolve) => {
        for (const socket of open) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
