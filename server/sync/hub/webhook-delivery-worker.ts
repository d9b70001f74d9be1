import type { WebhookInterface } from '../../db/schema';
import { readStoredConfig } from '../../domain/accounts';
import { defaultJitter, type Jitter, maxAttempts, retryDelayMs } from '../../domain/retry-schedules';
import { scheduleOf, subscribes } from '../../domain/webhook-fanout';
import { HUB_DELIVERS } from '../../domain/webhooks';
import { type Clock, isoNow, steadyClock, toIso } from '../../lib/clock';
import { postToTarget } from '../../outbound/http-post';
import { deliveryHeaders } from '../../outbound/signing';
import { describeFailure, RESPONSE_BODY_LIMIT } from '../../outbound/webhook-delivery';
import { isDeleted, type RowState } from '../merge';
import type {
  ClaimedDelivery,
  DeliveryOutcome,
  HandedEndpoint,
  HubDeliveryStorage,
} from './webhook-deliveries';

export interface HubWebhookWorkerOptions {
  clock: Clock;
  /** The hub's own port: never a webhook target (webhook-target.ts). */
  ownPort: number | null;
  pollMs?: number;
  /** Deliveries in flight at once per process (default 8). */
  concurrency?: number;
  timeoutMs?: number;
  jitter?: Jitter;
  onError?: (error: unknown) => void;
}

const FANOUT_PAGE = 500;
/** Beyond the timeout, how long a claim is held before another process may take the delivery back. */
const CLAIM_GRACE_MS = 20_000;
/** A disabled endpoint's deliveries wait; they are looked at again after this long. */
const DISABLED_RECHECK_MS = 60_000;

/**
 * The hub's webhook deliveries (webhook-deliveries.ts), run by every hosted hub process: each
 * poll queues the events that reached the hub for the endpoints handed to it, then claims and
 * sends what is due, with the signing, retry schedules and target rules of server/outbound/.
 * Queueing is idempotent and a claim is exclusive, so any number of processes may run it.
 */
export function startHubWebhookWorker(storage: HubDeliveryStorage, options: HubWebhookWorkerOptions) {
  const { clock } = options;
  const waits = steadyClock(clock);
  const pollMs = options.pollMs ?? 1000;
  const concurrency = options.concurrency ?? 8;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const jitter = options.jitter ?? defaultJitter;
  const stopping = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  let tick: Promise<void> = Promise.resolve();

  async function queueArrivedEvents(): Promise<void> {
    for (const endpoint of await storage.handedEndpoints()) {
      const state = endpoint.state;
      // Its row has not reached the hub yet, or the owner took the endpoint back.
      if (!state || state.v.delivering_node !== HUB_DELIVERS) continue;
      await queueEndpoint(endpoint, state);
    }
  }

  async function queueEndpoint(endpoint: HandedEndpoint, state: RowState): Promise<void> {
    const wanted = {
      interface: state.v.interface as WebhookInterface,
      events: String(state.v.events ?? '[]'),
    };
    // Like an install's endpoints (webhook-fanout.ts): the events the hub learned of after the
    // endpoint (hub sequence past its handover mark), while it is enabled.
    const live = !isDeleted(state) && state.v.enabled === 1;
    let through = endpoint.queued_through;
    for (;;) {
      const events = await storage.eventsAfter(endpoint.account_id, through, FANOUT_PAGE);
      const last = events.at(-1);
      if (!last) return;
      const deliveries = live
        ? events
            .map(({ state: event }) => ({ id: String(event.v.id), type: String(event.v.type) }))
            .filter((event) => event.type !== 'webhook.test' && subscribes(wanted, event.type))
            .map((event) => ({
              event_id: event.id,
              event_type: event.type,
              max_attempts: maxAttempts(scheduleOf(wanted.interface)),
            }))
        : [];
      await storage.queue(endpoint.account_id, endpoint.endpoint_id, deliveries, last.seq, isoNow(clock));
      through = last.seq;
      if (events.length < FANOUT_PAGE) return;
    }
  }

  async function sendDue(): Promise<void> {
    const now = waits.now().getTime();
    const claimed = await storage.claim(
      toIso(new Date(now)),
      toIso(new Date(now + timeoutMs + CLAIM_GRACE_MS)),
      concurrency,
    );
    await Promise.all(claimed.map((job) => deliver(job)));
  }

  async function deliver(job: ClaimedDelivery): Promise<void> {
    const attempt = job.attempts + 1;
    const endpoint = job.endpoint;
    const settle = (outcome: Omit<DeliveryOutcome, 'now'>) =>
      storage.record(job.id, { ...outcome, now: isoNow(clock) });
    if (!endpoint || isDeleted(endpoint) || endpoint.v.delivering_node !== HUB_DELIVERS || !job.event) {
      await settle({
        status: 'failed',
        attempts: job.attempts,
        next_attempt_at: null,
        response_code: null,
        error: 'Not sent: the endpoint was deleted or is no longer delivered by the hub',
      });
      return;
    }
    if (endpoint.v.enabled !== 1) {
      await settle({
        status: 'pending',
        attempts: job.attempts,
        next_attempt_at: toIso(new Date(waits.now().getTime() + DISABLED_RECHECK_MS)),
        response_code: null,
        error: null,
      });
      return;
    }
    const iface = endpoint.v.interface as WebhookInterface;
    const body = String(job.event.v.payload);
    const nowIso = isoNow(clock);
    const secrets =
      job.previous_secret && job.previous_secret_expires_at && job.previous_secret_expires_at > nowIso
        ? [job.secret, job.previous_secret]
        : [job.secret];
    const headers = deliveryHeaders({
      secrets,
      timestamp: Math.floor(clock.now().getTime() / 1000),
      body,
      eventId: job.event_id,
      eventType: job.event_type,
      deliveryId: job.id,
      attempt,
    });
    let status: number | null = null;
    let error: string | null = null;
    try {
      const answer = await postToTarget(String(endpoint.v.url), {
        headers,
        body,
        signal: AbortSignal.any([AbortSignal.timeout(timeoutMs), stopping.signal]),
        policy: { allowLocal: allowsLocalTargets(job.account), ownPort: options.ownPort },
        maxBodyBytes: RESPONSE_BODY_LIMIT,
      });
      status = answer.status;
      if (status < 200 || status >= 300) error = `The receiver answered ${status}`;
    } catch (failure) {
      error = describeFailure(failure, timeoutMs);
    }
    if (stopping.signal.aborted) {
      // Stopped mid-request: the outcome says nothing about the receiver; the next process retries.
      await settle({
        status: 'pending',
        attempts: job.attempts,
        next_attempt_at: nowIso,
        response_code: null,
        error: null,
      });
      return;
    }
    const ok = error === null;
    const final =
      ok ||
      attempt >= job.max_attempts ||
      // Portal receivers refuse with a 4xx on purpose: asking again would not change their answer.
      (iface === 'portal' && status !== null && status >= 400 && status < 500);
    const delay = final ? null : retryDelayMs(scheduleOf(iface), attempt, jitter);
    const next = delay === null ? null : toIso(new Date(waits.now().getTime() + delay));
    await settle({
      status: ok ? 'succeeded' : next ? 'pending' : 'failed',
      attempts: attempt,
      next_attempt_at: next,
      response_code: status,
      error,
    });
  }

  const poll = () => {
    tick = (async () => {
      try {
        await queueArrivedEvents();
        await sendDue();
      } catch (error) {
        options.onError?.(error);
      }
    })();
    void tick.then(() => {
      if (!stopping.signal.aborted) timer = setTimeout(poll, pollMs);
    });
  };
  poll();

  return {
    async stop(): Promise<void> {
      stopping.abort();
      clearTimeout(timer);
      await tick;
    },
  };
}

/** The owner's allow_local_webhooks, from the business's synced account row. */
function allowsLocalTargets(account: RowState | undefined): boolean {
  const config = account?.v.config;
  if (typeof config !== 'string') return false;
  return readStoredConfig(config).allow_local_webhooks === true;
}
