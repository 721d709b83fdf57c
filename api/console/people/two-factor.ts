import type { Context } from 'koa';
import QRCode from 'qrcode';
import { nowOf, type AppDeps } from '../../deps';
import { recordChange, secretChange } from '../../../db/audit';
import { settleSecondFactor, type ConsoleSession } from '../../../db/console-sessions';
import { admitKeyed } from '../../../db/rate-limits';
import {
  advanceTotpStep,
  enableTotp,
  findUser,
  recordFailedSignIn,
  recordSignIn,
  replaceRecoveryCodes,
  useRecoveryCode,
  type UserRow,
} from '../../../db/users';
import { matchTotp, newTotpSecret, otpauthUri } from '../../../core/totp';
import { html, notice, page, raw, type Html } from '../html';
import { consoleActor, writePage, type Viewer } from '../context';
import { SECOND_FACTOR_PATHS } from './paths';

/**
 * The second factor (docs/panel.md, "People"): enrolment of a TOTP app by a QR drawn here as inline SVG (no script, no
 * image fetched), ten recovery codes shown once, and the code asked at sign-in and again before a sensitive change
 * (`needsStepUp`). Codes are tried at most five times in five minutes per user, and failures count towards its lockout.
 */
const CODE_RATE = { limit: 5, windowSeconds: 300 };

/** A path to come back to after the code: one of the console's own, never another site's. */
const backTo = (value: unknown) =>
  typeof value === 'string' && /^\/console\/[A-Za-z0-9/_-]*$/.test(value) ? value : '/console/documents';

/** Whether a user's sensitive change must first give its second factor again (none yet, or too long ago). */
export function needsStepUp(deps: AppDeps, session: ConsoleSession): boolean {
  if (session.principal.kind !== 'user') return false;
  const at = session.secondFactorAt?.getTime();
  return at === undefined || nowOf(deps).getTime() - at > deps.config.people.stepUpSeconds * 1000;
}

/** Sends a session to give its second factor, and back to `path` afterwards (its form sent again by the person). */
export function askStepUp(ctx: Context, path: string): void {
  ctx.status = 303;
  ctx.redirect(`${SECOND_FACTOR_PATHS.totp}?volver=${encodeURIComponent(path)}`);
}

/** The QR of `text` as inline SVG: one square per dark module, a quiet zone of two. */
function qrSvg(text: string): Html {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const size = modules.size + 4;
  let path = '';
  for (let row = 0; row < modules.size; row++)
    for (let col = 0; col < modules.size; col++) if (modules.get(row, col)) path += `M${col + 2} ${row + 2}h1v1h-1z`;
  return raw(
    `<svg class="qr" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${size} ${size}" role="img" aria-label="Código QR para su aplicación de autenticación" shape-rendering="crispEdges"><rect width="${size}" height="${size}" fill="#fff"/><path d="${path}" fill="#000"/></svg>`,
  );
}

/** One request to a people page: who asks, and the posted form (null for a GET). */
export interface PeopleCall {
  ctx: Context;
  deps: AppDeps;
  session: ConsoleSession;
  viewer: Viewer;
  form: URLSearchParams | null;
}

/** Handles the second factor's pages for a user's session; false for any other path or principal. */
export async function secondFactorPage(call: PeopleCall, path: string): Promise<boolean> {
  const { ctx, deps, session, viewer, form } = call;
  const { principal } = session;
  if (principal.kind !== 'user' || !Object.values(SECOND_FACTOR_PATHS).includes(path as never)) return false;
  const user = (await findUser(deps.db, principal.accountId, principal.userId))!;
  const enrolling = path === SECOND_FACTOR_PATHS.enrol;
  if (enrolling && user.totp_enabled_at) ctx.redirect(SECOND_FACTOR_PATHS.totp);
  else if (!enrolling && !user.totp_enabled_at) ctx.redirect(SECOND_FACTOR_PATHS.enrol);
  else if (enrolling) await (form ? confirmEnrolment(call, user, form) : enrolForm(ctx, deps, viewer, user));
  else if (form) await checkCode(call, user, form);
  else codeForm(ctx, viewer, backTo(ctx.query.volver), 200, null);
  return true;
}

function codeForm(ctx: Context, viewer: Viewer, back: string, status: number, problem: string | null): void {
  writePage(
    ctx,
    status,
    page(
      viewer.frame('Segundo factor'),
      html`${back === '/console/documents' ? '' : notice('info', 'Esta acción pide de nuevo su segundo factor. Después vuelva a enviar el formulario.')}
        <form class="card" method="post" action="${SECOND_FACTOR_PATHS.totp}">
          <input type="hidden" name="csrf" value="${viewer.session.csrf}" />
          <input type="hidden" name="volver" value="${back}" />
          <label for="code">Código de su aplicación</label>
          <p class="hint" id="code-hint">Los 6 dígitos que muestra ahora, o uno de sus códigos de recuperación.</p>
          ${problem ? html`<p class="field-error" role="alert">${problem}</p>` : ''}
          <input
            id="code"
            name="code"
            autocomplete="one-time-code"
            inputmode="numeric"
            maxlength="20"
            required
            aria-describedby="code-hint"
          />
          <button type="submit">Confirmar</button>
        </form>`,
    ),
  );
}

async function checkCode({ ctx, deps, session, viewer }: PeopleCall, user: UserRow, form: URLSearchParams) {
  const back = backTo(form.get('volver'));
  const at = nowOf(deps);
  const attempt = await admitKeyed(deps.db, `console-2fa:${user.id}`, CODE_RATE.limit, CODE_RATE.windowSeconds);
  if (!attempt.admitted) {
    ctx.set('Retry-After', String(attempt.resetSeconds));
    return codeForm(ctx, viewer, back, 429, `Demasiados códigos probados: espere ${attempt.resetSeconds} segundos.`);
  }
  if (user.locked_until && user.locked_until > at)
    return codeForm(
      ctx,
      viewer,
      back,
      429,
      'Usuario bloqueado por intentos fallidos: espere o restablezca su contraseña.',
    );
  const code = (form.get('code') ?? '').replace(/\s+/g, '').slice(0, 20);
  const secret = deps.secrets.open(user.totp_secret_sealed!);
  const step = matchTotp(secret, code, at.getTime(), user.totp_last_step ? BigInt(user.totp_last_step) : null);
  const method =
    step !== null && (await advanceTotpStep(deps.db, user.id, step))
      ? 'totp'
      : /^[0-9a-f]{5}-[0-9a-f]{5}$/i.test(code) && (await useRecoveryCode(deps.db, user.id, code, at))
        ? 'recovery'
        : null;
  if (!method) {
    await recordFailedSignIn(deps.db, user.id, at);
    return codeForm(ctx, viewer, back, 401, 'Ese código no es válido (o ya se usó). Pruebe con el siguiente.');
  }
  await recordSignIn(deps.db, user.id);
  await settleSecondFactor(deps.db, session.idHash, at);
  await recordChange(deps.db, {
    accountId: user.account_id,
    actor: consoleActor(ctx, session),
    action: 'user.second_factor',
    changes: { method: { to: method } },
  });
  ctx.status = 303;
  ctx.redirect(back);
}

function enrolForm(
  ctx: Context,
  deps: AppDeps,
  viewer: Viewer,
  user: UserRow,
  problem?: string,
  sealed?: string,
): void {
  const secret = sealed ? deps.secrets.open(sealed) : newTotpSecret();
  const uri = otpauthUri(secret, 'chasqui', user.email);
  writePage(
    ctx,
    problem ? 400 : 200,
    page(
      viewer.frame('Activar el segundo factor'),
      html`<p>
          Escanee el código con su aplicación de autenticación (Google Authenticator, Microsoft Authenticator,
          1Password…).
        </p>
        ${qrSvg(uri)}
        <p class="hint">
          ¿No puede escanear? Escriba esta clave en la aplicación: <code class="secret">${secret}</code>
        </p>
        <form class="card" method="post" action="${SECOND_FACTOR_PATHS.enrol}">
          <input type="hidden" name="csrf" value="${viewer.session.csrf}" />
          <input type="hidden" name="clave" value="${sealed ?? deps.secrets.seal(secret)}" />
          <label for="code">Código que muestra la aplicación</label>
          ${problem ? html`<p class="field-error" role="alert">${problem}</p>` : ''}
          <input id="code" name="code" autocomplete="one-time-code" inputmode="numeric" maxlength="6" required />
          <button type="submit">Activar</button>
        </form>`,
    ),
  );
}

/**
 * Enrols the app whose code matches the secret of the form (sealed with the master key: a browser cannot choose its
 * own), replaces the recovery codes, and shows them once, on this answer only.
 */
async function confirmEnrolment({ ctx, deps, session, viewer }: PeopleCall, user: UserRow, form: URLSearchParams) {
  const sealed = (form.get('clave') ?? '').slice(0, 500);
  let secret: string;
  try {
    secret = deps.secrets.open(sealed);
  } catch {
    return enrolForm(ctx, deps, viewer, user, 'El formulario no es válido: vuelva a cargar la página.');
  }
  const at = nowOf(deps);
  const step = matchTotp(secret, (form.get('code') ?? '').trim(), at.getTime(), null);
  if (step === null)
    return enrolForm(ctx, deps, viewer, user, 'Ese código no coincide: escriba el que muestra ahora.', sealed);
  const codes = await deps.db.transaction(async (trx) => {
    await enableTotp(trx, user.id, deps.secrets.seal(secret), step, at);
    await recordChange(trx, {
      accountId: user.account_id,
      actor: consoleActor(ctx, session),
      action: 'user.totp_enable',
      changes: { totp: secretChange(null, true), recovery_codes: secretChange(null, true) },
    });
    return replaceRecoveryCodes(trx, user.id);
  });
  await settleSecondFactor(deps.db, session.idHash, at);
  writePage(
    ctx,
    200,
    page(
      viewer.frame('Segundo factor activado'),
      html`${notice('ok', 'Segundo factor activado.')}
        <p>
          Sus códigos de recuperación: cada uno sirve una vez si pierde el teléfono. Guárdelos ahora: no se muestran de
          nuevo.
        </p>
        <ul class="codes">
          ${codes.map((c) => html`<li><code>${c}</code></li>`)}
        </ul>
        <p><a class="button" href="/console/documents">Continuar</a></p>`,
    ),
  );
}
