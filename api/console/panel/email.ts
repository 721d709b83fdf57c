import type { Context } from 'koa';
import type { AppDeps } from '../../deps';
import type { CompanyRow } from '../../../db/companies';
import { DEFAULT_EMAIL_SETTINGS, findCompanyEmailSettings } from '../../../db/company-email';
import { findLogo } from '../../../db/logos';
import { listDocuments } from '../../../db/document-lists';
import { PRINTABLE_TYPES } from '../../../documents/printed';
import { parseSmtpUrl, type SmtpServer } from '../../../core/smtp-url';
import { saveEmailSettings } from '../../companies/email';
import { removeLogo, storeLogo } from '../../companies/logo';
import { sendTestEmail } from '../../companies/test-email';
import { html, type Html } from '../html';
import { consoleActor, type Viewer } from '../context';
import { companyPath, writeCompanyPage, type PanelPage } from './frame';
import {
  csrfField,
  doneNotice,
  field,
  formError,
  redirectDone,
  refusalErrors,
  unknownForm,
  type FieldErrors,
} from './forms';
import { smtpForm, smtpBody, SMTP_WORDS } from './email-smtp';
import { testEmailForm, testEmailRefusal } from './email-test';

/**
 * The e-mail tab (issue 42 item 8, docs/panel.md): how buyers get their documents by e-mail (the SMTP server's five
 * parts, From, Reply-To, format), the logo printed documents carry with the last document's PDF as its preview, and a
 * test e-mail to an address the person types. Through the same functions as the API's e-mail and logo routes.
 */

const DONE: Readonly<Record<string, string>> = {
  settings: 'Configuración de correo guardada.',
  logo: 'Logo guardado: los documentos impresos lo llevan desde ahora.',
  'logo-removed': 'Logo quitado.',
  test: 'Correo de prueba enviado: revise la bandeja de entrada (y la de spam) de la dirección que escribió.',
};

const LOGO_WORDS: FieldErrors = {
  logo: 'La imagen debe ser PNG o JPEG, de tamaño y dimensiones razonables, y de verdad del tipo que dice ser.',
};

/** Which form a refusal belongs to, with its errors beside its fields. */
type Refused = { form: 'settings' | 'logo' | 'test'; errors: FieldErrors; status: number };

async function logoSection(deps: AppDeps, viewer: Viewer, company: CompanyRow, errors: FieldErrors): Promise<Html> {
  const [logo, recent] = await Promise.all([
    findLogo(deps.db, company.id),
    listDocuments(deps.db, { companyId: company.id, limit: 20 }),
  ]);
  const printed = recent.find((d) => PRINTABLE_TYPES.has(d.doc_type));
  const base = companyPath(company.ruc, 'email');
  const maxKb = Math.floor(deps.config.logoMaxBytes / 1024);
  return html`<h2 id="logo-title">Logo</h2>
    ${
      logo
        ? html`<p><img class="logo-preview" src="${base}/logo" alt="Logo actual de ${company.business_name}" /></p>`
        : html`<p>Sin logo: los documentos impresos llevan solo los datos de la empresa.</p>`
    }
    <p>
      ${
        printed
          ? html`Vista previa:
              <a href="/console/documents/${printed.id}/pdf">el PDF del último documento</a>
              (${printed.series}-${printed.number}), con el logo actual.`
          : 'La vista previa aparece cuando la empresa emita su primer documento: será el PDF del último, con el logo actual.'
      }
    </p>
    <form class="card" method="post" enctype="multipart/form-data" action="${base}/logo">
      ${csrfField(viewer)}${formError(errors)}
      ${field(
        'logo',
        {
          name: 'logo',
          label: logo ? 'Reemplazar el logo (PNG o JPEG)' : 'Subir el logo (PNG o JPEG)',
          type: 'file',
          accept: 'image/png,image/jpeg',
          hint: `Hasta ${maxKb} KB.`,
          required: true,
        },
        errors,
      )}
      <button type="submit">Subir logo</button>
    </form>
    ${
      logo
        ? html`<form class="inline" method="post" action="${base}/logo/remove">
            ${csrfField(viewer)}<button type="submit" class="secondary">Quitar el logo</button>
          </form>`
        : ''
    }`;
}

/** The company's own server as stored (null: the service's, or a stored URL not used). */
function storedServer(deps: AppDeps, settings: { smtp_url_sealed: string | null }): SmtpServer | null {
  const own = settings.smtp_url_sealed ? parseSmtpUrl(deps.secrets.open(settings.smtp_url_sealed)) : null;
  return own?.ok ? own.server : null;
}

async function emailPage(
  ctx: Context,
  deps: AppDeps,
  viewer: Viewer,
  company: CompanyRow,
  refused: Refused | null,
  typed: { settings?: URLSearchParams; to?: string } = {},
): Promise<void> {
  const settings = (await findCompanyEmailSettings(deps.db, company.id)) ?? DEFAULT_EMAIL_SETTINGS;
  const errorsOf = (form: Refused['form']) => (refused?.form === form ? refused.errors : {});
  writeCompanyPage(
    ctx,
    viewer,
    company,
    'email',
    html`${doneNotice(ctx, DONE)}
    ${smtpForm(viewer, company, settings, storedServer(deps, settings), errorsOf('settings'), typed.settings)}
    ${await logoSection(deps, viewer, company, errorsOf('logo'))}
    ${testEmailForm(viewer, company, errorsOf('test'), typed.to)}`,
    refused?.status ?? 200,
  );
}

const post: NonNullable<PanelPage['post']> = async (ctx, deps, viewer, company, form, rest, upload) => {
  const actor = consoleActor(ctx, viewer.session);
  const again = (refused: Refused, typed = {}) => emailPage(ctx, deps, viewer, company, refused, typed);
  if (rest === 'settings') {
    const stored = await findCompanyEmailSettings(deps.db, company.id);
    const body = smtpBody(form, stored && storedServer(deps, stored));
    if ('errors' in body) return again({ form: 'settings', errors: body.errors, status: 422 }, { settings: form });
    try {
      await saveEmailSettings(deps, company, body.input, actor);
    } catch (err) {
      const errors = refusalErrors(err, SMTP_WORDS, 'Revise la configuración de correo.');
      return again({ form: 'settings', errors, status: 422 }, { settings: form });
    }
    return redirectDone(ctx, company, 'email', 'settings');
  }
  if (rest === 'logo' && upload) {
    const refused = (errors: FieldErrors) => again({ form: 'logo', errors, status: 422 });
    if (upload.tooLarge) return refused(LOGO_WORDS);
    try {
      await storeLogo(deps, company, upload.file ?? Buffer.alloc(0), upload.fileType ?? '', actor);
    } catch (err) {
      return refused(refusalErrors(err, LOGO_WORDS, LOGO_WORDS.logo));
    }
    return redirectDone(ctx, company, 'email', 'logo');
  }
  if (rest === 'logo/remove') {
    await removeLogo(deps, company, actor);
    return redirectDone(ctx, company, 'email', 'logo-removed');
  }
  if (rest === 'test') {
    const to = (form.get('to') ?? '').trim();
    const outcome = await sendTestEmail(deps, company, to);
    if (outcome.sent) return redirectDone(ctx, company, 'email', 'test');
    const refusal = testEmailRefusal(outcome);
    if (refusal.retryAfter) ctx.set('Retry-After', String(refusal.retryAfter));
    return again({ form: 'test', errors: { to: refusal.text }, status: refusal.status }, { to });
  }
  return unknownForm(ctx, viewer, company, 'email');
};

/** The stored logo, for the page's preview (an image the stored row's checked type names). */
async function logoImage(ctx: Context, deps: AppDeps, company: CompanyRow): Promise<boolean> {
  const logo = await findLogo(deps.db, company.id);
  if (!logo) return false;
  ctx.type = logo.content_type;
  ctx.body = logo.image;
  return true;
}

/** The tab's page (api/console/panel/routes.ts registers it). */
export const emailTab = {
  async get(ctx: Context, deps: AppDeps, viewer: Viewer, company: CompanyRow, rest: string) {
    if (rest === 'logo' && (await logoImage(ctx, deps, company))) return;
    if (rest) return unknownForm(ctx, viewer, company, 'email');
    return emailPage(ctx, deps, viewer, company, null);
  },
  upload: { field: 'logo', what: 'logo upload', maxBytes: (c: AppDeps['config']) => c.logoMaxBytes },
  post,
};
