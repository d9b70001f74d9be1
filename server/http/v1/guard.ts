import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Scope } from '../../../shared/schemas/api-key';
import type { AppContext } from '../../context';
import { authenticateSecret } from '../../domain/api-keys';
import { INSTALL_OWNER } from '../../domain/member-sessions';
import { ApiError, forbidden, planRequired } from '../../lib/errors';
import { bearerToken, isWrite, missingCredentials } from '../auth';
import type { RateLimiter } from '../rate-limiter';
import { enforcePlanLimits } from './limits';

export function requiredScope(method: string): Scope {
  return isWrite(method) ? 'write' : 'read';
}

/**
 * Auth, plan gate, rate limits and scopes for every v1 route (contract part 2), in that order:
 * only a v1 key (sd_live_ or sd_test_) opens it; the account needs an api_plan; the request counts
 * against the plan's windows (so even a 403 for a missing scope carries the X-RateLimit-* headers);
 * GET needs the read scope and every other method the write scope.
 */
export function v1Guard(ctx: AppContext, limiter: RateLimiter) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const secret = bearerToken(request);
    if (!secret) throw missingCredentials();
    const { key, account } = await authenticateSecret(ctx, secret);
    if (key.kind !== 'v1') {
      throw forbidden(
        key.kind === 'feed'
          ? 'The calendar feed token only opens the calendar feed; the v1 API takes a v1 key (sd_live_… or sd_test_…).'
          : 'This is a portal key; the v1 API takes a v1 key (sd_live_… or sd_test_…).',
      );
    }
    // A rotated-out secret still inside its grace period: tell the integration when it stops working.
    if (key.expiresAt) reply.header('X-Key-Expires-At', key.expiresAt);
    const apiPlan = account.api_plan;
    if (apiPlan === 'none') {
      throw planRequired(
        'The v1 API needs an SMB Developer plan (Lite, Essential, Business Suite or Growth).',
      );
    }
    enforcePlanLimits(limiter, reply, account.id, apiPlan, ctx.clock.now().getTime());
    const scope = requiredScope(request.method);
    if (!key.scopes.includes(scope)) {
      throw new ApiError(
        403,
        'insufficient_scope',
        `This key lacks the ${scope} scope that ${request.method} requests need.`,
        { details: { required_scope: scope, key_scopes: key.scopes } },
      );
    }
    request.auth = { account, via: 'key', key, scopes: key.scopes, member: INSTALL_OWNER };
  };
}
