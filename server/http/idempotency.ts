import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context';
import type { Db, Tx } from '../db/database';
import { runWithWriteHook } from '../db/write-hooks';
import { isoNow, toIso } from '../lib/clock';
import { ApiError, validationError } from '../lib/errors';
import { crashAfterCommit } from '../lib/faults';
import { REPLAY_WINDOW_MS } from '../maintenance/retention';

/** An Idempotency-Key this request holds the claim of. */
interface HeldKey {
  scope: string;
  key: string;
  answered: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The claimed key; `answered` once the first write's transaction stored its answer. */
    idempotency?: HeldKey;
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
 * (a crash, a kill) before any write of it committed (a write stores its answer in its own
 * transaction): nothing will ever complete it, so it is released and the client's retry runs.
 */
export async function releaseUnfinishedClaims(db: Db): Promise<void> {
  await db.deleteFrom('idempotency_keys').where('status_code', 'is', null).execute();
}

/** The route's success status: the 2xx its response schema declares (201 for a create). */
function successStatus(request: FastifyRequest): number {
  const declared = Object.keys(request.routeOptions.schema?.response ?? {})
    .map(Number)
    .filter((code) => code >= 200 && code < 300);
  return declared.length ? Math.min(...declared) : 200;
}

/**
 * The answer a write's transaction stores for its request: what the transaction returns, as the
 * route sends it (routes answer with what their domain call's transaction returns). Null when the
 * route's schema cannot serialise it; the answer is then stored when it is sent, as before.
 */
function answerOf(request: FastifyRequest, reply: FastifyReply, result: unknown) {
  if (typeof result !== 'object' || result === null) return null;
  const status = successStatus(request);
  try {
    const body = reply.serializeInput(result as Record<string, unknown>, String(status));
    if (typeof body !== 'string') return null;
    return { status, body: withoutSecret(body, request.routeOptions.config.secretField) };
  } catch {
    return null;
  }
}

async function storeAnswer(
  db: Db | Tx,
  held: { scope: string; key: string },
  status: number,
  response: string,
): Promise<void> {
  await db
    .updateTable('idempotency_keys')
    .set({ status_code: status, response })
    .where('scope', '=', held.scope)
    .where('key', '=', held.key)
    .execute();
}

/**
 * Idempotency-Key on POST (contract part 3): the first request's response is stored; a repeat
 * within 24 h gets it back with Idempotent-Replayed: true; the same key with another request is
 * 409. The answer is stored in the transaction of the request's first write, so a crash between
 * the write's commit and the answer leaves the answer too, and the retry gets it instead of
 * running the write again; what the request sends in the end replaces it. A 5xx before any write
 * is not stored, so the client's retry runs again.
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
  // Most requests carry no Idempotency-Key: they pass with a callback, without a promise and a turn.
  app.addHook('preHandler', (request, reply, done) => {
    const key = request.headers['idempotency-key'];
    if (request.method !== 'POST' || key === undefined) return done();
    claim(request, reply, key).then((replayed) => {
      if (!replayed) done();
    }, done);
  });

  /** Claims the key for this request, or replays the stored answer (true) or refuses the request. */
  async function claim(
    request: FastifyRequest,
    reply: FastifyReply,
    key: string | string[],
  ): Promise<boolean> {
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
      request.idempotency = { scope, key, answered: false };
      return false;
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
      request.idempotency = { scope, key, answered: false };
      return false;
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
    reply
      .status(stored.status_code)
      .header('Idempotent-Replayed', 'true')
      .type('application/json; charset=utf-8')
      .send(stored.response);
    return true;
  }

  // The handler runs with a hook on its transactions: the first that writes stores the answer.
  app.addHook('preHandler', (request, reply, done) => {
    const held = request.idempotency;
    if (!held) return done();
    runWithWriteHook(
      {
        wanted: () => !held.answered && request.idempotency === held,
        beforeCommit: async (tx, result) => {
          const answer = answerOf(request, reply, result);
          if (!answer) return;
          await storeAnswer(tx, held, answer.status, answer.body);
          held.answered = true;
        },
        afterCommit: () => {
          if (held.answered) crashAfterCommit('idempotency');
        },
      },
      done,
    );
  });

  app.addHook('onSend', (request, reply, payload, done) => {
    const held = request.idempotency;
    if (!held) return done(null, payload);
    request.idempotency = undefined;
    void record(request, reply, payload, held).then(() => done(null, payload));
  });

  /** Stores a claimed request's answer, or releases its claim when it failed; never throws. */
  async function record(request: FastifyRequest, reply: FastifyReply, payload: unknown, held: HeldKey) {
    const failed = reply.statusCode >= 500 || typeof payload !== 'string';
    try {
      if (failed) {
        // A write already committed keeps its stored answer: running the request again would repeat it.
        if (held.answered) return;
        await ctx.db
          .deleteFrom('idempotency_keys')
          .where('scope', '=', held.scope)
          .where('key', '=', held.key)
          .execute();
      } else {
        await storeAnswer(
          ctx.db,
          held,
          reply.statusCode,
          withoutSecret(payload, request.routeOptions.config.secretField),
        );
      }
    } catch (error) {
      // Thrown from here, the error would reach Fastify's default handler (a handler's error has
      // already been through ours), whose body has no error.code. The response stands as decided;
      // a success whose record is lost keeps its claim, so a retry is refused and never runs twice.
      request.log.error({ err: error, route: request.routeOptions.url }, 'idempotency record not saved');
      if (failed) unreleased.add(claimId(held.scope, held.key));
    }
  }
}
