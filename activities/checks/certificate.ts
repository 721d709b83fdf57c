import { X509Certificate } from 'node:crypto';
import { SigningUnavailableError } from '../../keys/signing-keys';
import type { CheckResult } from '../../db/company-checks';
import { DAY_MS, result, type Check } from './context';

/** `days_left` of a certificate: whole days until notAfter, rounded up (expiring in 10 days and an hour is 11). */
export function certificateResult(
  notBefore: Date,
  notAfter: Date,
  warnDays: number,
  origin: string,
  now = new Date(),
): CheckResult {
  const daysLeft = Math.ceil((notAfter.getTime() - now.getTime()) / DAY_MS);
  const fields = {
    origin,
    not_before: notBefore.toISOString(),
    not_after: notAfter.toISOString(),
    days_left: daysLeft,
  };
  const renew =
    origin === 'own'
      ? 'upload the renewed PFX with POST /v1/companies/{ruc}/certificate'
      : origin === 'service'
        ? "renew the service's provider certificate (CHASQUI_PROVIDER_PFX)"
        : 'assign a renewed certificate: chasqui certificates assign --company RUC --pfx FILE --password PW';
  if (notBefore > now)
    return result(
      'certificate',
      'fail',
      `the ${origin} certificate is not valid before ${fields.not_before}; nothing can be signed with it yet`,
      fields,
    );
  if (daysLeft <= 0)
    return result(
      'certificate',
      'fail',
      `the ${origin} certificate expired on ${fields.not_after}; issuing answers 402: ${renew}`,
      fields,
    );
  if (daysLeft <= warnDays)
    return result(
      'certificate',
      'warn',
      `the ${origin} certificate expires in ${daysLeft} days (${fields.not_after}): ${renew}`,
      fields,
    );
  return result(
    'certificate',
    'ok',
    `the ${origin} certificate is valid until ${fields.not_after} (${daysLeft} days)`,
    fields,
  );
}

/** The certificate the company's documents are signed with: its own, one assigned, or the service's. */
export const certificateCheck: Check = async ({ config, keys }, { company, held }) => {
  if (company.signing === 'external')
    return [
      result(
        'certificate',
        'ok',
        'the company signs its documents itself (signing external): no certificate of ours is used',
        { origin: 'external' },
      ),
    ];
  if (held)
    return [
      certificateResult(new Date(held.not_before), new Date(held.not_after), config.checks.certWarnDays, held.origin),
    ];
  try {
    const key = await keys(company);
    const x509 = new X509Certificate(key.signer.certificatePem);
    return [certificateResult(new Date(x509.validFrom), new Date(x509.validTo), config.checks.certWarnDays, 'service')];
  } catch (err) {
    if (err instanceof SigningUnavailableError)
      return [result('certificate', 'fail', err.message, { origin: 'service' })];
    throw err;
  }
};
