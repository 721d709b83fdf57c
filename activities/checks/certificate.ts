import { X509Certificate } from 'node:crypto';
import { SigningUnavailableError } from '../../keys/signing-keys';
import type { CheckResult } from '../../db/company-checks';
import { DAY_MS, result, type Check } from './context';
import { message } from '../../lifecycle/messages';

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
  if (notBefore > now)
    return result(
      'certificate',
      'fail',
      message('check.certificate.not_yet', { origin, not_before: fields.not_before }),
      fields,
    );
  const dated = { origin, days: daysLeft, not_after: fields.not_after };
  if (daysLeft <= 0) return result('certificate', 'fail', message('check.certificate.expired', dated), fields);
  if (daysLeft <= warnDays) return result('certificate', 'warn', message('check.certificate.expiring', dated), fields);
  return result('certificate', 'ok', message('check.certificate.valid', dated), fields);
}

/** The certificate the company's documents are signed with: its own, one assigned, or the service's. */
export const certificateCheck: Check = async ({ config, keys }, { company, held }) => {
  if (company.signing === 'external')
    return [result('certificate', 'ok', message('check.certificate.external'), { origin: 'external' })];
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
      return [
        result('certificate', 'fail', message('check.certificate.unavailable', { reason: err.message }), {
          origin: 'service',
        }),
      ];
    throw err;
  }
};
