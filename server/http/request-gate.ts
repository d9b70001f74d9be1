import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../lib/errors';

/**
 * Lets the server close its database for a moment (a restore) without a request ever meeting a closed
 * database: closing the gate answers new requests 503 with Retry-After and waits until the requests
 * already running have finished, except the one that asked for the closing.
 */
export class RequestGate {
  private closed = false;
  private readonly inFlight = new Set<FastifyRequest>();
  private drained: (() => void) | undefined;
  private exempt: FastifyRequest | undefined;

  register(app: FastifyInstance): void {
    app.addHook('onRequest', async (request, reply) => {
      if (this.closed)
        throw new ApiError(503, 'restoring', 'A backup is being restored; try again in a few seconds.', {
          headers: { 'Retry-After': '5' },
        });
      this.inFlight.add(request);
      reply.raw.once('close', () => {
        this.inFlight.delete(request);
        this.checkDrained();
      });
    });
  }

  /** Resolves once only `except` (the request closing the gate, if any) is still running. */
  close(except?: FastifyRequest): Promise<void> {
    this.closed = true;
    this.exempt = except;
    return new Promise((resolve) => {
      this.drained = resolve;
      this.checkDrained();
    });
  }

  open(): void {
    this.closed = false;
    this.exempt = undefined;
  }

  private checkDrained(): void {
    if (!this.drained) return;
    const others = [...this.inFlight].filter((request) => request !== this.exempt);
    if (others.length > 0) return;
    const resolve = this.drained;
    this.drained = undefined;
    resolve();
  }
}
