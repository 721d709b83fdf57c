import type { Context } from 'koa';
import type { AppDeps } from '../../deps';
import type { CompanyRow } from '../../../db/companies';
import { findSigningToken, listSigningTokens, type SigningTokenRow } from '../../../db/tokens';
import { ApiError } from '../../errors';
import { createSigningToken, revokeSigningToken, rollSigningToken, type NewSigningToken } from '../../companies/tokens';
import { ROLL_OVERLAPS, TOKEN_NAME_MAX, tokenNameSchema, validate, type RollOverlap } from '../../companies/schemas';
import { html, notice, table, type Html } from '../html';
import { consoleActor, type Viewer } from '../context';
import { limaLabelled, limaTime } from '../words';
import { companyPath, writeCompanyPage } from './frame';
import { csrfField, doneNotice, fieldError, secretOnce } from './secrets';

/** The tokens tab (docs/panel.md, "Tokens"): the company's signing tokens, created, revoked and rolled here. */

const OVERLAP_WORDS: Readonly<Record<RollOverlap, string>> = {
  '1h': '1 hora',
  '24h': '24 horas',
  '7d': '7 días',
  none: 'nada: deja de funcionar ya',
};
/** A roll by mistake should not stop a till: the longest common overlap is offered first. */
const DEFAULT_OVERLAP: RollOverlap = '24h';

const DONE_WORDS = { revocado: 'Token revocado: desde ahora responde 401.' };

const NAME_ERROR = `Escriba un nombre de 1 a ${TOKEN_NAME_MAX} caracteres, sin saltos de línea ni caracteres de control.`;

function tokenRow(viewer: Viewer, company: CompanyRow, t: SigningTokenRow): unknown[] {
  const base = `${companyPath(company.ruc, 'tokens')}/${t.id}`;
  const expires = t.expires_at ? limaTime(t.expires_at, false) : 'no vence';
  return [
    t.name ?? 'sin nombre',
    t.prefix ? html`<code>${t.prefix}…</code>` : '—',
    limaTime(t.created_at, false),
    t.last_used_at ? limaTime(t.last_used_at, false) : 'nunca',
    expires,
    html`<form method="post" action="${base}/revoke" class="inline">
        ${csrfField(viewer.session.csrf)}
        <button type="submit" class="secondary">Revocar ya</button>
      </form>
      <form method="post" action="${base}/roll" class="inline">
        ${csrfField(viewer.session.csrf)}
        <label for="roll-${t.id}">Rotar: el actual sigue</label>
        <select id="roll-${t.id}" name="expires_in">
          ${Object.entries(OVERLAP_WORDS).map(
            ([value, label]) =>
              html`<option value="${value}" ${value === DEFAULT_OVERLAP ? html`selected` : ''}>${label}</option>`,
          )}
        </select>
        <button type="submit" class="secondary">Rotar</button>
      </form>`,
  ];
}

async function tokensBody(
  deps: AppDeps,
  viewer: Viewer,
  company: CompanyRow,
  top: Html | string,
  nameError: string | null = null,
  typed = '',
): Promise<Html> {
  const tokens = await listSigningTokens(deps.db, company.id);
  return html`${top}
    <p>
      Un token de firma (<code>cpe:sign</code>) emite documentos de esta empresa desde su sistema. Se muestra una sola
      vez al crearlo; aquí queda su nombre y su prefijo. Rotar crea uno nuevo con el mismo nombre y deja el actual
      funcionando el tiempo que elija, para cambiarlo sin cortar la emisión.
    </p>
    ${
      tokens.length
        ? table(
            'Tokens que funcionan (horas de Lima)',
            ['Nombre', 'Prefijo', 'Creado', 'Último uso', 'Vence', 'Acciones'],
            tokens.map((t) => tokenRow(viewer, company, t)),
          )
        : notice('info', 'Esta empresa no tiene tokens de firma que funcionen.')
    }
    <h2>Crear un token</h2>
    <form method="post" action="${companyPath(company.ruc, 'tokens')}" class="card">
      ${csrfField(viewer.session.csrf)}
      <label for="token-name">Nombre del token</label>
      <p class="hint" id="token-name-hint">Para reconocerlo después, por ejemplo «caja 1» o «tienda en línea».</p>
      <input
        id="token-name"
        name="name"
        maxlength="${TOKEN_NAME_MAX}"
        value="${typed}"
        required
        aria-describedby="token-name-hint${nameError ? ' token-name-error' : ''}"
      />
      ${fieldError('token-name-error', nameError)}
      <button type="submit">Crear token</button>
    </form>`;
}

const write = async (
  ctx: Context,
  deps: AppDeps,
  viewer: Viewer,
  company: CompanyRow,
  top: Html | string,
  status = 200,
  nameError: string | null = null,
  typed = '',
) =>
  writeCompanyPage(
    ctx,
    viewer,
    company,
    'tokens',
    await tokensBody(deps, viewer, company, top, nameError, typed),
    status,
  );

const shown = (made: NewSigningToken, after: Html | string = '') =>
  secretOnce(`Token «${made.row.name ?? 'sin nombre'}»`, made.token, after);

const ACTION = /^([0-9a-f-]{36})\/(revoke|roll)$/;

/** Registered in routes.ts's PANEL_PAGES (typed there: importing its type here would be a cycle). */
export const tokensPage = {
  async get(ctx: Context, deps: AppDeps, viewer: Viewer, company: CompanyRow, rest: string) {
    if (rest) return write(ctx, deps, viewer, company, notice('refused', 'Esta página no existe.'), 404);
    return write(ctx, deps, viewer, company, doneNotice(ctx.query.hecho, DONE_WORDS));
  },

  async post(ctx: Context, deps: AppDeps, viewer: Viewer, company: CompanyRow, form: URLSearchParams, rest: string) {
    const actor = consoleActor(ctx, viewer.session);
    if (!rest) {
      const typed = (form.get('name') ?? '').slice(0, TOKEN_NAME_MAX * 2);
      let name: string;
      try {
        ({ name } = validate<{ name: string }>(tokenNameSchema, { name: typed }));
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
        return write(ctx, deps, viewer, company, '', 422, NAME_ERROR, typed);
      }
      return write(ctx, deps, viewer, company, shown(await createSigningToken(deps, company, name, actor)));
    }
    const [, id, action] = ACTION.exec(rest) ?? [];
    const token = id ? await findSigningToken(deps.db, company.id, id) : undefined;
    if (!token)
      return write(ctx, deps, viewer, company, notice('refused', 'Ese token no existe o ya no funciona.'), 404);
    if (action === 'revoke') {
      await revokeSigningToken(deps, company, token, actor);
      ctx.status = 303;
      return ctx.redirect(`${companyPath(company.ruc, 'tokens')}?hecho=revocado`);
    }
    const overlap = form.get('expires_in') ?? '';
    if (!Object.hasOwn(ROLL_OVERLAPS, overlap))
      return write(
        ctx,
        deps,
        viewer,
        company,
        notice('refused', 'Elija cuánto tiempo sigue funcionando el actual.'),
        422,
      );
    const rolled = await rollSigningToken(deps, company, token, overlap as RollOverlap, actor);
    const until =
      overlap === 'none'
        ? 'El token anterior ya no funciona.'
        : `El token anterior funciona hasta el ${limaLabelled(rolled.oldExpiresAt)}; después responde 401.`;
    return write(ctx, deps, viewer, company, shown(rolled, html`<p>${until}</p>`));
  },
};
