import { X509Certificate, type KeyObject } from 'node:crypto';

/** Issuers and authorities sign many documents with one certificate: each is parsed once (bounded, oldest dropped). */
const publicKeys = new Map<string, KeyObject>();

export function publicKeyOf(certificateBase64: string): KeyObject {
  let key = publicKeys.get(certificateBase64);
  if (!key) {
    key = new X509Certificate(Buffer.from(certificateBase64, 'base64')).publicKey;
    if (publicKeys.size >= 1000) publicKeys.delete(publicKeys.keys().next().value!);
    publicKeys.set(certificateBase64, key);
  }
  return key;
}
