/**
 * Independent signature check with xml-crypto's DOM implementation (not the signer's fast path): digest of the
 * referenced content and the signature value against the certificate carried in KeyInfo. Like
 * `xmlsec1 --insecure`, it does not judge the certificate itself (issuer, expiry, owner). Exclusive-C14N signatures
 * of the plain shape (CDRs) are first checked directly on the DOM (`exclusive.ts`), which only ever confirms; chasqui's
 * own signatures use inclusive C14N, so they are always checked by xml-crypto, apart from the signer.
 */
import { DOMParser } from '@xmldom/xmldom';
import { declaresDtd, DTD_REFUSED } from '../xml/dtd';
import { SignedXml } from 'xml-crypto';
import { DS_NS } from './signer';
import { verifiesExclusive } from './exclusive';
import { publicKeyOf } from './public-keys';

export interface SignatureVerification {
  ok: boolean;
  /** Why verification failed, in plain words. */
  reason?: string;
  /** The DigestValue of the (first) reference, when present. */
  digest?: string;
  /** The signing certificate as it appears in KeyInfo (DER, base64). */
  certificateBase64?: string;
}

function firstText(parent: Element, localName: string): string | undefined {
  const node = parent.getElementsByTagNameNS(DS_NS, localName)[0];
  return node?.textContent ? node.textContent.replace(/\s+/g, '') : undefined;
}

/** `parsed`: the same document already parsed by the caller (it is read, never changed). */
export function verifyXmlSignature(xml: string, parsed?: Document): SignatureVerification {
  if (!parsed && declaresDtd(xml)) return { ok: false, reason: DTD_REFUSED };
  let doc: Document;
  try {
    doc = parsed ?? (new DOMParser().parseFromString(xml, 'text/xml') as unknown as Document);
  } catch (err) {
    return { ok: false, reason: `not well-formed XML: ${(err as Error).message}` };
  }
  const signatureNode = doc.getElementsByTagNameNS(DS_NS, 'Signature')[0];
  if (!signatureNode) return { ok: false, reason: 'the document has no ds:Signature' };
  const digest = firstText(signatureNode, 'DigestValue');
  const certificateBase64 = firstText(signatureNode, 'X509Certificate');
  if (!certificateBase64) return { ok: false, reason: 'no X509Certificate in KeyInfo', digest };
  // SUNAT's and the OSEs' CDRs (exclusive C14N) are decided on this DOM; everything else, and every failure, by xml-crypto.
  if (verifiesExclusive(doc, signatureNode, certificateBase64)) return { ok: true, digest, certificateBase64 };
  try {
    const publicKey = publicKeyOf(certificateBase64);
    const signed = new SignedXml({ publicCert: publicKey });
    signed.loadSignature(signatureNode as unknown as Node);
    if (signed.checkSignature(xml)) {
      // A reference to one element would leave the rest of the document unprotected; SUNAT's is the whole document.
      const references = signed.getReferences();
      if (references.length !== 1 || references[0].uri) {
        return {
          ok: false,
          reason: 'the signature does not cover the whole document (one Reference with URI="" expected)',
          digest,
          certificateBase64,
        };
      }
      return { ok: true, digest, certificateBase64 };
    }
    const broken = signed.getReferences().find((ref) => ref.validationError);
    return {
      ok: false,
      reason: broken
        ? 'digest mismatch: the signed content was changed after signing'
        : 'the signature value does not match',
      digest,
      certificateBase64,
    };
  } catch (err) {
    const message = (err as Error).message;
    const reason = /invalid signature/i.test(message) ? 'the signature value does not match' : message;
    return { ok: false, reason, digest, certificateBase64 };
  }
}
