import type { Config } from '../../core/config';
import type { CertificateRow } from '../../db/certificates';
import type { IssuerContext, ProductionUse } from '../../db/issuing';
import { dec } from '../../documents/decimal';
import { ApiError } from '../errors';
import type { SignedBy } from '../../keys/signing-keys';

/**
 * Plans and quota (spec 1, 4 rules 3–5, 7.3, 8), production only: what one signature costs and what blocks it.
 * - plan 01: one signature of the account quota with the provider certificate, `CHASQUI_OWN_CERTIFICATE_UNITS`
 *   thousandths with the company's own, nothing when the issuer signed it (external);
 * - plan 02: no per-signature quota, but a valid certificate; a provider certificate lasts
 *   `CHASQUI_PLAN02_VALIDITY_DAYS` from its first production signature (and never past its X.509 expiry);
 * - destination `provider_ose`: one send of the account's OSE sending package.
 */
export function productionCharge(issuer: IssuerContext, signedBy: SignedBy, config: Config): ProductionUse {
  const { company } = issuer;
  let signatureUnits = '0';
  if (company.plan_type === '01' && signedBy === 'provider_certificate') signatureUnits = '1';
  if (company.plan_type === '01' && signedBy === 'own_certificate')
    signatureUnits = dec(config.issuing.ownCertificateUnits).div(1000).toString();
  return {
    accountId: company.account_id,
    companyId: company.id,
    signatureUnits,
    osePackageUnits: company.destination === 'provider_ose' ? 1 : 0,
    certificateId: signedBy === 'external' ? null : (issuer.certificate?.id ?? null),
  };
}

/** When the certificate stops being usable for signing. */
export function certificateExpiry(certificate: CertificateRow, config: Config): Date {
  if (certificate.origin !== 'provider' || !certificate.first_used_at) return certificate.not_after;
  const planEnd = new Date(certificate.first_used_at.getTime() + config.issuing.plan02ValidityDays * 86_400_000);
  return planEnd < certificate.not_after ? planEnd : certificate.not_after;
}

/** Why a production issue is refused (402); the panel words each reason in Spanish, the API keeps its message. */
export type PlanRefusalReason = 'signatures' | 'ose_package' | 'no_certificate' | 'certificate_expired';

export class PlanRefusal extends ApiError {
  constructor(
    readonly reason: PlanRefusalReason,
    message: string,
  ) {
    super(402, message);
  }
}

export function exhausted(
  lacking: 'signatures' | 'ose_package',
  ruc: string,
  quotaUnits: string,
  osePackageUnits: number,
): PlanRefusal {
  return lacking === 'signatures'
    ? new PlanRefusal(
        'signatures',
        `The account has reached its limit of signatures (${dec(quotaUnits).toString()} left); recharge it to issue for company ${ruc}. Nothing was signed`,
      )
    : new PlanRefusal(
        'ose_package',
        `The account's OSE sending package is used up (${osePackageUnits} sends left); recharge it to issue for company ${ruc}. Nothing was signed`,
      );
}

/** The 402 of spec 7.3 that blocks this issue before anything is signed, or null. Demo blocks nothing. */
export function planBlock(
  issuer: IssuerContext,
  charge: ProductionUse,
  signedBy: SignedBy,
  config: Config,
  now: Date,
): PlanRefusal | null {
  const { company, certificate } = issuer;
  if (company.environment !== '02') return null;
  if (signedBy !== 'external') {
    if (company.plan_type === '02' && !certificate) {
      return new PlanRefusal(
        'no_certificate',
        `Company ${company.ruc} is on plan 02 and has no certificate assigned; nothing was signed`,
      );
    }
    if (certificate) {
      const expiry = certificateExpiry(certificate, config);
      if (expiry <= now)
        return new PlanRefusal(
          'certificate_expired',
          `The certificate of company ${company.ruc} expired on ${expiry.toISOString().slice(0, 10)}; nothing was signed`,
        );
    }
  }
  if (dec(issuer.quotaUnits).lt(charge.signatureUnits))
    return exhausted('signatures', company.ruc, issuer.quotaUnits, issuer.osePackageUnits);
  if (issuer.osePackageUnits < charge.osePackageUnits)
    return exhausted('ose_package', company.ruc, issuer.quotaUnits, issuer.osePackageUnits);
  return null;
}
