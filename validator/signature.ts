/**
 * XMLDSig verification with xmldsigjs (PeculiarVentures, WebCrypto) — a different implementation from the xml-crypto
 * signer in documents/signing, so a signer bug cannot hide behind the same code verifying it. Like SUNAT's kit
 * (xmlsec1 --insecure): the digests and the signature value are checked with the certificate in KeyInfo; the
 * certificate itself (expiry, issuer, owner RUC) is not.
 */
import * as xmldom from '@xmldom/xmldom';
import { webcrypto } from 'node:crypto';
import xpath from 'xpath';
import { setNodeDependencies } from 'xml-core';
import * as xmldsig from 'xmldsigjs';
import { NS } from './detect';

let ready = false;

function setUp(): void {
  if (ready) return;
  xmldsig.Application.setEngine('NodeJS', webcrypto as unknown as Crypto);
  setNodeDependencies({
    XMLSerializer: xmldom.XMLSerializer,
    DOMParser: xmldom.DOMParser,
    DOMImplementation: xmldom.DOMImplementation,
    xpath,
  } as unknown as Parameters<typeof setNodeDependencies>[0]);
  ready = true;
}

export interface SignatureVerdict {
  /** ok / fail, or none when the document carries no ds:Signature. */
  result: 'ok' | 'fail' | 'none';
  errors: string[];
}

/** The parts of SignedXml that tell a changed document from a wrong signature value. */
interface SignedXmlSteps {
  ValidateReferences(content?: unknown): Promise<boolean>;
  ValidateSignatureValue(keys: CryptoKey[]): Promise<boolean>;
  GetPublicKeys(): Promise<CryptoKey[]>;
}

export async function verifySignature(xml: string): Promise<SignatureVerdict> {
  setUp();
  let doc: Document;
  try {
    doc = xmldsig.Parse(xml);
  } catch (err) {
    return { result: 'fail', errors: [`not well-formed XML: ${(err as Error).message}`] };
  }
  const signatures = doc.getElementsByTagNameNS(NS.ds, 'Signature');
  if (!signatures.length) return { result: 'none', errors: [] };
  const errors: string[] = [];
  if (signatures.length > 1) errors.push(`${signatures.length} ds:Signature elements; the first one was checked`);
  try {
    const signed = new xmldsig.SignedXml(doc);
    signed.LoadXml(signatures[0]);
    const steps = signed as unknown as SignedXmlSteps;
    // The enveloped-signature transform removes the ds:Signature that holds the reference. xmldsigjs's transform
    // only looks among the root's children, while UBL keeps the signature deep in ext:ExtensionContent: digest a
    // copy of the document without it (the transform then finds nothing more to remove).
    const content = doc.cloneNode(true) as Document;
    const own = content.getElementsByTagNameNS(NS.ds, 'Signature')[0];
    own.parentNode!.removeChild(own);
    // Throws XMLJS0013 "Invalid digest …" (caught below) when a reference's digest differs.
    if (!(await steps.ValidateReferences(content.documentElement)))
      return { result: 'fail', errors: [DIGEST_MISMATCH, ...errors] };
    const keys = await steps.GetPublicKeys();
    if (!keys.length)
      return { result: 'fail', errors: ['no usable key in KeyInfo (expected X509Data/X509Certificate)', ...errors] };
    if (!(await steps.ValidateSignatureValue(keys))) {
      return { result: 'fail', errors: ['signature value does not match SignedInfo', ...errors] };
    }
    return { result: 'ok', errors };
  } catch (err) {
    return { result: 'fail', errors: [describe(err as Error), ...errors] };
  }
}

const DIGEST_MISMATCH = 'digest mismatch: the signed content was changed after signing';

function describe(err: Error): string {
  const m = err.message ?? String(err);
  if (/Invalid digest/.test(m)) return `${DIGEST_MISMATCH} (${m.replace(/^.*?Invalid digest/, 'invalid digest')})`;
  if (/algorithm/i.test(m)) return `an Algorithm attribute is empty or unknown (${m})`;
  if (/base64|atob|invalid character|decoded/i.test(m))
    return `a base64 value (DigestValue, SignatureValue or X509Certificate) is not valid base64 (${m})`;
  if (/certificate|asn1|x509/i.test(m)) return `the certificate in KeyInfo cannot be read (${m})`;
  return m;
}
