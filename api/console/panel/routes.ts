import type { Context } from 'koa';
import type { AppDeps } from '../../deps';
import type { CompanyRow } from '../../../db/companies';
import type { ConsoleSession } from '../../../db/console-sessions';
import { html, notice, page } from '../html';
import { ApiError } from '../../errors';
import { readMultipart, type MultipartForm } from '../../multipart';
import { sameSecret } from '../session';
import { forbiddenPage } from '../sign-in';
import { writePage, type Viewer } from '../context';
import { mayDo } from '../permissions';
import { credentialsTab } from './credentials';
import { certificateTab } from './certificate';
import { emailTab } from './email';
import {
  COMPANY_TABS,
  companyPath,
  panelCompany,
  refusedPage,
  writeCompanyPage,
  type CompanyTab,
  type PanelPage,
} from './frame';
import { overview } from './overview';
import { issuePage } from './issue';
import { exportPage } from './export';
import { tokensPage } from './tokens';
import { webhookPage } from './webhook';
import { settings } from './settings';
import { askStepUp, needsStepUp } from '../people/two-factor';

/** Each tab's module, registered here. */
const PANEL_PAGES: Partial<Record<CompanyTab, PanelPage>> = {
  overview,
  settings,
  credentials: credentialsTab,
  certificate: certificateTab,
  email: emailTab,
  tokens: tokensPage,
  webhook: webhookPage,
  issue: issuePage,
  export: exportPage,
};

/** Whether a tab has a form: a POST to one without answers 404, whatever the role. */
export const takesForms = (tab: CompanyTab) => Boolean(PANEL_PAGES[tab]?.post);

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
  form: URLSearchParams | 'multipart' | null,
): Promise<void> {
  const [, ruc, segment = '', rest = ''] = COMPANY_PAGE.exec(ctx.path.replace(/\/+$/, ''))!;
  const tab = COMPANY_TABS.find((t) => t.segment === segment);
  const company = await panelCompany(deps, session, ruc);
  const handler = tab && PANEL_PAGES[tab.id];
  if (!company || !tab || !handler || (form && !handler.post) || (form === 'multipart' && !handler.upload)) {
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
  if (form === 'multipart') return uploadPost(ctx, deps, viewer, company, tab.id, handler, rest);
  return form ? handler.post!(ctx, deps, viewer, company, form, rest) : handler.get(ctx, deps, viewer, company, rest);
}

/**
 * A multipart POST (the certificate, the logo): read within the page's bounds once the company and the permission
 * are known, then its CSRF field checked like any form's before the page sees it.
 */
async function uploadPost(
  ctx: Context,
  deps: AppDeps,
  viewer: Viewer,
  company: CompanyRow,
  tab: CompanyTab,
  handler: PanelPage,
  rest: string,
): Promise<void> {
  const { field, what, maxBytes } = handler.upload!;
  let upload: MultipartForm;
  try {
    upload = await readMultipart(ctx, { field, what, maxBytes: maxBytes(deps.config) });
  } catch (err) {
    if (!(err instanceof ApiError) || err.status >= 500) throw err;
    for (const [name, value] of Object.entries(err.extra.headers ?? {})) ctx.set(name, value);
    const text =
      err.status === 413
        ? `El archivo supera el límite de ${Math.floor(maxBytes(deps.config) / 1024)} KB: no se guardó nada.`
        : 'El formulario no se pudo leer: envíelo de nuevo desde esta página.';
    return writeCompanyPage(ctx, viewer, company, tab, notice('refused', text), err.status);
  }
  if (!sameSecret(upload.fields.get('csrf'), viewer.session.csrf))
    return forbiddenPage(ctx, 'Falta el token del formulario (CSRF) o no corresponde a su sesión.');
  return handler.post!(ctx, deps, viewer, company, new URLSearchParams([...upload.fields]), rest, upload);
}
