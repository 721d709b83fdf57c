import type { Context } from 'koa';
import { nowOf, type AppDeps } from '../../deps';
import { findAccount } from '../../../db/accounts';
import { recordChange } from '../../../db/audit';
import type { SessionPending, UserPrincipal } from '../../../db/console-sessions';
import { findUserByEmail, peopleSettings, recordFailedSignIn, recordSignIn, type UserRow } from '../../../db/users';
import { HeavyRefusedError } from '../../../heavy/pool';
import { limaLabelled } from '../words';
import { passwordMatches } from './passwords';

/** A password sign-in's outcome: a session to open (and what it still owes), or a refusal to show. */
export type PasswordOutcome =
  | { ok: true; principal: UserPrincipal; pending: SessionPending }
  | { ok: false; status: number; text: string; retryAfter?: number };

const WRONG = 'Correo o contraseña incorrectos.';

/**
 * Sign-in with e-mail and password (the per-address limit already counted this attempt). Every attempt costs the same
 * scrypt work, known address or not. A wrong password counts against the user; past LOCKOUT.after in a row the user is
 * locked for a doubling time, capped, and told so only when it types the right password (so the lock says nothing to
 * whoever does not know it). A reset by e-mail always works, lock or not.
 */
export async function passwordSignIn(ctx: Context, deps: AppDeps, form: URLSearchParams): Promise<PasswordOutcome> {
  const email = (form.get('email') ?? '').trim().toLowerCase().slice(0, 254);
  const password = form.get('password') ?? '';
  const at = nowOf(deps);
  let matches: boolean;
  let user: UserRow | undefined;
  try {
    user = email ? await findUserByEmail(deps.db, email) : undefined;
    matches = await passwordMatches(deps, user?.account_id ?? 'console-sign-in', password, user?.password_hash ?? null);
  } catch (err) {
    if (!(err instanceof HeavyRefusedError)) throw err;
    return { ok: false, status: 503, text: 'El servicio está ocupado: inténtelo en unos segundos.', retryAfter: 5 };
  }
  if (!user || !matches) {
    if (user) await recordFailedSignIn(deps.db, user.id, at);
    return { ok: false, status: 401, text: WRONG };
  }
  if (user.locked_until && user.locked_until > at) {
    const until = limaLabelled(user.locked_until);
    return {
      ok: false,
      status: 429,
      text: `Usuario bloqueado por intentos fallidos hasta el ${until}. Puede restablecer su contraseña ahora.`,
      retryAfter: Math.ceil((user.locked_until.getTime() - at.getTime()) / 1000),
    };
  }
  const account = await findAccount(deps.db, user.account_id);
  if (!account?.active) return { ok: false, status: 403, text: 'La cuenta de este usuario está desactivada.' };
  const settings = await peopleSettings(deps.db, user.account_id);
  const pending = user.totp_enabled_at ? 'totp' : settings.requireTwoFactor ? 'enrol' : null;
  await recordSignIn(deps.db, user.id);
  await recordChange(deps.db, {
    accountId: user.account_id,
    actor: { kind: 'user', name: user.email, address: ctx.ip || null, requestId: ctx.state.requestId ?? null },
    action: 'user.sign_in',
    changes: { second_factor: { to: pending ?? 'none' } },
  });
  const principal: UserPrincipal = {
    kind: 'user',
    name: user.email,
    accountId: user.account_id,
    userId: user.id,
    role: user.role,
    companyIds: user.company_ids,
  };
  return { ok: true, principal, pending };
}
