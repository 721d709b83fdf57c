import forge from 'node-forge';
import type { TestCertificate } from '../../documents/signing';

const { asn1, pki } = forge;
const { Class, Type } = asn1;

const oid = (id: string) => asn1.create(Class.UNIVERSAL, Type.OID, false, asn1.oidToDer(id).getBytes());
const octets = (bytes: string) => asn1.create(Class.UNIVERSAL, Type.OCTETSTRING, false, bytes);
const sequence = (items: forge.asn1.Asn1[]) => asn1.create(Class.UNIVERSAL, Type.SEQUENCE, true, items);
const explicit = (item: forge.asn1.Asn1) => asn1.create(Class.CONTEXT_SPECIFIC, 0, true, [item]);
const path = (node: forge.asn1.Asn1, at: number[]) => at.reduce((n, i) => (n.value as forge.asn1.Asn1[])[i], node);
const der = (node: forge.asn1.Asn1) => asn1.toDer(node).getBytes();

export interface EncryptedSafeOptions {
  /** The encrypted safe's own derivation: PBES2 with PBKDF2 (`aes256`) or PKCS#12's pbeWithSHAAnd3-KeyTripleDES. */
  safe: { algorithm: 'aes256' | '3des'; count: number };
  /** The rounds the shrouded key bag inside the encrypted safe asks for (it is encrypted with at most 2,048). */
  keyCount: number;
  macCount: number;
}

/**
 * A PFX whose shrouded key bag lies inside an encrypted safe (node-forge and OpenSSL put it in a plain one), its
 * certificate in a plain safe and a MAC over both: read in the clear, only the MAC and the safe's derivation show.
 */
export function pfxWithKeyInEncryptedSafe(
  test: TestCertificate,
  password: string,
  options: EncryptedSafeOptions,
): Buffer {
  const key = pki.privateKeyFromPem(test.privateKeyPem);
  const cert = pki.certificateFromPem(test.certificatePem);
  const keyInfo = pki.encryptPrivateKeyInfo(pki.wrapRsaPrivateKey(pki.privateKeyToAsn1(key)), password, {
    algorithm: 'aes256',
    count: Math.min(options.keyCount, 2048),
  });
  // A count past what was derived is only ever read, never derived: the file is refused before.
  const kdfParams = path(keyInfo, [0, 1, 0, 1]);
  (kdfParams.value as forge.asn1.Asn1[])[1].value = asn1.integerToDer(options.keyCount).getBytes();
  const keySafe = sequence([sequence([oid(pki.oids.pkcs8ShroudedKeyBag), explicit(keyInfo)])]);
  // forge encrypts whatever it is given: the SafeContents' DER comes back as { algorithm, encrypted bytes }.
  const [algorithm, encrypted] = pki.encryptPrivateKeyInfo(keySafe, password, {
    algorithm: options.safe.algorithm,
    count: options.safe.count,
  }).value as forge.asn1.Asn1[];
  const encryptedData = sequence([
    asn1.create(Class.UNIVERSAL, Type.INTEGER, false, '\x00'),
    sequence([oid(pki.oids.data), algorithm, asn1.create(Class.CONTEXT_SPECIFIC, 0, false, encrypted.value as string)]),
  ]);
  const certBag = sequence([
    oid(pki.oids.certBag),
    explicit(sequence([oid(pki.oids.x509Certificate), explicit(octets(der(pki.certificateToAsn1(cert))))])),
  ]);
  const authSafe = der(
    sequence([
      sequence([oid(pki.oids.encryptedData), explicit(encryptedData)]),
      sequence([oid(pki.oids.data), explicit(octets(der(sequence([certBag]))))]),
    ]),
  );
  const salt = forge.random.getBytesSync(8);
  const mac = forge.hmac.create();
  mac.start('sha1', forge.pkcs12.generateKey(password, forge.util.createBuffer(salt), 3, options.macCount, 20));
  mac.update(authSafe);
  const macData = sequence([
    sequence([
      sequence([oid(pki.oids.sha1), asn1.create(Class.UNIVERSAL, Type.NULL, false, '')]),
      octets(mac.digest().getBytes()),
    ]),
    octets(salt),
    asn1.create(Class.UNIVERSAL, Type.INTEGER, false, asn1.integerToDer(options.macCount).getBytes()),
  ]);
  const pfx = sequence([
    asn1.create(Class.UNIVERSAL, Type.INTEGER, false, '\x03'),
    sequence([oid(pki.oids.data), explicit(octets(authSafe))]),
    macData,
  ]);
  return Buffer.from(der(pfx), 'binary');
}
