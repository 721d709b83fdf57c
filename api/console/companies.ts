import type { Context } from 'koa';
import type { AppDeps } from '../deps';
import { listCompanies } from '../../db/companies';
import { listCheckRows, worstFirst, type CheckRow } from '../../db/company-checks';
import { html, notice, page, table } from './html';
import { scopeOf, writePage, type Viewer } from './context';
import { companyLimit } from './permissions';
import { CHECK_NAMES, CHECK_WORDS, destinationWord } from './words';
import { isMessage, spanish } from '../../lifecycle/messages';

const daysLeft = (fields: Record<string, unknown>) =>
  typeof fields.days_left === 'number' ? ` (vence en ${fields.days_left} días)` : '';

/** Why a check is not fine, in Spanish (its `detail` is the API's English); a result recorded before says its days only. */
const reasonOf = (k: CheckRow) => (isMessage(k.message) ? ` ${spanish(k.message)}` : daysLeft(k.fields));

/** The companies the session sees, with the checks that are not fine (worst first). */
export async function companiesPage(ctx: Context, deps: AppDeps, viewer: Viewer): Promise<void> {
  const limit = companyLimit(viewer.session.principal);
  const companies = (await listCompanies(deps.db, scopeOf(viewer.session), { limit: 500 })).filter(
    (c) => !limit || limit.includes(c.id),
  );
  const checks = await listCheckRows(
    deps.db,
    companies.map((c) => c.id),
  );
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
    html`<span class="number">${c.ruc}</span>`,
    c.business_name,
    c.environment === '02' ? 'producción' : 'demo',
    destinationWord(c.destination),
    `${c.sending_mode === 'manual' ? 'manual' : 'automático'}; boletas ${c.receipts_mode === 'summary' ? 'por resumen' : 'una a una'}`,
    c.webhook_url ? 'sí' : 'no',
    c.active ? 'activa' : 'inactiva',
    checksOf(c.id),
  ]);
  writePage(
    ctx,
    200,
    page(
      viewer.frame('Empresas', 'companies'),
      companies.length
        ? table(
            `${companies.length} empresa(s)`,
            ['RUC', 'Razón social', 'Entorno', 'Destino', 'Envío', 'Webhook', 'Estado', 'Verificaciones'],
            rows,
          )
        : notice('info', 'No hay empresas.'),
    ),
  );
}
