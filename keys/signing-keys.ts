import fs from 'node:fs';
import type { Config } from '../core/config';
import type { SecretBox } from '../core/secretbox';
import type { Db } from '../db/knex';
import { findCertificate, type CertificateRow } from '../db/certificates';
import type { CompanyRow } from '../db/companies';
import type { NewDocument } from '../db/documents';
import { ensureServiceCertificate } from '../db/issuing';
import type { PreparedDocument } from '../documents';
import { GENERATED_STATUS } from '../lifecycle/transitions';
import { createSigner, generateTestCertificate, loadPfx, signBuiltXml, type Signer } from '../documents/signing';

/** What resolving keys needs (the API's and the worker's dependencies both carry it). */
type KeyDeps = { db: Db; secrets: SecretBox; config: Config };

/** No key can sign now (production without a usable provider certificate); the API answers 503, an activity retries. */
export class SigningUnavailableError extends Error {}

/** How a document was signed, stored as `documents.signed_by` (spec 1: signing axis). */
export type SignedBy = 'own_certificate' | 'provider_certificate' | 'external';

export interface SigningKey {
  signer: Signer;
  signedBy: SignedBy;
  /** The company's certificate row, when it signed (its first production use is stamped). */
  certificateId: string | null;
}

/** Certificates never change under an id, so parsed keys are kept per process (bounded: one entry per company certificate). */
const MAX_CACHED_SIGNERS = 10_000;

/**
 * Picks the key that signs a company's document: its own certificate (or the plan 02 certificate assigned to it)
 * when it has one; otherwise the provider certificate: in demo a test certificate generated once for the service
 * and kept sealed in PostgreSQL, in production the one configured by CHASQUI_PROVIDER_PFX.
 */
export function createKeyResolver(deps: KeyDeps) {
  const byCertificate = new Map<string, Signer>();
  let demo: Promise<Signer> | null = null;
  let production: Signer | null = null;

  function certificateSigner(row: CertificateRow): Signer {
    let signer = byCertificate.get(row.id);
    if (!signer) {
      signer = createSigner({
        certificatePem: row.certificate_pem,
        privateKeyPem: deps.secrets.open(row.private_key_sealed),
      });
      if (byCertificate.size >= MAX_CACHED_SIGNERS) byCertificate.delete(byCertificate.keys().next().value!);
      byCertificate.set(row.id, signer);
    }
    return signer;
  }

  async function demoSigner(): Promise<Signer> {
    // One row per master key: a process can only open what its own key sealed.
    const stored = await ensureServiceCertificate(deps.db, `demo-provider:${deps.secrets.keyId}`, () => {
      const made = generateTestCertificate({
        ruc: deps.config.providerRuc,
        commonName: 'CHASQUI DEMO PROVIDER',
        validDays: 3650,
      });
      return { certificatePem: made.certificatePem, privateKeySealed: deps.secrets.seal(made.privateKeyPem) };
    });
    return createSigner({
      certificatePem: stored.certificatePem,
      privateKeyPem: deps.secrets.open(stored.privateKeySealed),
    });
  }

  function productionSigner(): Signer {
    if (production) return production;
    const { providerPfxPath, providerPfxPassword } = deps.config.issuing;
    if (!providerPfxPath) {
      throw new SigningUnavailableError(
        'No provider certificate is configured for production signing (CHASQUI_PROVIDER_PFX); nothing was signed',
      );
    }
    const loaded = loadPfx(fs.readFileSync(providerPfxPath), providerPfxPassword, {
      maxBytes: Number.MAX_SAFE_INTEGER,
    });
    if (!loaded.ok)
      throw new SigningUnavailableError(
        `The provider certificate (CHASQUI_PROVIDER_PFX) cannot sign: ${loaded.message}; nothing was signed`,
      );
    production = createSigner(loaded.certificate);
    return production;
  }

  return async function keyFor(environment: string, certificate: CertificateRow | null): Promise<SigningKey> {
    if (certificate) {
      return {
        signer: certificateSigner(certificate),
        signedBy: certificate.origin === 'own' ? 'own_certificate' : 'provider_certificate',
        certificateId: certificate.id,
      };
    }
    if (environment === '02')
      return { signer: productionSigner(), signedBy: 'provider_certificate', certificateId: null };
    demo ??= demoSigner().catch((err) => {
      demo = null;
      throw err;
    });
    return { signer: await demo, signedBy: 'provider_certificate', certificateId: null };
  };
}

export type KeyResolver = ReturnType<typeof createKeyResolver>;

/**
 * The key for what chasqui itself generates for a company (its daily summaries, the ra of a void): the same choice as
 * for the company's own documents.
 */
export function createCompanyKeys(deps: KeyDeps, keyFor: KeyResolver = createKeyResolver(deps)) {
  return async (company: CompanyRow): Promise<SigningKey> =>
    keyFor(
      company.environment,
      company.certificate_id ? ((await findCertificate(deps.db, company.certificate_id)) ?? null) : null,
    );
}

export type CompanyKeys = ReturnType<typeof createCompanyKeys>;

/** A document chasqui generates for a company, signed with the company's key, as a row ready to store. */
export async function signGenerated(
  keys: CompanyKeys,
  company: CompanyRow,
  prepared: PreparedDocument,
  destination = company.destination,
): Promise<NewDocument> {
  const key = await keys(company);
  const signed = signBuiltXml(prepared.xml, key.signer);
  return {
    account_id: company.account_id,
    company_id: company.id,
    ruc: company.ruc,
    doc_type: prepared.docType,
    series: prepared.series,
    number: prepared.number,
    filename: prepared.filename,
    issue_date: prepared.issueDate,
    currency: prepared.currency,
    environment: company.environment,
    destination,
    signed_by: key.signedBy,
    status: GENERATED_STATUS,
    hash: signed.hash,
    xml: signed.xml,
    totals: prepared.totals,
    warnings: prepared.warnings,
  };
}
