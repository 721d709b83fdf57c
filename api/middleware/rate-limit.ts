import type { Context, Middleware, Next } from 'koa';
import type { AppDeps } from '../deps';
import { ApiError } from '../errors';
import { authOf } from '../auth';
import { admitRequest } from '../../db/rate-limits';

/** Spec 8 counts per minute; tests inject a shorter window. */
export const RATE_WINDOW_SECONDS = 60;

/**
 * Spec 8: at most `CHASQUI_RATE_LIMIT_PER_MINUTE` (120) requests per token in any sliding minute, on every
 * authenticated route (token minting included), shared by all API instances through PostgreSQL; over it, 429 with
 * Retry-After. Every answer carries RateLimit-Limit / -Remaining / -Reset (and the X-RateLimit-Limit / -Remaining
 * names of earlier versions). 0 turns the limit off. Runs after `authenticate`.
 */
export function rateLimit(deps: AppDeps): Middleware {
  const limit = deps.config.rateLimitPerMinute;
  return async function limitPerToken(ctx: Context, next: Next): Promise<void> {
    if (limit === 0) return next();
    const decision = await admitRequest(
      deps.db,
      authOf(ctx).tokenId,
      limit,
      deps.config.rateLimitWindowSeconds ?? RATE_WINDOW_SECONDS,
    );
    const remaining = String(Math.max(0, limit - decision.count));
    ctx.set('RateLimit-Limit', String(limit));
    ctx.set('RateLimit-Remaining', remaining);
    ctx.set('RateLimit-Reset', String(decision.resetSeconds));
    ctx.set('X-RateLimit-Limit', String(limit));
    ctx.set('X-RateLimit-Remaining', remaining);
    if (!decision.admitted) {
      throw new ApiError(
        429,
        `Rate limit of ${limit} requests per minute exceeded; retry in ${decision.resetSeconds} s`,
        {
          headers: { 'Retry-After': String(decision.resetSeconds) },
        },
      );
    }
    return next();
  };
}
