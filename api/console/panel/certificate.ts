import type { Context } from 'koa';
import type { AppDeps } from '../../deps';
import { ApiError } from '../../errors';
import type { CompanyRow } from '../../../db/companies';
import { findCertificate, type CertificateRow } from '../../../db/certificates';
import type { CertificateFailure } from '../../../documents/signing';
import { certificateStanding } from '../../../lifecycle/checks';
import type { MultipartForm } from '../../multipart';
import { CERTIFICATE_PART, openCertificate, storeCertificate } from '../../companies/certificate';
import { html, notice, type Html } from '../html';
import { consoleActor, type Viewer } from '../context';
import { CHECK_WORDS, limaLabelled } from '../words';
import { companyPath, writeCompanyPage } from './frame';
import { csrfField, doneNotice, field, formError, redirectDone, type FieldErrors } from './forms';

/**
 * The certificate tab (issue 42 item 5, docs/panel.md): the certificate the company signs with (holder, RUC, serial,
 * validity, days left by the expiry check's thresholds) and the upload of its own PKCS#12, opened in the heavy-work
 * pool and stored through the same functions as POST /v1/companies/{ruc}/certificate.
 */

/** The API's refusal reasons (data.reason) in Spanish, shown beside the field the API names. */
const REASONS: Readonly<Record<CertificateFailure, string>> = {
  too_large: 'El archivo es más grande de lo permitido.',
  not_pfx: 'El archivo no es un certificado PFX/PKCS#12 (.pfx o .p12).',
  too_costly: 'Abrir el archivo cuesta demasiado: expórtelo de nuevo con la configuración por defecto.',
  wrong_password: 'La contraseña no abre este certificado.',
  no_private_key: 'El archivo no trae la clave privada: expórtelo con ella.',
  expired: 'El certificado ya venció.',
  not_yet_valid: 'El certificado aún no es válido.',
};
const OTHER_RUC = 'El certificado fue emitido para otro RUC.';

function refusal(err: unknown): FieldErrors {
  if (!(err instanceof ApiError) || err.status >= 500) throw err;
  const reason = (err.extra.data as { reason?: string } | undefined)?.reason ?? '';
  const field = Object.keys(err.extra.errors ?? {})[0] ?? 'certificate';
  const missing = field === 'password' ? 'Escriba la contraseña del certificado.' : 'Elija el archivo del certificado.';
  return { [field]: reason === 'other_ruc' ? OTHER_RUC : (REASONS[reason as CertificateFailure] ?? missing) };
}

function facts(row: CertificateRow, warnDays: number): Html {
  const standing = certificateStanding(new Date(row.not_before), new Date(row.not_after), warnDays);
  const left = standing.notYet
    ? 'aún no es válido'
    : standing.daysLeft <= 0
      ? 'vencido'
      : `${standing.daysLeft} días (avisamos desde ${warnDays} días antes)`;
  return html`<dl class="facts">
    <dt>Origen</dt>
    <dd>${row.origin === 'own' ? 'propio (subido por la empresa)' : 'del proveedor (plan 02)'}</dd>
    <dt>Titular</dt>
    <dd>${row.subject}</dd>
    <dt>RUC</dt>
    <dd><span class="number">${row.ruc ?? '—'}</span></dd>
    <dt>Número de serie</dt>
    <dd class="serial">${row.serial_number}</dd>
    <dt>Válido desde</dt>
    <dd>${limaLabelled(row.not_before)}</dd>
    <dt>Válido hasta</dt>
    <dd>${limaLabelled(row.not_after)}</dd>
    <dt>Días restantes</dt>
    <dd><span class="check ${standing.status}">${CHECK_WORDS[standing.status]}</span> ${left}</dd>
  </dl>`;
}

async function certificatePage(
  ctx: Context,
  deps: AppDeps,
  viewer: Viewer,
  company: CompanyRow,
  errors: FieldErrors | null,
): Promise<void> {
  const row = company.certificate_id ? await findCertificate(deps.db, company.certificate_id) : undefined;
  const maxKb = Math.floor(deps.config.certificateMaxBytes / 1024);
  const shown = errors ?? {};
  writeCompanyPage(
    ctx,
    viewer,
    company,
    'certificate',
    html`${doneNotice(ctx, { uploaded: 'Certificado guardado: la empresa firma ahora con su certificado.' })}
      <h2>Certificado de firma</h2>
      ${
        row
          ? facts(row, deps.config.checks.certWarnDays)
          : notice('info', 'La empresa aún no tiene certificado propio: chasqui firma con el del proveedor.')
      }
      <h2>${row?.origin === 'own' ? 'Reemplazar el certificado' : 'Subir el certificado propio'}</h2>
      <form
        class="card"
        method="post"
        enctype="multipart/form-data"
        action="${companyPath(company.ruc, 'certificate')}"
      >
        ${csrfField(viewer)}${formError(shown)}
        ${field(
          'cert',
          {
            name: 'certificate',
            label: 'Archivo del certificado (.pfx o .p12)',
            type: 'file',
            accept: '.pfx,.p12,application/x-pkcs12',
            hint: `Hasta ${maxKb} KB, con su clave privada, emitido para el RUC ${company.ruc}.`,
            required: true,
          },
          shown,
        )}
        ${field(
          'cert',
          { name: 'password', label: 'Contraseña del certificado', type: 'password', maxlength: 4096 },
          shown,
        )}
        <button type="submit">Subir certificado</button>
      </form>`,
    errors ? 422 : 200,
  );
}

/** The tab's page (api/console/panel/routes.ts registers it). */
export const certificateTab = {
  get: (ctx: Context, deps: AppDeps, viewer: Viewer, company: CompanyRow) =>
    certificatePage(ctx, deps, viewer, company, null),
  upload: {
    field: 'certificate',
    what: 'certificate upload',
    maxBytes: (c: AppDeps['config']) => c.certificateMaxBytes,
  },
  // A browser sends an empty file part when none is chosen: that is a missing file.
  async post(
    ctx: Context,
    deps: AppDeps,
    viewer: Viewer,
    company: CompanyRow,
    form: URLSearchParams,
    _rest: string,
    upload?: MultipartForm,
  ) {
    const options = { maxBytes: deps.config.certificateMaxBytes, ruc: company.ruc, account: company.account_id };
    try {
      const certificate = await openCertificate(
        deps,
        {
          file: upload?.file?.length ? upload.file : null,
          tooLarge: upload?.tooLarge ?? false,
          password: form.get('password'),
        },
        options,
      );
      await storeCertificate(deps, company, certificate, consoleActor(ctx, viewer.session));
    } catch (err) {
      return certificatePage(ctx, deps, viewer, company, refusal(err));
    }
    redirectDone(ctx, company, 'certificate', 'uploaded');
  },
};
