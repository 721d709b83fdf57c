import { X509Certificate } from 'node:crypto';
import { SigningUnavailableError } from '../../keys/signing-keys';
import type { CheckResult } from '../../db/company-checks';
import { result, type Check } from './context';
import { certificateStanding } from '../../lifecycle/checks';
import { message } from '../../lifecycle/messages';

/** The expiry check's result for a certificate (lifecycle/checks.ts decides its standing). */
export function certificateResult(
  notBefore: Date,
  notAfter: Date,
  warnDays: number,
  origin: string,
  now = new Date(),
): CheckResult {
  const { status, daysLeft, notYet } = certificateStanding(notBefore, notAfter, warnDays, now);
  const fields = {
    origin,
    not_before: notBefore.toISOString(),
    not_after: notAfter.toISOString(),
    days_left: daysLeft,
  };
  if (notYet)
    return result(
      'certificate',
      'fail',
      message('check.certificate.not_yet', { origin, not_before: fields.not_before }),
      fields,
    );
  const dated = { origin, days: daysLeft, not_after: fields.not_after };
  const code = { ok: 'valid', warn: 'expiring', fail: 'expired' } as const;
  return result('certificate', status, message(`check.certificate.${code[status]}`, dated), fields);
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
