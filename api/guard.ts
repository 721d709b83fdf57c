import type { Middleware } from 'koa';
import type { AppDeps } from './deps';
import { authenticate, requireScope } from './auth';
import { rateLimit } from './middleware/rate-limit';
import { jsonBody } from './middleware/body';
import type { TokenScope } from '../db/tokens';

/**
 * What every authenticated route runs before its handler: the token, its rate limits, its scope, and only then the
 * JSON body (issue 40). A request any of them refuses is answered before a byte of its body is read or parsed, so
 * an anonymous or throttled client cannot make the API read and parse 2 MiB for it.
 */
export function guard(deps: AppDeps, scope: TokenScope): Middleware[] {
  return [authenticate(deps), rateLimit(deps), requireScope(scope), jsonBody()];
}
