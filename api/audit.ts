import type { Context } from 'koa';
import type { Actor } from '../db/audit';
import { ACCOUNT_SCOPE } from '../db/tokens';
import type { AuthState } from './auth';

/** The actor of an API request for the audit log: the token that authenticated it, from the client's address. */
export function requestActor(ctx: Context): Actor {
  const auth = ctx.state.auth as AuthState | undefined;
  return {
    kind: auth?.scope === ACCOUNT_SCOPE ? 'account-token' : 'company-token',
    name: auth ? `token ${auth.tokenId}` : 'unknown',
    address: ctx.ip || null,
    requestId: (ctx.state.requestId as string | undefined) ?? null,
  };
}
