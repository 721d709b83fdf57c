import type { Context } from 'koa';
import type { Config } from '../../../core/config';
import type { MultipartForm } from '../../multipart';
import type { AppDeps } from '../../deps';
import { findCompany, type CompanyRow } from '../../../db/companies';
import type { ConsoleSession } from '../../../db/console-sessions';
import { html, page, type Html } from '../html';
import { writePage, type Viewer } from '../context';
import { companyLimit, mayDo, rolesFor, type Permission } from '../permissions';

/**
 * The account holder's panel (issue 42, docs/panel.md): one company's pages under /console/companies/{ruc}/{tab},
 * each with the company's tabs and a banner that makes demo and production unmistakable.
 */
export type CompanyTab =
  'overview' | 'settings' | 'credentials' | 'certificate' | 'tokens' | 'webhook' | 'email' | 'issue' | 'export';

export const COMPANY_TABS: ReadonlyArray<{ id: CompanyTab; segment: string; label: string; needs: Permission }> = [
  { id: 'overview', segment: '', label: 'Resumen', needs: 'documents.read' },
  { id: 'settings', segment: 'settings', label: 'Ajustes', needs: 'company.settings' },
  { id: 'credentials', segment: 'credentials', label: 'Credenciales', needs: 'company.credentials' },
  { id: 'certificate', segment: 'certificate', label: 'Certificado', needs: 'company.credentials' },
  { id: 'tokens', segment: 'tokens', label: 'Tokens', needs: 'company.tokens' },
  { id: 'webhook', segment: 'webhook', label: 'Webhook', needs: 'company.webhook' },
  { id: 'email', segment: 'email', label: 'Correo', needs: 'company.email' },
  { id: 'issue', segment: 'issue', label: 'Emitir', needs: 'documents.issue' },
  { id: 'export', segment: 'export', label: 'Exportar', needs: 'documents.export' },
];

/**
 * A company page of the panel: what GET shows and what its form's POST does (`rest`: the path after the tab). A page
 * with `upload` also takes multipart forms: one file part named `field`, at most `maxBytes` (its CSRF field is read
 * from the multipart body); its post gets the file.
 */
export interface PanelPage {
  get(ctx: Context, deps: AppDeps, viewer: Viewer, company: CompanyRow, rest: string): Promise<void>;
  post?(
    ctx: Context,
    deps: AppDeps,
    viewer: Viewer,
    company: CompanyRow,
    form: URLSearchParams,
    rest: string,
    upload?: MultipartForm,
  ): Promise<void>;
  upload?: { field: string; what: string; maxBytes: (config: Config) => number };
}

/** A company page's path: `/console/companies/{ruc}` or `/console/companies/{ruc}/{segment}`. */
export function companyPath(ruc: string, tab: CompanyTab = 'overview'): string {
  const segment = COMPANY_TABS.find((t) => t.id === tab)!.segment;
  return `/console/companies/${ruc}${segment ? `/${segment}` : ''}`;
}

/**
 * The session's own company with this RUC; null for another account's (answered as unknown), for support staff, and for
 * a company outside a user's limit (it sees nothing of it: the same 404).
 */
export async function panelCompany(deps: AppDeps, session: ConsoleSession, ruc: string): Promise<CompanyRow | null> {
  const { principal } = session;
  if (principal.kind === 'support' || !/^\d{11}$/.test(ruc)) return null;
  const company = await findCompany(deps.db, principal.accountId, ruc);
  const limit = companyLimit(principal);
  return company && (!limit || limit.includes(company.id)) ? company : null;
}

function environmentBanner(company: CompanyRow): Html {
  return company.environment === '02'
    ? html`<p class="env env-production" role="note">
        <strong>PRODUCCIÓN</strong> · los documentos de ${company.business_name} tienen valor tributario.
      </p>`
    : html`<p class="env env-demo" role="note">
        <strong>DEMO</strong> · pruebas: los documentos de ${company.business_name} no tienen valor tributario.
      </p>`;
}

function tabs(viewer: Viewer, company: CompanyRow, current: CompanyTab): Html {
  const visible = COMPANY_TABS.filter((t) => mayDo(viewer.session.principal, t.needs, company.id));
  return html`<nav class="tabs" aria-label="Secciones de la empresa">
    <ul>
      ${visible.map(
        (t) =>
          html`<li>
            <a href="${companyPath(company.ruc, t.id)}" ${t.id === current ? html`aria-current="page"` : ''}
              >${t.label}</a
            >
          </li>`,
      )}
    </ul>
  </nav>`;
}

/** Writes one of a company's pages: its banner, its tabs, then the page's own content. */
export function writeCompanyPage(
  ctx: Context,
  viewer: Viewer,
  company: CompanyRow,
  tab: CompanyTab,
  body: Html,
  status = 200,
): void {
  const label = COMPANY_TABS.find((t) => t.id === tab)!.label;
  writePage(
    ctx,
    status,
    page(
      viewer.frame(`${label} · ${company.business_name}`, 'companies'),
      html`<p class="crumbs">
          <a href="/console/companies">Empresas</a> › RUC <span class="number">${company.ruc}</span>
        </p>
        ${environmentBanner(company)}${tabs(viewer, company, tab)}${body}`,
    ),
  );
}

/** 403 for a session whose role may not do this, naming the roles that may; nothing is changed. */
export function refusedPage(
  ctx: Context,
  viewer: Viewer,
  company: CompanyRow,
  tab: CompanyTab,
  permission: Permission,
) {
  writeCompanyPage(
    ctx,
    viewer,
    company,
    tab,
    html`<p class="notice refused" role="alert">
      Su rol no permite esta acción: necesita el rol ${rolesFor(permission)}.
    </p>`,
    403,
  );
}
