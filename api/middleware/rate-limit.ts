import type { Context, Middleware, Next } from 'koa';
import type { AppDeps } from '../deps';
import { ApiError } from '../errors';
import { authOf } from '../auth';
import { admitRequest, type RateDecision } from '../../db/rate-limits';

/** Spec 8 counts per minute; tests inject a shorter window. */
export const RATE_WINDOW_SECONDS = 60;

/** The log's kind of an account's row (a token's has none); the row's key is the account's id. */
const ACCOUNT_KIND = 'account';

interface Limited {
  limit: number;
  decision: RateDecision;
  whose: 'token' | 'account';
}

/**
 * Spec 8: at most `CHASQUI_RATE_LIMIT_PER_MINUTE` (120) requests per token in any sliding minute, and at most
 * `CHASQUI_ACCOUNT_RATE_LIMIT_PER_MINUTE` (600) per account, all its tokens and companies together, so an account
 * does not multiply its share by minting tokens (docs/delivery.md). On every authenticated route (token minting
 * included), shared by all API instances through PostgreSQL; over either, 429 with Retry-After. Every answer carries
 * RateLimit-Limit / -Remaining / -Reset of the limit nearer its end (and the X-RateLimit-Limit / -Remaining names of
 * earlier versions). 0 turns a limit off. Runs after `authenticate`.
 */
export function rateLimit(deps: AppDeps): Middleware {
  const perToken = deps.config.rateLimitPerMinute;
  const perAccount = deps.config.accountRateLimitPerMinute;
  const window = () => deps.config.rateLimitWindowSeconds ?? RATE_WINDOW_SECONDS;
  return async function limitPerTokenAndAccount(ctx: Context, next: Next): Promise<void> {
    const auth = authOf(ctx);
    const limits: Limited[] = [];
    // The token first: a request its own token refuses is not counted against the account.
    if (perToken > 0) {
      const decision = await admitRequest(deps.db, auth.tokenId, perToken, window());
      limits.push({ limit: perToken, decision, whose: 'token' });
    }
    if (perAccount > 0 && limits.every((l) => l.decision.admitted)) {
      const decision = await admitRequest(deps.db, auth.accountId, perAccount, window(), ACCOUNT_KIND);
      limits.push({ limit: perAccount, decision, whose: 'account' });
    }
    if (!limits.length) return next();
    const nearest = limits.find((l) => !l.decision.admitted) ?? limits.reduce((a, b) => (left(b) < left(a) ? b : a));
    const { limit, decision } = nearest;
    const remaining = String(left(nearest));
    ctx.set('RateLimit-Limit', String(limit));
    ctx.set('RateLimit-Remaining', remaining);
    ctx.set('RateLimit-Reset', String(decision.resetSeconds));
    ctx.set('X-RateLimit-Limit', String(limit));
    ctx.set('X-RateLimit-Remaining', remaining);
    if (!decision.admitted) {
      const of = nearest.whose === 'account' ? "The account's rate limit" : 'Rate limit';
      throw new ApiError(429, `${of} of ${limit} requests per minute exceeded; retry in ${decision.resetSeconds} s`, {
        headers: { 'Retry-After': String(decision.resetSeconds) },
      });
    }
    return next();
  };
}

const left = ({ limit, decision }: Limited) => Math.max(0, limit - decision.count);
