/**
 * Signature check for incoming documents (SUNAT's 2335 "altered" and 1059 "no signature").
 *
 * Profiling decided the shape: xml-crypto's verifier costs about 6.5 ms for a 14 kB invoice (a DOM, then C14N of the
 * whole document), which alone caps the simulator near 150 sendBill/s. Documents that chasqui signs are canonical
 * XML with the signature inserted, so for them the check is done on the string: remove the `ds:Signature`, prove the
 * rest canonical with the signer's scanner (then C14N of the document without its enveloped signature IS that
 * string), compare SHA-256 with DigestValue, rebuild the canonical SignedInfo (the exact algorithm set chasqui uses,
 * with the namespaces in scope) and verify the RSA-SHA256 value with the certificate from KeyInfo. Anything else —
 * another signer's layout, other algorithms, a pretty-printed file — goes to xml-crypto (`verifyXmlSignature`).
 */
import { createHash, verify } from 'node:crypto';
import { publicKeyOf } from '../documents/signing/public-keys';
import { scanCanonical } from '../documents/signing/canonical-scan';
import { C14N, DS_NS, ENVELOPED, RSA_SHA256, SHA256 } from '../documents/signing/signer';
import { verifyXmlSignature, type SignatureVerification } from '../documents/signing/verify';

const DECLARATION = /^<\?xml[^>]*\?>[ \t\r\n]*/;
const SIGNATURE_START = /<ds:Signature(?: xmlns:ds="([^"]*)")? Id="[^"<&]*">/;
const SIGNED_INFO = new RegExp(
  '^<ds:SignedInfo>' +
    `<ds:CanonicalizationMethod Algorithm="${C14N}"></ds:CanonicalizationMethod>` +
    `<ds:SignatureMethod Algorithm="${RSA_SHA256}"></ds:SignatureMethod>` +
    `<ds:Reference URI=""><ds:Transforms><ds:Transform Algorithm="${ENVELOPED}"></ds:Transform></ds:Transforms>` +
    `<ds:DigestMethod Algorithm="${SHA256}"></ds:DigestMethod><ds:DigestValue>([A-Za-z0-9+/=]+)</ds:DigestValue>` +
    '</ds:Reference></ds:SignedInfo>' +
    '<ds:SignatureValue>([A-Za-z0-9+/=]+)</ds:SignatureValue>' +
    '<ds:KeyInfo><ds:X509Data><ds:X509Certificate>([A-Za-z0-9+/=]+)</ds:X509Certificate></ds:X509Data></ds:KeyInfo>' +
    '</ds:Signature>$',
);

export type SignatureCheck = SignatureVerification & { present: boolean; path: 'string' | 'xml-crypto' };

/** The string-level check; null when the document is not in the shape it can decide (use xml-crypto then). */
export function verifyCanonicalSignature(xml: string): SignatureVerification | null {
  const body = xml.replace(DECLARATION, '');
  const start = body.indexOf('<ds:Signature');
  if (start < 0) return null;
  const closing = '</ds:Signature>';
  const end = body.indexOf(closing, start);
  if (end < 0) return null;
  const signature = body.slice(start, end + closing.length);
  const head = SIGNATURE_START.exec(signature);
  if (!head || head.index !== 0) return null;
  const parts = SIGNED_INFO.exec(signature.slice(head[0].length));
  if (!parts) return null;
  const [, digest, value, certificateBase64] = parts;
  const rest = body.slice(0, start) + body.slice(end + closing.length);
  const scan = scanCanonical(rest);
  // The signature must sit in the first empty ExtensionContent, where the enveloped transform expects it.
  if (!scan || scan.insertAt !== start) return null;
  const scope = new Map(scan.namespaces);
  const declaredDs = head[1];
  if (declaredDs !== undefined) {
    if (declaredDs !== DS_NS || scope.has('ds')) return null;
    scope.set('ds', DS_NS);
  } else if (scope.get('ds') !== DS_NS) {
    return null;
  }
  if (createHash('sha256').update(rest, 'utf8').digest('base64') !== digest) {
    return {
      ok: false,
      reason: 'digest mismatch: the signed content was changed after signing',
      digest,
      certificateBase64,
    };
  }
  const signedInfoEnd = signature.indexOf('</ds:SignedInfo>') + '</ds:SignedInfo>'.length;
  const signedInfo = signature.slice(head[0].length, signedInfoEnd);
  let namespaces = '';
  for (const prefix of [...scope.keys()].sort()) {
    const uri = scope.get(prefix);
    if (uri) namespaces += prefix ? ` xmlns:${prefix}="${uri}"` : ` xmlns="${uri}"`;
  }
  const canonicalSignedInfo = `<ds:SignedInfo${namespaces}>` + signedInfo.slice('<ds:SignedInfo>'.length);
  try {
    const ok = verify(
      'sha256',
      Buffer.from(canonicalSignedInfo, 'utf8'),
      publicKeyOf(certificateBase64),
      Buffer.from(value, 'base64'),
    );
    return ok
      ? { ok, digest, certificateBase64 }
      : { ok, reason: 'the signature value does not match', digest, certificateBase64 };
  } catch (err) {
    return { ok: false, reason: (err as Error).message, digest, certificateBase64 };
  }
}

/** Whether the document is signed and its signature holds; string path first, xml-crypto for everything else. */
export function checkSignature(xml: string): SignatureCheck {
  if (!xml.includes('Signature') || !/<(?:[\w.-]+:)?Signature[\s>][\s\S]*?SignatureValue/.test(xml)) {
    return { ok: false, present: false, reason: 'the document carries no XML signature', path: 'string' };
  }
  const fast = verifyCanonicalSignature(xml);
  if (fast) return { ...fast, present: true, path: 'string' };
  return { ...verifyXmlSignature(xml), present: true, path: 'xml-crypto' };
}
