import type { Context } from 'koa';
import { nowOf, type AppDeps } from '../../deps';
import { findUserByEmail, peekLink, type LinkKind } from '../../../db/users';
import { logger } from '../../../core/logger';
import { FormError } from '../../pages';
import { html, notice, page, type Html } from '../html';
import { writePage } from '../context';
import { admitSignIn, cookie, LOGIN_COOKIE, newSecret, sameSecret, setCookie } from '../session';
import { consoleForm } from '../sign-in';
import { LINK_REFUSALS, setPasswordByLink, mailReset } from './service';
import { LINK_PATHS } from './mail';
import { ROLE_NAMES } from '../permissions';
import { PASSWORD_MIN_LENGTH } from '../../../core/passwords';

/**
 * The pages a person reaches without a session (docs/panel.md, "People"): asking for a reset link, and the one-time
 * links themselves (an invitation or a reset), each asking for the new password. Their forms carry the sign-in page's
 * double-submit token and count against the sign-in's per-address limit.
 */
const FORGOT = '/console/olvido';
const KIND_OF_PATH: Record<string, LinkKind> = { [LINK_PATHS.invite]: 'invite', [LINK_PATHS.reset]: 'reset' };
const TITLES: Record<LinkKind, string> = { invite: 'Aceptar la invitación', reset: 'Nueva contraseña' };

function publicPage(ctx: Context, deps: AppDeps, status: number, title: string, body: (csrf: string) => Html): void {
  const csrf = newSecret();
  setCookie(ctx, deps, LOGIN_COOKIE, csrf, 3600);
  writePage(ctx, status, page({ title }, body(csrf)));
}

/** Handles the path when it is one of these pages; false otherwise. */
export async function publicPeoplePage(ctx: Context, deps: AppDeps, path: string): Promise<boolean> {
  const kind = KIND_OF_PATH[path];
  if (path !== FORGOT && !kind) return false;
  if (ctx.method === 'GET' || ctx.method === 'HEAD') {
    if (kind) await linkForm(ctx, deps, kind, String(ctx.query.t ?? ''), null);
    else forgotForm(ctx, deps, 200, null);
    return true;
  }
  if (ctx.method !== 'POST') return false;
  const attempt = await admitSignIn(deps, ctx);
  if (!attempt.admitted) {
    ctx.set('Retry-After', String(attempt.resetSeconds));
    const text = `Demasiados intentos desde su conexión. Espere ${attempt.resetSeconds} segundos e inténtelo de nuevo.`;
    publicPage(ctx, deps, 429, 'Demasiados intentos', () => notice('refused', text));
    return true;
  }
  const form = await consoleForm(ctx);
  if (form instanceof FormError || !sameSecret(form.get('csrf'), cookie(ctx, LOGIN_COOKIE))) {
    const text = 'El formulario caducó o no vino de esta página: vuelva a cargarla.';
    publicPage(ctx, deps, 403, 'Solicitud rechazada', () => notice('refused', text));
    return true;
  }
  if (kind) await submitLink(ctx, deps, kind, form);
  else await submitForgot(ctx, deps, form);
  return true;
}

function forgotForm(ctx: Context, deps: AppDeps, status: number, message: Html | null): void {
  publicPage(
    ctx,
    deps,
    status,
    'Restablecer la contraseña',
    (csrf) =>
      html`${message}
        <form class="card" method="post" action="${FORGOT}">
          <input type="hidden" name="csrf" value="${csrf}" />
          <label for="email">Correo de su usuario</label>
          <input id="email" name="email" type="email" autocomplete="username" maxlength="254" required />
          <button type="submit">Enviarme un enlace</button>
        </form>
        <p><a href="/console/login">Volver a iniciar sesión</a></p>`,
  );
}

/** Answers the same whether or not the address has a user, at once: the e-mail goes out after the answer. */
async function submitForgot(ctx: Context, deps: AppDeps, form: URLSearchParams): Promise<void> {
  const email = (form.get('email') ?? '').trim().toLowerCase().slice(0, 254);
  const user = email ? await findUserByEmail(deps.db, email) : undefined;
  if (user)
    void mailReset(deps, user, ctx.ip || null).catch((err) => logger.error({ err }, 'password reset e-mail failed'));
  forgotForm(
    ctx,
    deps,
    200,
    notice('ok', 'Si esa dirección tiene un usuario, le enviamos un enlace para elegir una nueva contraseña.'),
  );
}

async function linkForm(ctx: Context, deps: AppDeps, kind: LinkKind, secret: string, problem: Html | null) {
  const link = await peekLink(deps.db, secret.slice(0, 100), kind, nowOf(deps));
  if (!link.ok) {
    const status = link.reason === 'unknown' ? 404 : 410;
    const again = kind === 'reset' ? html`<p><a href="${FORGOT}">Pedir otro enlace</a></p>` : '';
    return publicPage(
      ctx,
      deps,
      status,
      TITLES[kind],
      () => html`${notice('refused', LINK_REFUSALS[link.reason])}${again}`,
    );
  }
  const { user } = link;
  const invited =
    kind === 'invite'
      ? html`<p>
          Usuario <strong>${user.email}</strong> con el rol <strong>${ROLE_NAMES[user.role]}</strong>
          ${user.company_ids ? `en ${user.company_ids.length} empresa(s) de la cuenta` : 'en todas las empresas de la cuenta'}.
        </p>`
      : html`<p>Usuario <strong>${user.email}</strong>.</p>`;
  publicPage(
    ctx,
    deps,
    problem ? 400 : 200,
    TITLES[kind],
    (csrf) =>
      html`${invited}
        <form class="card" method="post" action="${LINK_PATHS[kind]}">
          <input type="hidden" name="csrf" value="${csrf}" />
          <input type="hidden" name="t" value="${secret}" />
          <label for="password">Nueva contraseña</label>
          <p class="hint" id="password-hint">
            Al menos ${PASSWORD_MIN_LENGTH} caracteres; una frase que recuerde sirve.
          </p>
          ${problem}
          <input
            id="password"
            name="password"
            type="password"
            autocomplete="new-password"
            required
            aria-describedby="password-hint"
          />
          <button type="submit">Guardar la contraseña</button>
        </form>`,
  );
}

async function submitLink(ctx: Context, deps: AppDeps, kind: LinkKind, form: URLSearchParams): Promise<void> {
  const secret = (form.get('t') ?? '').slice(0, 100);
  const outcome = await setPasswordByLink(deps, kind, secret, form.get('password') ?? '', ctx.ip || null);
  if (outcome.ok) {
    ctx.status = 303;
    return ctx.redirect('/console/login?listo=1');
  }
  if (outcome.field === 'password')
    return linkForm(ctx, deps, kind, secret, html`<p class="field-error" role="alert">${outcome.message}</p>`);
  return linkForm(ctx, deps, kind, secret, null);
}
