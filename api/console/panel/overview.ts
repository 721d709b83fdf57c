import type { Context } from 'koa';
import Decimal from 'decimal.js';
import type { AppDeps } from '../../deps';
import { findCompanyById, type CompanyRow } from '../../../db/companies';
import { ApiError } from '../../errors';
import { companyOverview, readyFor, type ChecklistItem } from '../../companies/onboarding';
import { deleteCompany } from '../../companies/registration';
import { html, notice, raw, type Html } from '../html';
import { consoleActor, type Viewer } from '../context';
import { mayDo, rolesFor } from '../permissions';
import { day, limaLabelled } from '../words';
import { companyPath, writeCompanyPage, type PanelPage } from './frame';
import { CHECKLIST_ITEMS, CHECKLIST_LEVELS, CHECKLIST_STATES } from './company-words';
import { companyHistory } from './history';
import { csrfField } from './fields';

/**
 * The company's overview (issue 42 items 2 and 9, docs/panel.md): the onboarding checklist, this month's usage, the
 * recent history, and the company's deletion (what it revokes said first; one with production documents stays).
 */

function checklistItem(company: CompanyRow, item: ChecklistItem): Html {
  const words = CHECKLIST_ITEMS[item.id];
  const title = words.tab ? html`<a href="${companyPath(company.ruc, words.tab)}">${words.title}</a>` : words.title;
  return html`<li class="checklist-item" id="item-${item.id}">
    <span class="check ${item.state}">${CHECKLIST_STATES[item.state]}</span>
    <strong>${title}</strong> · ${CHECKLIST_LEVELS[item.level]}
    <p class="hint">${words.says}</p>
  </li>`;
}

function checklist(company: CompanyRow, items: ChecklistItem[]): Html {
  const first = readyFor(items, ['first']);
  const production = readyFor(items, ['first', 'production']);
  return html`<section aria-labelledby="checklist">
    <h2 id="checklist">Puesta en marcha</h2>
    <p>
      ${first ? 'Puede emitir su primer documento.' : 'Falta algo para su primer documento aceptado.'}
      ${production ? 'Nada le falta para producción.' : 'Le falta algo para producción.'}
    </p>
    <ul class="plain checklist">
      ${items.map((item) => checklistItem(company, item))}
    </ul>
  </section>`;
}

type Overview = Awaited<ReturnType<typeof companyOverview>>;

function usage(company: CompanyRow, { record, usage: u }: Overview): Html {
  const certificate = record.certificate;
  return html`<section aria-labelledby="usage">
    <h2 id="usage">Uso de este mes</h2>
    <dl class="facts">
      <dt>Documentos firmados en producción</dt>
      <dd>${u.month.production}</dd>
      <dt>Documentos de prueba (demo)</dt>
      <dd>${u.month.demo}, no consumen saldo</dd>
      ${
        company.plan_type === '01'
          ? html`<dt>Saldo de firmas de la cuenta</dt>
              <dd>${new Decimal(u.quotaLeft).toFixed(2)} (plan 01: lo comparten las empresas de la cuenta)</dd>`
          : html`<dt>Vigencia del certificado</dt>
              <dd>
                ${
                  certificate
                    ? html`${
                        u.certificateFirstUsedAt
                          ? `desde su primera firma en producción, ${limaLabelled(u.certificateFirstUsedAt)}`
                          : 'empieza con su primera firma en producción'
                      };
                      válido del ${day(certificate.valid_from)} al ${day(certificate.valid_to)}`
                    : 'plan 02 sin certificado asignado'
                }
              </dd>`
      }
    </dl>
  </section>`;
}

function deletion(viewer: Viewer, company: CompanyRow, error: string | null): Html {
  if (!mayDo(viewer.session.principal, 'companies.delete', company.id))
    return html`<p class="hint">Eliminar la empresa necesita el rol ${rolesFor('companies.delete')}.</p>`;
  if (company.production_documents > 0)
    return html`<p>
      No se puede eliminar: tiene ${company.production_documents} documentos emitidos o enviados en producción, que son
      su registro tributario.
    </p>`;
  return html`<p>
      Al eliminarla se revocan todos sus tokens de
      firma${company.certificate_id ? ' y se quita su certificado (uno propio se borra con su clave)' : ''}; sus
      documentos de prueba se borran con ella. No se puede deshacer.
    </p>
    <form class="card" method="post" action="${companyPath(company.ruc)}">
      ${csrfField(viewer)}<input type="hidden" name="accion" value="eliminar" />
      <label class="choice"
        ><input type="checkbox" name="confirmo" value="si" required ${raw(error ? 'aria-invalid="true"' : '')} />
        Entiendo que se revocan sus tokens y que no se puede deshacer</label
      >
      ${error ? html`<p class="field-error">${error}</p>` : ''}
      <button type="submit" class="danger">Eliminar la empresa</button>
    </form>`;
}

async function overviewPage(
  ctx: Context,
  deps: AppDeps,
  viewer: Viewer,
  company: CompanyRow,
  status = 200,
  refusal: { notice?: string; confirm?: string } = {},
): Promise<void> {
  const overview = await companyOverview(deps, company);
  writeCompanyPage(
    ctx,
    viewer,
    company,
    'overview',
    html`${refusal.notice ? notice('refused', refusal.notice) : ''}${checklist(company, overview.checklist)}
      ${usage(company, overview)}
      <section aria-labelledby="history">
        <h2 id="history">Historial reciente</h2>
        ${
          mayDo(viewer.session.principal, 'audit.read', company.id)
            ? await companyHistory(deps, company)
            : html`<p class="hint">Ver el historial necesita el rol ${rolesFor('audit.read')}.</p>`
        }
      </section>
      <section aria-labelledby="delete">
        <h2 id="delete">Eliminar la empresa</h2>
        ${deletion(viewer, company, refusal.confirm ?? null)}
      </section>`,
    status,
  );
}

export const overview: PanelPage = {
  get: (ctx, deps, viewer, company) => overviewPage(ctx, deps, viewer, company),
  async post(ctx, deps, viewer, company, form) {
    // Deleting is the overview's only form.
    if (form.get('accion') !== 'eliminar')
      return overviewPage(ctx, deps, viewer, company, 422, { notice: 'Esa acción no existe en esta página.' });
    if (!mayDo(viewer.session.principal, 'companies.delete', company.id)) {
      const needs = `Su rol no permite eliminar la empresa: necesita el rol ${rolesFor('companies.delete')}.`;
      return overviewPage(ctx, deps, viewer, company, 403, { notice: needs });
    }
    if (form.get('confirmo') !== 'si') {
      const confirm = 'Marque la casilla para confirmar que entiende lo que se revoca.';
      return overviewPage(ctx, deps, viewer, company, 422, { confirm });
    }
    try {
      await deleteCompany(deps, company, consoleActor(ctx, viewer.session));
    } catch (err) {
      if (!(err instanceof ApiError) || err.status !== 422) throw err;
      // Issued in production since this request read the company: the row read now says how many.
      const now = (await findCompanyById(deps.db, company.id)) ?? company;
      return overviewPage(ctx, deps, viewer, now, 422, {
        notice: 'No se puede eliminar: la empresa tiene documentos emitidos o enviados en producción.',
      });
    }
    ctx.status = 303;
    ctx.redirect(`/console/companies?hecho=eliminada&ruc=${company.ruc}`);
  },
};
