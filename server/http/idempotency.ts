import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../context';
import type { Db } from '../db/database';
import { isoNow, toIso } from '../lib/clock';
import { ApiError, validationError } from '../lib/errors';

export const REPLAY_WINDOW_MS = 24 * 60 * 60 * 1000;

declare module 'fastify' {
  interface FastifyRequest {
    idempotency?: { scope: string; key: string };
  }
  interface FastifyContextConfig {
    /**
     * The response field holding a secret shown once (a new key, a signing secret). It is never
     * stored: a repeat of the request gets 409 with the rest of the stored response instead.
     */
    secretField?: string;
  }
}

function fingerprint(request: FastifyRequest): string {
  return createHash('sha256')
    .update(`${request.method} ${request.url}\n${JSON.stringify(request.body ?? null)}`)
    .digest('hex');
}

const claimId = (scope: string, key: string) => `${scope}\n${key}`;

function withoutSecret(payload: string, field: string | undefined): string {
  if (!field) return payload;
  const { [field]: _secret, ...rest } = JSON.parse(payload) as Record<string, unknown>;
  return JSON.stringify(rest);
}

/**
 * A claim still without a response at start-up belongs to a request the last run never finished
 * (a crash, a kill): nothing will ever complete it, so it is released and the client's retry runs.
 */
export async function releaseUnfinishedClaims(db: Db): Promise<void> {
  await db.deleteFrom('idempotency_keys').where('status_code', 'is', null).execute();
}

/**
 * Idempotency-Key on POST (contract part 3): the first request's response is stored; a repeat
 * within 24 h gets it back with Idempotent-Replayed: true; the same key with another request is
 * 409. A 5xx is not stored, so the client's retry runs again.
 */
export function registerIdempotency(
  app: FastifyInstance,
  ctx: AppContext,
  scopeOf: (request: FastifyRequest) => string,
) {
  /**
   * Claims of failed requests whose release failed too (a full disk refuses the delete as it
   * refused the write): the next request with the key takes the claim over, as a restart would.
   */
  const unreleased = new Set<string>();
  app.addHook('preHandler', async (request, reply) => {
    if (request.method !== 'POST') return;
    const key = request.headers['idempotency-key'];
    if (key === undefined) return;
    if (typeof key !== 'string' || key.length === 0 || key.length > 255) {
      throw validationError('Idempotency-Key must be 1 to 255 characters', 'Idempotency-Key');
    }
    const scope = scopeOf(request);
    const print = fingerprint(request);
    const oldest = toIso(new Date(ctx.clock.now().getTime() - REPLAY_WINDOW_MS));
    await ctx.db
      .deleteFrom('idempotency_keys')
      .where('scope', '=', scope)
      .where('key', '=', key)
      .where('created_at', '<', oldest)
      .execute();
    const inserted = await ctx.db
      .insertInto('idempotency_keys')
      .values({
        scope,
        key,
        fingerprint: print,
        status_code: null,
        response: null,
        created_at: isoNow(ctx.clock),
      })
      .onConflict((oc) => oc.doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1) {
      request.idempotency = { scope, key };
      return;
    }
    if (unreleased.has(claimId(scope, key))) {
      await ctx.db
        .updateTable('idempotency_keys')
        .set({ fingerprint: print, created_at: isoNow(ctx.clock) })
        .where('scope', '=', scope)
        .where('key', '=', key)
        .where('status_code', 'is', null)
        .execute();
      unreleased.delete(claimId(scope, key));
      request.idempotency = { scope, key };
      return;
    }
    const stored = await ctx.db
      .selectFrom('idempotency_keys')
      .selectAll()
      .where('scope', '=', scope)
      .where('key', '=', key)
      .executeTakeFirstOrThrow();
    if (stored.fingerprint !== print) {
      throw new ApiError(
        409,
        'idempotency_key_reused',
        'This Idempotency-Key was used with a different request.',
        {
          type: 'idempotency_error',
          param: 'Idempotency-Key',
        },
      );
    }
    if (stored.status_code === null) {
      throw new ApiError(
        409,
        'idempotency_key_in_use',
        'A request with this Idempotency-Key is still being processed.',
        {
          type: 'idempotency_error',
          param: 'Idempotency-Key',
        },
      );
    }
    const secretField = request.routeOptions.config.secretField;
    if (secretField && stored.status_code < 400) {
      throw new ApiError(
        409,
        'idempotency_secret_not_replayable',
        `The request with this Idempotency-Key already succeeded, and its ${secretField} was shown only in that response. Rotate it to get a new one.`,
        {
          type: 'idempotency_error',
          param: 'Idempotency-Key',
          details: stored.response === null ? undefined : JSON.parse(stored.response),
        },
      );
    }
    return reply
      .status(stored.status_code)
      .header('Idempotent-Replayed', 'true')
      .type('application/json; charset=utf-8')
      .send(stored.response);
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const held = request.idempotency;
    if (!held) return payload;
    request.idempotency = undefined;
    const failed = reply.statusCode >= 500 || typeof payload !== 'string';
    try {
      if (failed) {
        await ctx.db
          .deleteFrom('idempotency_keys')
          .where('scope', '=', held.scope)
          .where('key', '=', held.key)
          .execute();
      } else {
        await ctx.db
          .updateTable('idempotency_keys')
          .set({
            status_code: reply.statusCode,
            response: withoutSecret(payload, request.routeOptions.config.secretField),
          })
          .where('scope', '=', held.scope)
          .where('key', '=', held.key)
          .execute();
      }
    } catch (error) {
      // Thrown from here, the error would reach Fastify's default handler (a handler's error has
      // already been through ours), whose body has no error.code. The response stands as decided;
      // a success whose record is lost keeps its claim, so a retry is refused and never runs twice.
      request.log.error({ err: error, route: request.routeOptions.url }, 'idempotency record not saved');
      if (failed) unreleased.add(claimId(held.scope, held.key));
    }
    return payload;
  });
}
