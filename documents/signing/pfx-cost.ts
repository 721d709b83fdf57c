/**
 * What opening a PFX (PKCS#12) would cost, read from its ASN.1 structure before node-forge derives any key: every
 * key derivation (the MAC's, each encrypted safe's, each shrouded key's, those inside encrypted safes too) runs as
 * many hash rounds as the file says, in JavaScript. A file asking for millions would keep a thread busy for minutes,
 * so the counts are bounded here and a file above them is refused without deriving anything costly
 * (docs/security.md, "Certificate upload").
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

export const WRONG_PASSWORD = 'the password does not open this certificate file';

export type PfxCost =
  | { ok: true; derivations: number[] }
  | { ok: false; reason: 'not_pfx' | 'too_costly' | 'wrong_password'; message: string };

class Malformed extends Error {}
class WrongPassword extends Error {}
class TooCostly extends Error {}

/** node-forge's own password-based decryption (lib/pbe.js), the one `pkcs12FromAsn1` runs; its typings omit it. */
const pbe = (
  forge.pki as unknown as {
    pbe: { getCipher(oid: string, params: Node, password: string): forge.cipher.BlockCipher };
  }
).pbe;

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

/** The derivations counted so far; adding one past a limit refuses the file at once. */
class Budget {
  readonly derivations: number[] = [];

  add(n: number | null): void {
    if (n === null) return;
    this.derivations.push(n);
    const total = this.derivations.reduce((a, b) => a + b, 0);
    if (
      this.derivations.length > PFX_LIMITS.derivations ||
      n > PFX_LIMITS.iterationsEach ||
      total > PFX_LIMITS.iterationsTotal
    )
      throw new TooCostly(this.message());
  }

  private message(): string {
    const most = Math.max(...this.derivations);
    return (
      `the file asks for ${this.derivations.length} key derivations of up to ${Number.isFinite(most) ? most : 'over 2^48'} ` +
      `iterations; at most ${PFX_LIMITS.derivations} of ${PFX_LIMITS.iterationsEach} (${PFX_LIMITS.iterationsTotal} in all) ` +
      'are accepted: export it again with the default settings'
    );
  }
}

/** Counts the shrouded keys of a SafeContents (and of the SafeContents bags nested in it, two levels deep). */
function countBags(bags: Node, budget: Budget, depth = 0): void {
  for (const bag of children(bags)) {
    const [bagId, wrapped] = children(bag);
    const type = oid(bagId);
    if (type === OID.shroudedKeyBag) budget.add(rounds(children(children(wrapped)[0])[0]));
    else if (type === OID.safeContentsBag && depth < 2) countBags(children(wrapped)[0], budget, depth + 1);
  }
}

/**
 * An encrypted safe's SafeContents, decrypted as node-forge would with the password: one derivation, counted and
 * found within the limits before this runs. A key that does not decrypt it is a wrong password (forge would have
 * refused the MAC first); an algorithm forge does not know is not a file it opens.
 */
function decryptSafe(encryptedData: Node, password: string): Node {
  const [contentType, algorithm, encrypted] = children(children(encryptedData)[1]);
  if (oid(contentType) !== OID.data) throw new Malformed();
  const [algorithmId, params] = children(algorithm);
  let cipher: forge.cipher.BlockCipher;
  try {
    cipher = pbe.getCipher(oid(algorithmId), params, password);
  } catch {
    throw new Malformed();
  }
  cipher.update(forge.util.createBuffer(octets(encrypted)));
  if (!cipher.finish()) throw new WrongPassword();
  try {
    return parse(cipher.output.getBytes());
  } catch {
    throw new WrongPassword();
  }
}

/**
 * Counts a decrypted safe's bags. A wrong key sometimes decrypts to valid padding and DER (about 1 in 125 for
 * OpenSSL's legacy RC2-40 safe): bags that then do not read as bags are the password's fault, not the file's.
 */
function countDecryptedBags(bags: Node, budget: Budget): void {
  try {
    countBags(bags, budget);
  } catch (err) {
    throw err instanceof Malformed ? new WrongPassword() : err;
  }
}

/**
 * The rounds of each key derivation opening `pfx` with `password` would run (PKCS#12 v1.1, RFC 7292), or why it is
 * refused. First what the file shows in the clear (the MAC, each encrypted safe, the shrouded keys of plain safes),
 * refused above the limits before any derivation; then the bags of each encrypted safe, decrypted with the password
 * (their derivations already counted), whose shrouded keys count into the same budget.
 */
export function pfxCost(pfx: Buffer, password: string): PfxCost {
  const budget = new Budget();
  try {
    const [, authSafe, macData] = children(parse(pfx.toString('binary')));
    if (macData) budget.add(children(macData)[2] ? count(children(macData)[2]) : 1);
    const [authType, authContent] = children(authSafe);
    if (oid(authType) !== OID.data) throw new Malformed();
    const encryptedSafes: Node[] = [];
    for (const info of children(parse(octets(children(authContent)[0])))) {
      const [type, content] = children(info);
      const kind = oid(type);
      if (kind === OID.data) countBags(parse(octets(children(content)[0])), budget);
      else if (kind === OID.encryptedData) {
        const encryptedData = children(content)[0];
        encryptedSafes.push(encryptedData);
        budget.add(rounds(children(children(encryptedData)[1])[1]));
      }
    }
    for (const safe of encryptedSafes) countDecryptedBags(decryptSafe(safe, password), budget);
  } catch (err) {
    if (err instanceof TooCostly) return { ok: false, reason: 'too_costly', message: err.message };
    if (err instanceof WrongPassword) return { ok: false, reason: 'wrong_password', message: WRONG_PASSWORD };
    return { ok: false, reason: 'not_pfx', message: 'the file is not a PFX/PKCS#12 certificate' };
  }
  return { ok: true, derivations: budget.derivations };
}
