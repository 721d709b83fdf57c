import type { Context } from 'koa';
import type { AppDeps } from '../../deps';
import { listAudit, type AuditRow, type FieldChange } from '../../../db/audit';
import { listCompanies } from '../../../db/companies';
import { html, notice, page, table } from '../html';
import { writePage, type Viewer } from '../context';
import { companyLimit, ROLE_NAMES } from '../permissions';
import { limaTime } from '../words';
import { actionWord, fieldWord, valueWord } from '../panel/company-words';
import { ACTOR_KINDS } from '../panel/history';

/**
 * The audit log's reading side in the console (docs/panel.md, "People"): an account's changes, newest first, a page at
 * a time, optionally one company's; and the same as CSV. A user limited to some companies reads their rows alone.
 */
const PAGE_SIZE = 50;
const CSV_MAX_ROWS = 50_000;

/** What each action of people is called on the page; a company's actions are the panel's history's words. */
const ACTION_WORDS: Record<string, string> = {
  'user.invite': 'Invitó a un usuario',
  'user.accept': 'Aceptó la invitación',
  'user.role': 'Cambió un rol',
  'user.remove': 'Quitó a un usuario',
  'user.password_reset': 'Restableció su contraseña',
  'user.reset_requested': 'Pidió restablecer la contraseña',
  'user.sign_in': 'Inició sesión',
  'user.second_factor': 'Confirmó el segundo factor',
  'user.totp_enable': 'Activó el segundo factor',
  'user.totp_reset': 'Quitó el segundo factor de un usuario',
  'account.sign_in': 'Entró con el token de cuenta',
  'account.people': 'Cambió los ajustes de usuarios',
};

export const actionWords = (action: string) => ACTION_WORDS[action] ?? actionWord(action);

/** The people's fields and values in the page's words; a company's are the panel's history's. */
const FIELD_WORDS: Record<string, string> = {
  email: 'correo',
  role: 'rol',
  companies: 'empresas',
  password: 'contraseña',
  second_factor: 'segundo factor',
  method: 'con',
  totp: 'segundo factor',
  recovery_codes: 'códigos de recuperación',
  require_two_factor: 'exigir segundo factor',
  token_console: 'token de cuenta en la consola',
};
const VALUE_WORDS: Record<string, string> = {
  ...ROLE_NAMES,
  none: 'ninguno',
  enrol: 'activarlo',
  totp: 'código de la aplicación',
  recovery: 'código de recuperación',
  true: 'sí',
  false: 'no',
};

function shown(field: string, value: unknown, words: boolean): string {
  if (value === undefined || value === null) return '—';
  if (Array.isArray(value)) return value.map((v) => shown(field, v, words)).join(', ');
  const text = String(value);
  return words
    ? (VALUE_WORDS[text] ?? valueWord(field, value))
    : typeof value === 'string'
      ? text
      : JSON.stringify(value);
}

/** `campo: antes → después` for each field changed (secrets were masked by the writer); `words`: the page's Spanish. */
export const changesText = (changes: Record<string, FieldChange>, words = false) =>
  Object.entries(changes)
    .map(
      ([f, c]) =>
        `${words ? (FIELD_WORDS[f] ?? fieldWord(f)) : f}: ${shown(f, c.from, words)} → ${shown(f, c.to, words)}`,
    )
    .join('; ');

interface AuditQuery {
  accountId: string;
  companyId?: string;
  companyIds?: string[];
}

/** The query a request asks for: the session's account, its limit, and the company of `?empresa=RUC` when it may see it. */
async function auditQuery(ctx: Context, deps: AppDeps, viewer: Viewer): Promise<AuditQuery | null> {
  const accountId = (viewer.session.principal as { accountId: string }).accountId;
  const limit = companyLimit(viewer.session.principal);
  const ruc = String(ctx.query.empresa ?? '');
  if (!ruc) return { accountId, ...(limit ? { companyIds: limit } : {}) };
  const company = (await listCompanies(deps.db, accountId, { limit: 10_000 })).find((c) => c.ruc === ruc);
  if (!company || (limit && !limit.includes(company.id))) return null;
  return { accountId, companyId: company.id };
}

export async function auditPage(ctx: Context, deps: AppDeps, viewer: Viewer): Promise<void> {
  const query = await auditQuery(ctx, deps, viewer);
  const before = /^\d{1,18}$/.test(String(ctx.query.antes ?? '')) ? String(ctx.query.antes) : undefined;
  if (!query) {
    const body = html`${notice('refused', 'No hay una empresa con ese RUC que usted pueda ver.')}
      <p><a href="/console/audit">Ver todo el registro</a></p>`;
    return writePage(ctx, 404, page(viewer.frame('Auditoría', 'audit'), body));
  }
  const rows = await listAudit(deps.db, { ...query, before, limit: PAGE_SIZE + 1 });
  const more = rows.length > PAGE_SIZE ? rows[PAGE_SIZE - 1].id : null;
  const ruc = String(ctx.query.empresa ?? '');
  const params = (extra: Record<string, string>) => new URLSearchParams({ ...(ruc ? { empresa: ruc } : {}), ...extra });
  const cells = rows
    .slice(0, PAGE_SIZE)
    .map((r) => [
      limaTime(r.at),
      `${r.actor} (${ACTOR_KINDS[r.actor_kind] ?? r.actor_kind})`,
      r.address ?? '—',
      actionWords(r.action),
      r.company_ruc ?? '—',
      changesText(r.changes, true) || '—',
    ]);
  writePage(
    ctx,
    200,
    page(
      viewer.frame('Auditoría', 'audit'),
      html`<form class="card search" method="get" action="/console/audit">
          <label for="empresa">RUC de una empresa</label>
          <input id="empresa" name="empresa" inputmode="numeric" maxlength="11" value="${ruc}" />
          <button type="submit">Filtrar</button>
        </form>
        <p><a href="/console/audit.csv?${params({})}">Descargar en CSV</a></p>
        ${
          cells.length
            ? table(
                'Cambios, del más reciente (hora de Lima)',
                ['Fecha', 'Quién', 'Desde', 'Qué', 'Empresa', 'Cambios'],
                cells,
              )
            : html`<p>Nada registrado todavía.</p>`
        }
        ${more ? html`<p><a href="/console/audit?${params({ antes: more })}">Más antiguos</a></p>` : ''}`,
    ),
  );
}

/** A CSV cell: quoted, and a leading = + - @ defused so a spreadsheet never runs it as a formula. */
const cell = (value: string) => `"${(/^[=+\-@\t\r]/.test(value) ? `'${value}` : value).replace(/"/g, '""')}"`;

export const auditCsvLine = (r: AuditRow) =>
  [r.at.toISOString(), r.actor_kind, r.actor, r.address ?? '', r.action, r.company_ruc ?? '', changesText(r.changes)]
    .map(cell)
    .join(',');

export async function auditCsv(ctx: Context, deps: AppDeps, viewer: Viewer): Promise<void> {
  const query = await auditQuery(ctx, deps, viewer);
  if (!query) return auditPage(ctx, deps, viewer);
  const lines = ['"at","actor_kind","actor","address","action","company_ruc","changes"'];
  let before: string | undefined;
  while (lines.length <= CSV_MAX_ROWS) {
    const rows = await listAudit(deps.db, { ...query, before, limit: 1000 });
    lines.push(...rows.map(auditCsvLine));
    if (rows.length < 1000) break;
    before = rows[rows.length - 1].id;
  }
  ctx.type = 'text/csv; charset=utf-8';
  ctx.set('Content-Disposition', 'attachment; filename="auditoria.csv"');
  ctx.body = `${lines.join('\r\n')}\r\n`;
}
