import type { Context, Middleware, Next } from 'koa';
import type { AppDeps } from './deps';
import { forbidden, unauthorized } from './errors';
import { ACCOUNT_SCOPE, COMPANY_SCOPE, findToken, type TokenScope } from '../db/tokens';
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
    return next();
  };
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
