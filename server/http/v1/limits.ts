import type { FastifyReply } from 'fastify';
import type { ApiPlan } from '../../domain/accounts';
import { rateLimited } from '../../lib/errors';
import type { LimitDecision, RateLimiter, WindowRule } from '../rate-limiter';

export const HOUR_MS = 60 * 60 * 1000;
export const DAY_MS = 24 * HOUR_MS;

/** Every v1 counter's bucket starts with this, so the v1 limiter restores only its own rows. */
export const V1_BUCKET_PREFIX = 'v1:';

export interface PlanLimits {
  hourly: number;
  /** null: no daily cap (growth, fair use). */
  daily: number | null;
}

/** Requests per account per api_plan (contract part 2). */
export const API_PLAN_LIMITS: Record<Exclude<ApiPlan, 'none'>, PlanLimits> = {
  lite: { hourly: 100, daily: 1_000 },
  essential: { hourly: 1_000, daily: 20_000 },
  business_suite: { hourly: 10_000, daily: 200_000 },
  growth: { hourly: 100_000, daily: null },
};

const PLAN_NAMES: Record<Exclude<ApiPlan, 'none'>, string> = {
  lite: 'Lite',
  essential: 'Essential',
  business_suite: 'Business Suite',
  growth: 'Growth',
};

/**
 * The windows one request counts against. Buckets are per account, not per key: the plan's quota
 * is the business's, however many keys it hands out.
 */
export function windowRules(accountId: string, limits: PlanLimits): WindowRule[] {
  const rules: WindowRule[] = [
    { bucket: `${V1_BUCKET_PREFIX}${accountId}:hour`, limit: limits.hourly, windowMs: HOUR_MS },
  ];
  if (limits.daily !== null) {
    rules.push({ bucket: `${V1_BUCKET_PREFIX}${accountId}:day`, limit: limits.daily, windowMs: DAY_MS });
  }
  return rules;
}

function setLimitHeaders(reply: FastifyReply, decision: LimitDecision) {
  const [hourly, daily] = decision.windows;
  if (hourly) {
    reply.header('X-RateLimit-Limit', hourly.limit);
    reply.header('X-RateLimit-Remaining', hourly.remaining);
    reply.header('X-RateLimit-Reset', Math.ceil(hourly.resetAt / 1000));
  }
  if (daily) {
    reply.header('X-RateLimit-Daily-Limit', daily.limit);
    reply.header('X-RateLimit-Daily-Remaining', daily.remaining);
  }
}

/**
 * Counts the request against the account's hourly and daily windows and sets the X-RateLimit-*
 * headers; over either limit it throws 429 with Retry-After, and the refused request is not counted.
 */
export function enforcePlanLimits(
  limiter: RateLimiter,
  reply: FastifyReply,
  accountId: string,
  apiPlan: Exclude<ApiPlan, 'none'>,
  now: number,
): void {
  const limits = API_PLAN_LIMITS[apiPlan];
  const decision = limiter.take(windowRules(accountId, limits), now);
  setLimitHeaders(reply, decision);
  if (decision.allowed) return;
  const exhausted = decision.windows.find((w) => w.remaining === 0 && w.bucket.endsWith(':day'))
    ? `${limits.daily?.toLocaleString('en-US')} requests a day`
    : `${limits.hourly.toLocaleString('en-US')} requests an hour`;
  throw rateLimited(
    `Rate limit reached: the ${PLAN_NAMES[apiPlan]} plan allows ${exhausted}. Retry after ${decision.retryAfterSeconds} s.`,
    decision.retryAfterSeconds,
  );
}
