import type { Context } from 'koa';
import type { AppDeps } from '../../deps';
import type { CompanyRow } from '../../../db/companies';
import type { ConsoleSession } from '../../../db/console-sessions';
import { html, page } from '../html';
import { writePage, type Viewer } from '../context';
import { mayDo } from '../permissions';
import { COMPANY_TABS, companyPath, panelCompany, refusedPage, type CompanyTab } from './frame';
import { askStepUp, needsStepUp } from '../people/two-factor';

/** A company page of the panel: what GET shows and what its form's POST does (`rest`: the path after the tab). */
export interface PanelPage {
  get(ctx: Context, deps: AppDeps, viewer: Viewer, company: CompanyRow, rest: string): Promise<void>;
  post?(
    ctx: Context,
    deps: AppDeps,
    viewer: Viewer,
    company: CompanyRow,
    form: URLSearchParams,
    rest: string,
  ): Promise<void>;
}

/** Each tab's module, registered here. */
const PANEL_PAGES: Partial<Record<CompanyTab, PanelPage>> = {};

/** The tabs whose changes ask a user for its second factor again (CHASQUI_STEP_UP_MINUTES). */
const STEP_UP_TABS: readonly CompanyTab[] = ['credentials', 'certificate', 'tokens'];

const COMPANY_PAGE = /^\/console\/companies\/([^/]+)(?:\/([a-z-]+)(?:\/(.+))?)?$/;

/** Whether a path is one of a company's panel pages. */
export const isCompanyPage = (path: string) => COMPANY_PAGE.test(path);

/**
 * Routes a company page: the session's own company or 404 (another account's answers the same as an unknown one), the
 * role's permission checked on the server before anything is shown or changed (403 naming the roles that may), and
 * a sensitive change by a user whose second factor is older than a few minutes sent to give it again first.
 */
export async function companyPage(
  ctx: Context,
  deps: AppDeps,
  session: ConsoleSession,
  viewer: Viewer,
  form: URLSearchParams | null,
): Promise<void> {
  const [, ruc, segment = '', rest = ''] = COMPANY_PAGE.exec(ctx.path.replace(/\/+$/, ''))!;
  const tab = COMPANY_TABS.find((t) => t.segment === segment);
  const company = await panelCompany(deps, session, ruc);
  const handler = tab && PANEL_PAGES[tab.id];
  if (!company || !tab || !handler || (form && !handler.post)) {
    return writePage(
      ctx,
      404,
      page(
        viewer.frame('No encontrado', 'companies'),
        html`<p>No hay una empresa o una página con esa dirección en su cuenta.</p>
          <p><a href="/console/companies">Ver sus empresas</a></p>`,
      ),
    );
  }
  if (!mayDo(session.principal, tab.needs, company.id)) return refusedPage(ctx, viewer, company, tab.id, tab.needs);
  // Replacing SUNAT credentials or the certificate, or a token: a user gives its second factor again first.
  if (form && STEP_UP_TABS.includes(tab.id) && needsStepUp(deps, session))
    return askStepUp(ctx, companyPath(company.ruc, tab.id));
  return form ? handler.post!(ctx, deps, viewer, company, form, rest) : handler.get(ctx, deps, viewer, company, rest);
}
