import type { Context } from 'koa';
import type { AppDeps } from '../deps';
import { listCompanies, type CompanyRow } from '../../db/companies';
import { companiesPending, type ChecklistItem } from '../companies/onboarding';
import { companyPath } from './panel/frame';
import { CHECKLIST_ITEMS } from './panel/company-words';
import { createForm } from './panel/create-company';
import { listCheckRows, worstFirst, type CheckRow } from '../../db/company-checks';
import { html, notice, page, table, type Html } from './html';
import { scopeOf, writePage, type Viewer } from './context';
import { companyLimit } from './permissions';
import { CHECK_NAMES, CHECK_WORDS, destinationWord } from './words';
import { isMessage, spanish } from '../../lifecycle/messages';

const daysLeft = (fields: Record<string, unknown>) =>
  typeof fields.days_left === 'number' ? ` (vence en ${fields.days_left} días)` : '';

/** Why a check is not fine, in Spanish (its `detail` is the API's English); a result recorded before says its days only. */
const reasonOf = (k: CheckRow) => (isMessage(k.message) ? ` ${spanish(k.message)}` : daysLeft(k.fields));

/** What a company still lacks before production, by name: the account holder's glance, a link to its checklist. */
function pendingOf(company: CompanyRow, pending: ChecklistItem[] | undefined): Html | string {
  if (!pending?.length) return 'nada para producción';
  return html`<a href="${companyPath(company.ruc)}"
    >falta: ${pending.map((item) => CHECKLIST_ITEMS[item.id].title).join(', ')}</a
  >`;
}

function doneNotice(ctx: Context): Html | null {
  const ruc = String(ctx.query.ruc ?? '');
  return ctx.query.hecho === 'eliminada' && /^\d{11}$/.test(ruc)
    ? notice('ok', `Se eliminó la empresa con RUC ${ruc}; sus tokens de firma quedaron revocados.`)
    : null;
}

/**
 * The companies the session sees, with the checks that are not fine (worst first); an account holder's also say
 * what each lacks before production, link to each company's pages and end with the creation form.
 */
export async function companiesPage(ctx: Context, deps: AppDeps, viewer: Viewer): Promise<void> {
  const accountId = scopeOf(viewer.session);
  const limit = companyLimit(viewer.session.principal);
  const companies = (await listCompanies(deps.db, accountId, { limit: 500 })).filter(
    (c) => !limit || limit.includes(c.id),
  );
  const checks = await listCheckRows(
    deps.db,
    companies.map((c) => c.id),
  );
  const pending = accountId ? await companiesPending(deps, accountId, companies, checks) : null;
  const checksOf = (companyId: string) => {
    const own = checks.filter((k) => k.company_id === companyId);
    if (!own.length) return 'sin verificar';
    const bad = worstFirst(own).filter((k) => k.status !== 'ok');
    return bad.length
      ? bad.map(
          (k) =>
            html`<p class="check-reason">
              <span class="check ${k.status}">${CHECK_NAMES[k.check]}: ${CHECK_WORDS[k.status]}</span>${reasonOf(k)}
            </p>`,
        )
      : 'todo bien';
  };
  const rows = companies.map((c) => [
    pending
      ? html`<a href="${companyPath(c.ruc)}" class="number">${c.ruc}</a>`
      : html`<span class="number">${c.ruc}</span>`,
    c.business_name,
    c.environment === '02' ? 'producción' : 'demo',
    destinationWord(c.destination),
    `${c.sending_mode === 'manual' ? 'manual' : 'automático'}; boletas ${c.receipts_mode === 'summary' ? 'por resumen' : 'una a una'}`,
    c.webhook_url ? 'sí' : 'no',
    pending ? pendingOf(c, pending.get(c.id)) : c.active ? 'activa' : 'inactiva',
    checksOf(c.id),
  ]);
  writePage(
    ctx,
    200,
    page(
      viewer.frame('Empresas', 'companies'),
      html`${doneNotice(ctx)}${
        companies.length
          ? table(
              `${companies.length} empresa(s)`,
              [
                'RUC',
                'Razón social',
                'Entorno',
                'Destino',
                'Envío',
                'Webhook',
                pending ? 'Pendiente' : 'Estado',
                'Verificaciones',
              ],
              rows,
            )
          : notice('info', 'No hay empresas.')
      }${createForm(viewer)}`,
    ),
  );
}
