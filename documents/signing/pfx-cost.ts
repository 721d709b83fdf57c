/**
 * What opening a PFX (PKCS#12) would cost, read from its ASN.1 structure before node-forge derives any key: every
 * key derivation (the MAC's, each encrypted bag's, each shrouded key's) runs as many hash rounds as the file says,
 * in JavaScript, on the event loop. A file asking for millions would block the API for minutes, so the counts are
 * bounded here and a file above them is refused without deriving anything (docs/security.md, "Certificate upload").
 */
import forge from 'node-forge';

/**
 * Real files ask for 2,000 (Windows), 2,048 (OpenSSL) or 10,000 (Java) rounds per derivation, and three derivations
 * at most (MAC, key, certificates). 40,000 rounds in all is at most ≈ 1.3 s of forge's slowest derivation (PBKDF2
 * with HMAC-SHA256 in JavaScript, measured on the development machine).
 */
export const PFX_LIMITS = { iterationsEach: 20_000, iterationsTotal: 40_000, derivations: 8 } as const;

const OID = {
  data: '1.2.840.113549.1.7.1',
  encryptedData: '1.2.840.113549.1.7.6',
  shroudedKeyBag: '1.2.840.113549.1.12.10.1.2',
  safeContentsBag: '1.2.840.113549.1.12.10.1.6',
  pbes2: '1.2.840.113549.1.5.13',
  pbkdf2: '1.2.840.113549.1.5.12',
};
/** pbeWithSHAAnd… (PKCS#12) and PBES1 (PKCS#5): parameters SEQUENCE { salt, iterations }. */
const PBE_PREFIXES = ['1.2.840.113549.1.12.1.', '1.2.840.113549.1.5.'];

type Node = forge.asn1.Asn1;

export type PfxCost =
  { ok: true; derivations: number[] } | { ok: false; reason: 'not_pfx' | 'too_costly'; message: string };

class Malformed extends Error {}

function children(node: Node | undefined): Node[] {
  if (!node || !Array.isArray(node.value)) throw new Malformed();
  return node.value;
}

/** An OCTET STRING's bytes, joined when it is sent in constructed (BER) pieces. */
function octets(node: Node | undefined): string {
  if (!node) throw new Malformed();
  return typeof node.value === 'string' ? node.value : children(node).map(octets).join('');
}

function oid(node: Node | undefined): string {
  if (!node || typeof node.value !== 'string') throw new Malformed();
  return forge.asn1.derToOid(node.value);
}

/** A non-negative INTEGER; anything past 2^48 is reported as infinite (no real count comes near). */
function count(node: Node | undefined): number {
  if (!node || typeof node.value !== 'string' || !node.value.length) throw new Malformed();
  const bytes = Buffer.from(node.value, 'binary');
  if (bytes[0] & 0x80) throw new Malformed();
  const significant = bytes.subarray(
    bytes.findIndex((b) => b !== 0) === -1 ? bytes.length : bytes.findIndex((b) => b !== 0),
  );
  return significant.length > 6 ? Infinity : significant.reduce((n, b) => n * 256 + b, 0);
}

function parse(der: string): Node {
  return forge.asn1.fromDer(der, false);
}

/** The rounds an AlgorithmIdentifier's key derivation runs; null when it derives no key from the password. */
function rounds(algorithm: Node): number | null {
  const [id, params] = children(algorithm);
  const name = oid(id);
  if (name === OID.pbes2) {
    const [kdf] = children(params);
    const [kdfId, kdfParams] = children(kdf);
    if (oid(kdfId) !== OID.pbkdf2) return null;
    return count(children(kdfParams)[1]);
  }
  return PBE_PREFIXES.some((p) => name.startsWith(p)) ? count(children(params)[1]) : null;
}

/** The rounds of each key derivation opening `pfx` would run (PKCS#12 v1.1, RFC 7292), or why it is refused. */
export function pfxCost(pfx: Buffer): PfxCost {
  const derivations: number[] = [];
  const add = (n: number | null) => n !== null && derivations.push(n);
  const safeContents = (bags: Node, depth: number) => {
    for (const bag of children(bags)) {
      const [bagId, wrapped] = children(bag);
      const type = oid(bagId);
      if (type === OID.shroudedKeyBag) add(rounds(children(children(wrapped)[0])[0]));
      else if (type === OID.safeContentsBag && depth < 2) safeContents(children(wrapped)[0], depth + 1);
    }
  };
  try {
    const [, authSafe, macData] = children(parse(pfx.toString('binary')));
    if (macData) add(children(macData)[2] ? count(children(macData)[2]) : 1);
    const [authType, authContent] = children(authSafe);
    if (oid(authType) !== OID.data) throw new Malformed();
    for (const info of children(parse(octets(children(authContent)[0])))) {
      const [type, content] = children(info);
      const kind = oid(type);
      if (kind === OID.data) safeContents(parse(octets(children(content)[0])), 0);
      else if (kind === OID.encryptedData) add(rounds(children(children(children(content)[0])[1])[1]));
    }
  } catch {
    return { ok: false, reason: 'not_pfx', message: 'the file is not a PFX/PKCS#12 certificate' };
  }
  const total = derivations.reduce((a, b) => a + b, 0);
  const most = Math.max(0, ...derivations);
  if (
    derivations.length > PFX_LIMITS.derivations ||
    most > PFX_LIMITS.iterationsEach ||
    total > PFX_LIMITS.iterationsTotal
  )
    return {
      ok: false,
      reason: 'too_costly',
      message:
        `the file asks for ${derivations.length} key derivations of up to ${Number.isFinite(most) ? most : 'over 2^48'} ` +
        `iterations; at most ${PFX_LIMITS.derivations} of ${PFX_LIMITS.iterationsEach} (${PFX_LIMITS.iterationsTotal} in all) ` +
        'are accepted: export it again with the default settings',
    };
  return { ok: true, derivations };
}
