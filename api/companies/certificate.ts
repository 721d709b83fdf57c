import type { Context } from 'koa';
import { ApiError, badRequest } from '../errors';
import type { Certificate } from '../../documents/signing';
import type { AppDeps } from '../deps';
import { runHeavy } from '../heavy';
import { readMultipart } from '../multipart';
import { recordChange, type Actor } from '../../db/audit';
import type { CompanyRow } from '../../db/companies';
import { assignCertificate, certificateValues, findCertificate, type CertificateRow } from '../../db/certificates';
import { triggerProcedures } from './procedures';

/** How long opening one uploaded PFX may take; the bounded rounds (documents/signing/pfx-cost.ts) need under a second. */
export const PFX_TIME_BOX_MS = 10_000;

/** An uploaded certificate form's parts: the file (cut at its limit: `tooLarge`) and its password. */
export interface CertificateForm {
  file: Buffer | null;
  tooLarge: boolean;
  password: string | null;
}

/** The multipart part the certificate comes in, as the API's upload and the panel's name it. */
export const CERTIFICATE_PART = { field: 'certificate', what: 'certificate upload' } as const;

/**
 * The certificate of an upload, or a 422 that says what is wrong with it: missing fields, too large, not a PFX,
 * wrong password, no private key, expired, not yet valid, or issued to another RUC. The password is used here
 * to open the file and then dropped.
 */
export async function readCertificateUpload(
  ctx: Context,
  deps: AppDeps,
  options: { maxBytes: number; ruc: string; account: string },
): Promise<Certificate> {
  if (!ctx.is('multipart/form-data')) {
    throw badRequest(
      'Send the certificate as multipart/form-data with a file field "certificate" and a text field "password"',
      {
        certificate: ['is required (multipart file field)'],
      },
    );
  }
  const form = await readMultipart(ctx, { ...CERTIFICATE_PART, maxBytes: options.maxBytes });
  const password = form.fields.get('password') ?? null;
  return openCertificate(deps, { file: form.file, tooLarge: form.tooLarge, password }, options);
}

/** Opens an uploaded PKCS#12 in the heavy-work pool (see readCertificateUpload for what it refuses). */
export async function openCertificate(
  deps: AppDeps,
  form: CertificateForm,
  options: { maxBytes: number; ruc: string; account: string },
): Promise<Certificate> {
  const errors: Record<string, string[]> = {};
  if (!form.file) errors.certificate = ['is required (multipart file field)'];
  if (form.password === null) errors.password = ['is required (multipart text field)'];
  if (Object.keys(errors).length) throw badRequest('The certificate upload is incomplete', errors);
  if (form.tooLarge) {
    throw rejected('too_large', `the certificate file is larger than ${options.maxBytes} bytes`);
  }
  // node-forge is synchronous JavaScript: the file is opened in the heavy-work pool, in the account's turn.
  const input = { pfx: form.file!, password: form.password!, maxBytes: options.maxBytes };
  const result = await runHeavy(deps, options.account, 'pfx', input, {
    timeoutMs: PFX_TIME_BOX_MS,
    failed: (err) =>
      rejected(
        'too_costly',
        err.reason === 'timeout'
          ? `opening the file takes longer than ${err.limitMs / 1000} s; export it again with the default settings`
          : `opening the file needs more memory than allowed (${err.message}); export it again with the default settings`,
      ),
  });
  if (!result.ok) throw rejected(result.reason, result.message);
  if (result.certificate.ruc && result.certificate.ruc !== options.ruc) {
    throw rejected('other_ruc', `the certificate was issued to RUC ${result.certificate.ruc}, not to ${options.ruc}`);
  }
  return result.certificate;
}

function rejected(reason: string, message: string): ApiError {
  const field = reason === 'wrong_password' ? 'password' : 'certificate';
  return new ApiError(422, `The certificate cannot be used: ${message}`, {
    errors: { [field]: [message] },
    data: { reason },
  });
}

const validity = (row: CertificateRow | undefined) => ({
  serial_number: row?.serial_number ?? null,
  valid_from: row ? new Date(row.not_before).toISOString() : null,
  valid_to: row ? new Date(row.not_after).toISOString() : null,
});

/**
 * Makes an opened certificate the company's own (the API's upload and the panel's), the one it held let go, with the
 * audit row (serial and validity, old → new) in the same transaction; then lets the procedures re-plan (an own
 * certificate makes the PSE authorisation unnecessary). Answers the company as changed.
 */
export async function storeCertificate(
  deps: AppDeps,
  company: CompanyRow,
  certificate: Certificate,
  actor: Actor,
): Promise<CompanyRow> {
  const updated = await deps.db.transaction(async (trx) => {
    const before = company.certificate_id ? await findCertificate(trx, company.certificate_id) : undefined;
    const stored = await assignCertificate(
      trx,
      company,
      certificateValues(company.account_id, 'own', certificate, deps.secrets.seal(certificate.privateKeyPem)),
    );
    const [was, is] = [validity(before), validity(stored.certificate)];
    await recordChange(trx, {
      accountId: company.account_id,
      companyId: company.id,
      companyRuc: company.ruc,
      actor,
      action: 'company.certificate',
      changes: Object.fromEntries(
        (Object.keys(is) as Array<keyof typeof is>).map((key) => [key, { from: was[key], to: is[key] }]),
      ),
    });
    return stored.company;
  });
  await triggerProcedures(deps, updated);
  return updated;
}
