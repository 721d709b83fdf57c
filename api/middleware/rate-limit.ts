import type { Context, Middleware, Next } from 'koa';
import type { AppDeps } from '../deps';
import { ApiError } from '../errors';
import { authOf } from '../auth';
import { countRequest } from '../../db/rate-limits';

/**
 * Spec 8: at most `CHASQUI_RATE_LIMIT_PER_MINUTE` (120) requests per minute per token, counted in PostgreSQL so all
 * API instances share the limit; over it, 429 with Retry-After. 0 turns the limit off. Runs after `authenticate`.
 */
export function rateLimit(deps: AppDeps): Middleware {
  const limit = deps.config.rateLimitPerMinute;
  return async function limitPerToken(ctx: Context, next: Next): Promise<void> {
    if (limit === 0) return next();
    const window = await countRequest(deps.db, authOf(ctx).tokenId);
    ctx.set('X-RateLimit-Limit', String(limit));
    ctx.set('X-RateLimit-Remaining', String(Math.max(0, limit - window.count)));
    if (window.count > limit) {
      throw new ApiError(429, `Rate limit of ${limit} requests per minute exceeded; retry in ${window.resetSeconds} s`, {
        headers: { 'Retry-After': String(window.resetSeconds) },
      });
    }
    return next();
  };
}
