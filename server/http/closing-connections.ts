import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

/**
 * Lets a closing server end every connection as soon as it carries no request. Node's close() ends
 * only the connections idle between two requests at that moment: one a client opened and has sent
 * nothing on yet (a sync client's connection pool does that), or one whose request finishes after
 * the close began, would hold the close until the idle timeout (30 s). Requests in flight still finish.
 */
export function registerClosingConnections(app: FastifyInstance, secure: boolean): void {
  const inFlight = new Map<Socket, number>();
  let closing = false;
  app.server.on(secure ? 'secureConnection' : 'connection', (socket: Socket) => {
    if (closing) {
      socket.destroy();
      return;
    }
    inFlight.set(socket, 0);
    socket.once('close', () => inFlight.delete(socket));
  });
  app.server.on('request', (request, response) => {
    const socket = request.socket;
    inFlight.set(socket, (inFlight.get(socket) ?? 0) + 1);
    response.once('close', () => {
      const left = (inFlight.get(socket) ?? 1) - 1;
      inFlight.set(socket, left);
      if (closing && left === 0) socket.destroy();
    });
  });
  app.addHook('preClose', async () => {
    closing = true;
    for (const [socket, count] of inFlight) if (count === 0) socket.destroy();
  });
}
