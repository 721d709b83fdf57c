import type { Context } from 'koa';
import type { AppDeps } from '../deps';
import { findToken, ACCOUNT_SCOPE, COMPANY_SCOPE, type TokenPrincipal } from '../../db/tokens';
import { findSupportToken, supportTokenState, type SupportTokenRow } from '../../db/support-tokens';
import {
  endConsoleSession,
  openConsoleSession,
  type ConsolePrincipal,
  type SessionPending,
} from '../../db/console-sessions';
import { passwordSignIn } from './people/sign-in';
import { peopleSettings } from '../../db/users';
import { recordChange } from '../../db/audit';
import { SECOND_FACTOR_PATHS } from './people/paths';
import { findAccount } from '../../db/accounts';
import { logger } from '../../core/logger';
import { html, notice, page, type Html } from './html';
import { writePage } from './context';
import { FormError, readForm } from '../pages';
import { admitSignIn, cookie, LOGIN_COOKIE, newSecret, sameSecret, SESSION_COOKIE, setCookie } from './session';

/** A sign-in or an action form is far below this. */
const MAX_FORM_BYTES = 16 * 1024;

/** The console's forms (sign-in, sign-out, actions, the stuck page's age is a GET): the page's own, within bounds. */
export async function consoleForm(ctx: Context): Promise<URLSearchParams | FormError> {
  try {
    return await readForm(ctx, MAX_FORM_BYTES);
  } catch (err) {
    if (err instanceof FormError) return err;
    throw err;
  }
}

export function loginPage(ctx: Context, deps: AppDeps, status: number, message: Html | null): void {
  const csrf = newSecret();
  setCookie(ctx, deps, LOGIN_COOKIE, csrf, 3600);
  writePage(
    ctx,
    status,
    page(
      { title: 'Iniciar sesión' },
      html`${message}
        <form class="card" method="post" action="/console/login">
          <input type="hidden" name="csrf" value="${csrf}" />
          <label for="email">Correo</label>
          <input id="email" name="email" type="email" autocomplete="username" maxlength="254" autofocus />
          <label for="password">Contraseña</label>
          <input id="password" name="password" type="password" autocomplete="current-password" />
          <button type="submit" name="via" value="usuario">Iniciar sesión con su usuario</button>
          <p class="hint"><a href="/console/olvido">¿Olvidó su contraseña?</a></p>
          <label for="token">Token de acceso</label>
          <p class="hint" id="token-hint">Un token de soporte (chq_sup_…) o el token de su cuenta (chq_acc_…).</p>
          <input id="token" name="token" type="password" autocomplete="off" aria-describedby="token-hint" />
          <button type="submit" name="via" value="token">Entrar</button>
        </form>`,
    ),
  );
}

export function forbiddenPage(ctx: Context, text: string, status = 403): void {
  writePage(
    ctx,
    status,
    page(
      { title: 'Solicitud rechazada' },
      html`${notice('refused', text)}
        <p><a href="/console/documents">Volver a la consola</a></p>`,
    ),
  );
}

const USE_INSTEAD = 'inicie sesión con un token de soporte (chq_sup_…) o con el de su cuenta (chq_acc_…).';

/** Why a support token opens no session: said by its state, so the person knows whether to ask for a new one. */
function supportRefusal(token: SupportTokenRow): string | null {
  const state = supportTokenState(token);
  if (state === 'revoked') return 'Este token de soporte fue revocado: ya no es válido. Pida uno nuevo.';
  if (state === 'expired') return 'Este token de soporte venció: ya no es válido. Pida uno nuevo.';
  return null;
}

/** Why an API token opens no session: a signing token is not for people; a revoked one or a closed account says so. */
function apiTokenRefusal(found: TokenPrincipal): string | null {
  if (found.scope === COMPANY_SCOPE)
    return `Este es un token de firma (${COMPANY_SCOPE}) de una empresa, para emitir desde su sistema; ${USE_INSTEAD}`;
  if (found.scope !== ACCOUNT_SCOPE) return `Este token (${found.scope}) no abre la consola; ${USE_INSTEAD}`;
  if (found.revoked) return 'Este token de cuenta fue revocado: ya no es válido.';
  if (!found.accountActive) return 'La cuenta de este token está desactivada.';
  return null;
}

export async function signIn(ctx: Context, deps: AppDeps): Promise<void> {
  const attempt = await admitSignIn(deps, ctx);
  if (!attempt.admitted) {
    ctx.set('Retry-After', String(attempt.resetSeconds));
    const wait = `Espere ${attempt.resetSeconds} segundos e inténtelo de nuevo.`;
    return loginPage(ctx, deps, 429, notice('refused', `Demasiados intentos desde su conexión. ${wait}`));
  }
  const form = await consoleForm(ctx);
  if (form instanceof FormError) return loginPage(ctx, deps, form.status, notice('refused', form.message));
  if (!sameSecret(form.get('csrf'), cookie(ctx, LOGIN_COOKIE)))
    return forbiddenPage(
      ctx,
      'El formulario caducó o no vino de esta página: vuelva a cargar la página de inicio de sesión.',
    );
  // One form for both ways in: an e-mail typed (or the user's button with no token) is a password sign-in.
  const byPassword = !!form.get('email')?.trim() || (form.get('via') === 'usuario' && !form.get('token')?.trim());
  if (byPassword) {
    const outcome = await passwordSignIn(ctx, deps, form);
    if (outcome.ok) return openSession(ctx, deps, outcome.principal, outcome.pending);
    if (outcome.retryAfter) ctx.set('Retry-After', String(outcome.retryAfter));
    return loginPage(ctx, deps, outcome.status, notice('refused', outcome.text));
  }
  const token = (form.get('token') ?? '').trim();
  const refuse = (text: string) => loginPage(ctx, deps, 401, notice('refused', text));
  let principal: ConsolePrincipal;
  const support = await findSupportToken(deps.db, token);
  const found = support || !token ? null : await findToken(deps.db, token);
  if (support) {
    const refusal = supportRefusal(support);
    if (refusal) return refuse(refusal);
    principal = { kind: 'support', name: support.name, supportTokenId: support.id };
  } else if (found) {
    const refusal = apiTokenRefusal(found);
    if (refusal) return refuse(refusal);
    const account = await findAccount(deps.db, found.accountId);
    if (!(await peopleSettings(deps.db, found.accountId)).tokenConsole)
      return refuse('El propietario de esta cuenta desactivó el acceso con el token de cuenta: entre con su usuario.');
    principal = {
      kind: 'account',
      name: account?.name ?? 'cuenta',
      accountId: found.accountId,
      apiTokenId: found.tokenId,
    };
  } else return refuse('El token no es válido: no existe ningún token con ese valor. Revise que lo copió completo.');
  // The account token opening the console is in the account's audit log, as a user's sign-in is.
  if (principal.kind === 'account')
    await recordChange(deps.db, {
      accountId: principal.accountId,
      actor: { kind: 'account-token', name: `token ${principal.apiTokenId}`, address: ctx.ip || null },
      action: 'account.sign_in',
    });
  return openSession(ctx, deps, principal, null);
}

/** Opens a session and lands on the page it owes first: the documents, or the second factor still due. */
export async function openSession(
  ctx: Context,
  deps: AppDeps,
  principal: ConsolePrincipal,
  pending: SessionPending,
): Promise<void> {
  const session = await openConsoleSession(deps.db, principal, pending);
  logger.info({ kind: principal.kind, name: principal.name, pending }, 'console sign-in');
  setCookie(ctx, deps, SESSION_COOKIE, session.id);
  setCookie(ctx, deps, LOGIN_COOKIE, '', 0);
  ctx.status = 303;
  ctx.redirect(pending ? SECOND_FACTOR_PATHS[pending] : '/console/documents');
}

export async function signOut(ctx: Context, deps: AppDeps): Promise<void> {
  await endConsoleSession(deps.db, cookie(ctx, SESSION_COOKIE)!);
  setCookie(ctx, deps, SESSION_COOKIE, '', 0);
  ctx.status = 303;
  ctx.redirect('/console/login?salida=1');
}
