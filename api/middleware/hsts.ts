import type { Context, Middleware, Next } from 'koa';
import type { AppDeps } from '../deps';

/** A year: browsers that once reached chasqui over https never try plain http for it again. */
export const HSTS_MAX_AGE_SECONDS = 31_536_000;

/**
 * Strict-Transport-Security on every answer (console, /consulta, the JSON API) when CHASQUI_PUBLIC_URL is https: a
 * network attacker cannot downgrade a later visit to http to read the console's cookie or a /consulta link. Off for an
 * http public URL (local development), where it would lock browsers out.
 */
export function hsts(deps: AppDeps): Middleware {
  const on = (deps.config.buyers.publicUrl ?? '').startsWith('https:');
  return async function strictTransport(ctx: Context, next: Next): Promise<void> {
    if (on) ctx.set('Strict-Transport-Security', `max-age=${HSTS_MAX_AGE_SECONDS}`);
    await next();
  };
}
