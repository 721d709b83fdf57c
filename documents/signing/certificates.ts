/**
 * Signing certificates: reading the PFX (PKCS#12) an issuer uploads, and self-signed test certificates for tests,
 * the CLI and the demo environment. A PFX that cannot be used is an outcome with a reason, not an exception.
 */
import { isIP } from 'node:net';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import forge from 'node-forge';
import { pfxCost, WRONG_PASSWORD } from './pfx-cost';

export type CertificateFailure =
  'too_large' | 'not_pfx' | 'too_costly' | 'wrong_password' | 'no_private_key' | 'expired' | 'not_yet_valid';

export interface Certificate {
  privateKeyPem: string;
  certificatePem: string;
  /** DER, base64 (no line breaks). */
  certificateBase64: string;
  /** Distinguished names as `CN=…, O=…` in certificate order. */
  subject: string;
  issuer: string;
  /** Hexadecimal, as node-forge reports it. */
  serialNumber: string;
  notBefore: Date;
  notAfter: Date;
  /** The RUC named in the subject (e.g. `OU=… RUC 20123456789 …` or `serialNumber=20123456789`), when present. */
  ruc?: string;
}

export type CertificateResult =
  { ok: true; certificate: Certificate } | { ok: false; reason: CertificateFailure; message: string };

/** SUNAT's certificates are RSA 2048; 4096 is the largest any issuer uses. */
export const MAX_KEY_BITS = 4096;

/** Real PFX files are a few kilobytes; anything far larger is not a certificate worth parsing. */
export const DEFAULT_MAX_PFX_BYTES = 64 * 1024;

const RUC_IN_TEXT = /(?:^|\D)((?:10|15|16|17|20)\d{9})(?!\d)/;

function describeName(name: forge.pki.Certificate['subject']): string {
  return name.attributes.map((a) => `${a.shortName ?? a.name ?? a.type}=${String(a.value)}`).join(', ');
}

function rucFromSubject(subject: forge.pki.Certificate['subject']): string | undefined {
  for (const attribute of subject.attributes) {
    const match = RUC_IN_TEXT.exec(String(attribute.value));
    if (match) return match[1];
  }
  return undefined;
}

function fail(reason: CertificateFailure, message: string): CertificateResult {
  return { ok: false, reason, message };
}

function bagsOf(p12: forge.pkcs12.Pkcs12Pfx, bagType: string): forge.pkcs12.Bag[] {
  return p12.getBags({ bagType })[bagType] ?? [];
}

export function loadPfx(
  pfx: Buffer,
  password: string,
  options: { now?: Date; maxBytes?: number } = {},
): CertificateResult {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_PFX_BYTES;
  if (pfx.length > maxBytes)
    return fail('too_large', `the certificate file has ${pfx.length} bytes; at most ${maxBytes} are accepted`);
  // Bounded before node-forge derives a key: the file says how many rounds each derivation runs.
  const cost = pfxCost(pfx, password);
  if (!cost.ok) return fail(cost.reason, cost.message);
  let asn1: forge.asn1.Asn1;
  try {
    asn1 = forge.asn1.fromDer(forge.util.createBuffer(pfx.toString('binary')));
  } catch {
    return fail('not_pfx', 'the file is not a PFX/PKCS#12 certificate');
  }
  let p12: forge.pkcs12.Pkcs12Pfx;
  try {
    p12 = forge.pkcs12.pkcs12FromAsn1(asn1, false, password);
  } catch (err) {
    const message = (err as Error).message ?? '';
    if (/MAC could not be verified|Invalid password|decrypt/i.test(message)) {
      return fail('wrong_password', WRONG_PASSWORD);
    }
    return fail('not_pfx', 'the file is not a PFX/PKCS#12 certificate');
  }
  const keyBag = [...bagsOf(p12, forge.pki.oids.pkcs8ShroudedKeyBag), ...bagsOf(p12, forge.pki.oids.keyBag)].find(
    (b) => b.key,
  );
  if (!keyBag?.key) return fail('no_private_key', 'the certificate file holds no private key');
  const key = keyBag.key as forge.pki.rsa.PrivateKey;
  // Every document of the company is signed with this key in the API's request: a huge modulus would make each slow.
  if (key.n.bitLength() > MAX_KEY_BITS)
    return fail('too_costly', `the key has ${key.n.bitLength()} bits; at most ${MAX_KEY_BITS} are accepted`);
  // A PFX may carry the issuing chain too: the signing certificate is the one whose public key matches the key.
  const certificate = bagsOf(p12, forge.pki.oids.certBag)
    .map((b) => b.cert)
    .find((c): c is forge.pki.Certificate => !!c && (c.publicKey as forge.pki.rsa.PublicKey).n?.equals(key.n));
  if (!certificate) return fail('no_private_key', 'the certificate file holds no certificate for its private key');

  const now = options.now ?? new Date();
  const { notBefore, notAfter } = certificate.validity;
  if (now > notAfter) return fail('expired', `the certificate expired on ${notAfter.toISOString()}`);
  if (now < notBefore) return fail('not_yet_valid', `the certificate is valid only from ${notBefore.toISOString()}`);

  const der = forge.asn1.toDer(forge.pki.certificateToAsn1(certificate)).getBytes();
  const ruc = rucFromSubject(certificate.subject);
  return {
    ok: true,
    certificate: {
      privateKeyPem: forge.pki.privateKeyToPem(key),
      certificatePem: forge.pki.certificateToPem(certificate),
      certificateBase64: forge.util.encode64(der),
      subject: describeName(certificate.subject),
      issuer: describeName(certificate.issuer),
      serialNumber: certificate.serialNumber,
      notBefore,
      notAfter,
      ...(ruc ? { ruc } : {}),
    },
  };
}

export interface TestCertificate {
  privateKeyPem: string;
  certificatePem: string;
  /** The key and certificate as a PFX protected by `password`. */
  pfx(password: string): Buffer;
}

export interface TestCertificateOptions {
  ruc?: string;
  commonName?: string;
  validDays?: number;
  notBefore?: Date;
  notAfter?: Date;
  /** Makes it a self-signed TLS server certificate for these host names and IP addresses (its own trust anchor). */
  serverNames?: string[];
}

/** A self-signed RSA 2048 certificate (Node generates the key: node-forge's pure-JS key generation takes seconds). */
export function generateTestCertificate(options: TestCertificateOptions = {}): TestCertificate {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const privateKeyPem = privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
  const key = forge.pki.privateKeyFromPem(privateKeyPem) as forge.pki.rsa.PrivateKey;
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.setRsaPublicKey(key.n, key.e);
  // Positive serial: a leading byte below 0x80 keeps the DER integer non-negative.
  cert.serialNumber = '01' + randomBytes(15).toString('hex');
  const notBefore = options.notBefore ?? new Date(Date.now() - 60_000);
  const notAfter = options.notAfter ?? new Date(notBefore.getTime() + (options.validDays ?? 365) * 86_400_000);
  cert.validity.notBefore = notBefore;
  cert.validity.notAfter = notAfter;
  const attributes: forge.pki.CertificateField[] = [
    { shortName: 'CN', value: options.commonName ?? 'CHASQUI TEST CERTIFICATE' },
    { shortName: 'O', value: 'chasqui' },
    { shortName: 'C', value: 'PE' },
  ];
  if (options.ruc) attributes.push({ shortName: 'OU', value: `RUC ${options.ruc}` });
  cert.setSubject(attributes);
  cert.setIssuer(attributes);
  cert.setExtensions(
    options.serverNames
      ? [
          { name: 'basicConstraints', cA: true },
          {
            name: 'subjectAltName',
            altNames: options.serverNames.map((n) => (isIP(n) ? { type: 7, ip: n } : { type: 2, value: n })),
          },
        ]
      : [
          { name: 'basicConstraints', cA: false },
          { name: 'keyUsage', digitalSignature: true, nonRepudiation: true },
        ],
  );
  cert.sign(key, forge.md.sha256.create());
  const certificatePem = forge.pki.certificateToPem(cert);
  return {
    privateKeyPem,
    certificatePem,
    pfx(password: string): Buffer {
      const asn1 = forge.pkcs12.toPkcs12Asn1(key, [cert], password, { algorithm: '3des' });
      return Buffer.from(forge.asn1.toDer(asn1).getBytes(), 'binary');
    },
  };
}
