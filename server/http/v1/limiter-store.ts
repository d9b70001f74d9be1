import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';
import { RateLimiter } from '../rate-limiter';
import { V1_BUCKET_PREFIX } from './limits';

export const FLUSH_INTERVAL_MS = 1000;

/**
 * The v1 limiter, with its counters read back from the database at start and written out every
 * second and on close, so restarting the server inside a window does not hand out a fresh quota.
 */
export async function persistentV1Limiter(app: FastifyInstance, ctx: AppContext): Promise<RateLimiter> {
  const limiter = new RateLimiter();
  await limiter.restore(ctx.db, V1_BUCKET_PREFIX);
  // Flushes run one after another, so the last one on close cannot be overtaken by an older one.
  let flushing: Promise<void> = Promise.resolve();
  const flush = () => {
    flushing = flushing
      .then(() => limiter.flush(ctx.db))
      .catch((error: unknown) => app.log.error({ err: error }, 'saving v1 rate-limit counters failed'));
    return flushing;
  };
  const timer = setInterval(flush, FLUSH_INTERVAL_MS);
  timer.unref();
  app.addHook('onClose', async () => {
    clearInterval(timer);
    await flush();
  });
  return limiter;
}
