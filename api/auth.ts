import type { Context, Middleware, Next } from 'koa';
import type { AppDeps } from './deps';
import { forbidden, unauthorized } from './errors';
import { ACCOUNT_SCOPE, COMPANY_SCOPE, findToken, recordTokenUse, type TokenScope } from '../db/tokens';
import { logger } from '../core/logger';
import type { IssuerAccount } from '../db/issuing';

/** Who is calling, set on `ctx.state.auth` by `authenticate`. */
export interface AuthState {
  tokenId: string;
  scope: TokenScope;
  accountId: string;
  /** The company of a signing token; null for account tokens. */
  companyId: string | null;
  /** A signing token's company and account balances as read with the token; null for account tokens. */
  issuer: IssuerAccount | null;
}

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/**
 * Spec 5: 401 when the token is absent, unknown, revoked, or a signing token without a company; 403 when the
 * account (or the token's company) is inactive. Which routes a scope may use is `requireScope`'s business.
 */
export function authenticate(deps: AppDeps): Middleware {
  return async function authenticateBearer(ctx: Context, next: Next): Promise<void> {
    const header = ctx.get('Authorization');
    if (!header) throw unauthorized('Send the token as Authorization: Bearer <token>');
    const match = BEARER.exec(header);
    if (!match) throw unauthorized('The Authorization header must be "Bearer <token>"');
    const principal = await findToken(deps.db, match[1]);
    if (!principal) throw unauthorized('The token is not valid');
    if (principal.revoked) throw unauthorized('The token has been revoked');
    if (principal.expired) throw unauthorized('The token has expired: it was rolled and its overlap has ended');
    if (principal.scope === COMPANY_SCOPE && principal.companyId === null)
      throw unauthorized('The token has no company');
    if (!principal.accountActive) throw forbidden('The account is inactive');
    if (principal.scope === COMPANY_SCOPE && principal.companyActive === false)
      throw forbidden('The company is inactive');
    const auth: AuthState = {
      tokenId: principal.tokenId,
      scope: principal.scope,
      accountId: principal.accountId,
      companyId: principal.companyId,
      issuer: principal.issuer,
    };
    ctx.state.auth = auth;
    noteUse(deps, ctx, auth.tokenId);
    return next();
  };
}

/** A token's last use is written at most this often per process (the panel shows it to the minute). */
const LAST_USE_EVERY_MS = 60_000;
const LAST_USE_TRACKED = 10_000;
const lastUseWritten = new Map<string, number>();

/**
 * Records the token's use once the answer has gone (its own statement, outside every transaction of the request), at
 * most once a minute per token in this process: issuing pays nothing for it.
 */
function noteUse(deps: AppDeps, ctx: Context, tokenId: string): void {
  const now = Date.now();
  const last = lastUseWritten.get(tokenId);
  if (last !== undefined && now - last < LAST_USE_EVERY_MS) return;
  // Bounded: forgetting every token costs one early write each, never a lost one.
  if (lastUseWritten.size >= LAST_USE_TRACKED) lastUseWritten.clear();
  lastUseWritten.set(tokenId, now);
  ctx.res.once('close', () => {
    recordTokenUse(deps.db, tokenId).catch((err) => logger.warn({ err, tokenId }, 'could not record a token use'));
  });
}

const SCOPE_HINT: Record<TokenScope, string> = {
  [ACCOUNT_SCOPE]: 'an account token (scope empresas:manage)',
  [COMPANY_SCOPE]: 'a company signing token (scope cpe:sign)',
};

/** 403 when a valid token has the wrong scope for the route ("the token does not correspond to an account"). */
export function requireScope(scope: TokenScope): Middleware {
  return async function checkScope(ctx: Context, next: Next): Promise<void> {
    const auth = authOf(ctx);
    if (auth.scope !== scope)
      throw forbidden(`This route needs ${SCOPE_HINT[scope]}; the token sent is ${SCOPE_HINT[auth.scope]}`);
    return next();
  };
}

export function authOf(ctx: Context): AuthState {
  const auth = ctx.state.auth as AuthState | undefined;
  if (!auth) throw new Error('authenticate() must run before this middleware');
  return auth;
}
