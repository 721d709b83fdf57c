import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { Context } from 'koa';
import type { AppDeps } from '../deps';
import { findConsoleSession, type ConsoleSession } from '../../db/console-sessions';
import { admitKeyed } from '../../db/rate-limits';
import { limitKey } from '../client-address';

/** The session cookie (a random id) and the sign-in form's double-submit cookie, both limited to /console. */
export const SESSION_COOKIE = 'chasqui_console';
export const LOGIN_COOKIE = 'chasqui_console_login';

function secure(deps: AppDeps): boolean {
  return (deps.config.buyers.publicUrl ?? '').startsWith('https:');
}

/** Set-Cookie written by hand: Koa refuses `secure` on a plain-HTTP hop even behind a TLS proxy. */
export function setCookie(ctx: Context, deps: AppDeps, name: string, value: string, maxAgeSeconds?: number): void {
  const parts = [`${name}=${value}`, 'Path=/console', 'HttpOnly', 'SameSite=Strict'];
  if (secure(deps)) parts.push('Secure');
  if (maxAgeSeconds !== undefined) parts.push(`Max-Age=${maxAgeSeconds}`);
  ctx.append('Set-Cookie', parts.join('; '));
}

export function cookie(ctx: Context, name: string): string | null {
  for (const part of (ctx.get('Cookie') ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim() || null;
  }
  return null;
}

export function sameSecret(a: string | null | undefined, b: string | null | undefined): boolean {
  if (!a || !b) return false;
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export const newSecret = () => randomBytes(24).toString('base64url');

/** The signed-in session, or null (no cookie, unknown, signed out, idle too long, too old, token revoked since). */
export async function consoleSession(deps: AppDeps, ctx: Context): Promise<ConsoleSession | null> {
  const id = cookie(ctx, SESSION_COOKIE);
  return id
    ? findConsoleSession(deps.db, id, {
        idleSeconds: deps.config.consoleIdleSeconds,
        maxSeconds: deps.config.consoleMaxSeconds,
      })
    : null;
}

/** One sign-in attempt of the client's address (CHASQUI_CONSOLE_SIGNIN_RATE): tokens cannot be tried at speed. */
export function admitSignIn(deps: AppDeps, ctx: Context) {
  const { limit, windowSeconds } = deps.config.consoleSignInRate;
  return admitKeyed(deps.db, `console-signin:${limitKey(ctx.ip)}`, limit, windowSeconds, {
    kind: 'console-signin',
    maxKeys: deps.config.rateLimitKeys,
  });
}
