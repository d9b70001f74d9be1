import { runCompiledOnce } from '../db/compiled-once';
import type { Db } from '../db/database';
import type { WebhookInterface } from '../db/schema';
import { getAccount } from '../domain/accounts';
import { retryDelayMs } from '../domain/retry-schedules';
import { DISABLE_AFTER_FAILURES } from '../domain/webhook-failures';
import { scheduleOf } from '../domain/webhook-fanout';
import { toIso } from '../lib/clock';
import { newId } from '../lib/ids';
import { type HostLookup, TargetRefused } from '../lib/webhook-target';
import { postToTarget } from './http-post';
import { type OutboxHost, OutboxRunner } from './runner';
import { deliveryHeaders } from './signing';

/**
 * Webhook delivery: claims due deliveries, signs and sends them, and records each attempt and the
 * retry it schedules. It runs on a thread of its own (webhook-thread.ts) over its own connection,
 * so sending 10,000 deliveries does not share the API's event loop; `host` is what that thread
 * gets from the server.
 */
export interface DeliveryHost extends OutboxHost {
  db: Db;
  /**
   * The server's clock read once: `wall` is what attempts record and signatures carry; `steady`
   * orders due times and leases (steadyClock: it never steps back with the wall clock).
   */
  now(): Promise<{ wall: Date; steady: Date }>;
  /** The factor spreading one v1 retry (retry-schedules.ts). */
  jitter(): Promise<number>;
  /** The port the server listens on: deliveries never loop back to it. */
  ownPort: number | null;
  /** How target names resolve; absent, the system's resolver. */
  lookup?: HostLookup;
  /** Disables a v1 endpoint whose failure streak reached DISABLE_AFTER_FAILURES, as of `at`. */
  disableFailing(endpointId: string, at: string): Promise<void>;
}

export interface DeliveryOptions {
  /** Deliveries in flight at once (default 8). */
  concurrency?: number;
  /** A receiver that has not answered by then has failed (default 10 s). */
  timeoutMs?: number;
  pollMs?: number;
}

/** How much of a receiver's answer the history keeps. */
export const RESPONSE_BODY_LIMIT = 2048;
/** Beyond the timeout, how long a claim is held before another run may take the delivery back. */
const CLAIM_GRACE_MS = 20_000;

interface DeliveryJob {
  id: string;
  accountId: string;
  attempt: number;
  maxAttempts: number;
  eventId: string;
  eventType: string;
  payload: string;
  url: string;
  iface: WebhookInterface;
  secrets: string[];
}

interface AttemptOutcome {
  ok: boolean;
  responseCode: number | null;
  responseBody: string | null;
  error: string | null;
  durationMs: number;
}

export function startWebhookDelivery(
  host: DeliveryHost,
  options: DeliveryOptions = {},
): OutboxRunner<DeliveryJob> {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const { db } = host;

  async function takeBackLeftClaims(): Promise<void> {
    const { wall, steady } = await host.now();
    await db
      .updateTable('webhook_deliveries')
      .set({ status: 'pending', next_attempt_at: toIso(steady), updated_at: toIso(wall) })
      .where('status', '=', 'sending')
      .execute();
  }

  async function claim(max: number, running: string[]): Promise<DeliveryJob[]> {
    const { wall, steady: now } = await host.now();
    // The time may come from the server in a message, and the machine may have gone offline while
    // it was asked: nothing is claimed then, or a delivery would leave after going offline.
    if (!host.connectivity.online) return [];
    const dueIso = toIso(now);
    const nowIso = toIso(wall);
    // Every write wakes the worker; most find nothing due, and a read tells so without a write transaction.
    const anyDue = await runCompiledOnce(db, 'webhook deliveries due', { dueIso }, (v) =>
      db
        .selectFrom('webhook_deliveries')
        .select('id')
        .where('status', 'in', ['pending', 'sending'])
        .where('next_attempt_at', '<=', v.dueIso)
        .limit(1),
    );
    if (anyDue.length === 0) return [];
    return db.transaction().execute(async (tx) => {
      let query = tx
        .selectFrom('webhook_deliveries as d')
        .innerJoin('webhook_endpoints as e', 'e.id', 'd.endpoint_id')
        .innerJoin('events as ev', 'ev.id', 'd.event_id')
        .select([
          'd.id',
          'e.account_id',
          'd.attempts',
          'd.max_attempts',
          'd.event_id',
          'd.event_type',
          'ev.payload',
          'e.url',
          'e.interface',
          'e.secret',
          'e.previous_secret',
          'e.previous_secret_expires_at',
        ])
        // A 'sending' row here is a claim whose holder stopped (crash, kill): it is taken back.
        .where('d.status', 'in', ['pending', 'sending'])
        .where('d.next_attempt_at', '<=', dueIso)
        .where('e.enabled', '=', 1)
        // Reached the bound, it is being disabled (disableFailing): nothing more goes out to it.
        .where((eb) =>
          eb.or([eb('e.interface', '!=', 'v1'), eb('e.consecutive_failures', '<', DISABLE_AFTER_FAILURES)]),
        );
      if (running.length) query = query.where('d.id', 'not in', running);
      const due = await query.limit(max).execute();
      if (due.length === 0) return [];
      await tx
        .updateTable('webhook_deliveries')
        .set({
          status: 'sending',
          next_attempt_at: toIso(new Date(now.getTime() + timeoutMs + CLAIM_GRACE_MS)),
          updated_at: nowIso,
        })
        .where(
          'id',
          'in',
          due.map((d) => d.id),
        )
        .execute();
      return due.map((d) => ({
        id: d.id,
        accountId: d.account_id,
        attempt: d.attempts + 1,
        maxAttempts: d.max_attempts,
        eventId: d.event_id,
        eventType: d.event_type,
        payload: d.payload,
        url: d.url,
        iface: d.interface,
        secrets:
          d.previous_secret && d.previous_secret_expires_at && d.previous_secret_expires_at > nowIso
            ? [d.secret, d.previous_secret]
            : [d.secret],
      }));
    });
  }

  async function send(job: DeliveryJob, stopping: AbortSignal): Promise<AttemptOutcome> {
    const timestamp = Math.floor((await host.now()).wall.getTime() / 1000);
    const headers = deliveryHeaders({
      secrets: job.secrets,
      timestamp,
      body: job.payload,
      eventId: job.eventId,
      eventType: job.eventType,
      deliveryId: job.id,
      attempt: job.attempt,
    });
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    try {
      const { config } = await getAccount(db, job.accountId);
      const answer = await postToTarget(job.url, {
        headers,
        body: job.payload,
        signal: AbortSignal.any([AbortSignal.timeout(timeoutMs), stopping]),
        policy: {
          allowLocal: config.allow_local_webhooks,
          ownPort: host.ownPort,
          lookup: host.lookup,
        },
        maxBodyBytes: RESPONSE_BODY_LIMIT,
      });
      const ok = answer.status >= 200 && answer.status < 300;
      return {
        ok,
        responseCode: answer.status,
        responseBody: answer.bodyPrefix,
        error: ok ? null : `The receiver answered ${answer.status}`,
        durationMs: elapsed(),
      };
    } catch (error) {
      return {
        ok: false,
        responseCode: null,
        responseBody: null,
        error: describeFailure(error, timeoutMs),
        durationMs: elapsed(),
      };
    }
  }

  /** Puts a claimed delivery back as it was, due now, without spending an attempt. */
  async function release(job: DeliveryJob): Promise<void> {
    const { wall, steady } = await host.now();
    await db
      .updateTable('webhook_deliveries')
      .set({ status: 'pending', next_attempt_at: toIso(steady), updated_at: toIso(wall) })
      .where('id', '=', job.id)
      .where('status', '=', 'sending')
      .execute();
  }

  async function record(job: DeliveryJob, outcome: AttemptOutcome): Promise<void> {
    const { wall: now, steady } = await host.now();
    const nowIso = toIso(now);
    const final =
      outcome.ok ||
      job.attempt >= job.maxAttempts ||
      // Portal receivers refuse with a 4xx on purpose: asking again would not change their answer.
      (job.iface === 'portal' &&
        outcome.responseCode !== null &&
        outcome.responseCode >= 400 &&
        outcome.responseCode < 500);
    const schedule = scheduleOf(job.iface);
    const factor = !final && schedule.jittered ? await host.jitter() : 1;
    const delay = final ? null : retryDelayMs(schedule, job.attempt, () => factor);
    const nextAttemptAt = delay === null ? null : toIso(new Date(steady.getTime() + delay));
    const reachedBound = await db.transaction().execute(async (tx) => {
      const delivery = await tx
        .selectFrom('webhook_deliveries')
        .select(['endpoint_id'])
        .where('id', '=', job.id)
        .where('status', '=', 'sending')
        .executeTakeFirst();
      // Gone (endpoint deleted while the request was out) or taken back: nothing to record.
      if (!delivery) return null;
      await tx
        .insertInto('webhook_attempts')
        .values({
          id: newId('att', now.getTime()),
          delivery_id: job.id,
          attempt: job.attempt,
          status: outcome.ok ? 'succeeded' : 'failed',
          response_code: outcome.responseCode,
          response_body: outcome.responseBody,
          error: outcome.error,
          duration_ms: outcome.durationMs,
          attempted_at: nowIso,
          next_attempt_at: nextAttemptAt,
        })
        .execute();
      await tx
        .updateTable('webhook_deliveries')
        .set({
          status: outcome.ok ? 'succeeded' : nextAttemptAt ? 'pending' : 'failed',
          attempts: job.attempt,
          next_attempt_at: nextAttemptAt,
          last_response_code: outcome.responseCode,
          last_error: outcome.error,
          updated_at: nowIso,
        })
        .where('id', '=', job.id)
        .execute();
      if (outcome.ok) {
        await tx
          .updateTable('webhook_endpoints')
          .set({ consecutive_failures: 0 })
          .where('id', '=', delivery.endpoint_id)
          .execute();
        return null;
      }
      const endpoint = await tx
        .updateTable('webhook_endpoints')
        .set((eb) => ({ consecutive_failures: eb('consecutive_failures', '+', 1) }))
        .where('id', '=', delivery.endpoint_id)
        .returning(['consecutive_failures', 'enabled', 'interface'])
        .executeTakeFirstOrThrow();
      const disable =
        endpoint.interface === 'v1' &&
        endpoint.enabled === 1 &&
        endpoint.consecutive_failures >= DISABLE_AFTER_FAILURES;
      return disable ? delivery.endpoint_id : null;
    });
    if (reachedBound) await host.disableFailing(reachedBound, nowIso);
  }

  async function run(job: DeliveryJob, stopping: AbortSignal): Promise<void> {
    const outcome = await send(job, stopping);
    // Stopping, or the machine went offline mid-request: the outcome says nothing about the receiver.
    const interrupted =
      stopping.aborted || (!outcome.ok && outcome.responseCode === null && !host.connectivity.online);
    if (interrupted) await release(job);
    else await record(job, outcome);
  }

  return new OutboxRunner<DeliveryJob>(host, {
    concurrency: options.concurrency ?? 8,
    pollMs: options.pollMs ?? 500,
    claim,
    run,
    takeBackLeftClaims,
  });
}

/** What went wrong with an attempt that got no answer, in the owner's words. */
export function describeFailure(error: unknown, timeoutMs: number): string {
  if (error instanceof TargetRefused) return `Not sent: ${error.message}`;
  if (!(error instanceof Error)) return String(error);
  if (error.name === 'TimeoutError' || (error.cause as Error | undefined)?.name === 'TimeoutError') {
    return `No answer within ${timeoutMs / 1000} s`;
  }
  return `Could not connect: ${error.message}`;
}
