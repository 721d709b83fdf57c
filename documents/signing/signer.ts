/**
 * XMLDSig enveloped signature of a UBL document: RSA-SHA256, SHA-256 digest, inclusive C14N 1.0, `Reference URI=""`
 * with the enveloped-signature transform, the X.509 certificate in KeyInfo, `ds:Signature` inside the first empty
 * `ext:ExtensionContent` (PROTOCOL.md section 5).
 *
 * Fast path: the builders emit canonical XML (`documents/xml/canonical.ts`), and removing the enveloped signature
 * gives back exactly that string, so the digest is SHA-256 of the input string and SignedInfo is written directly in
 * its canonical form. `scanCanonical` proves the input canonical first; anything else (an XML declaration, a
 * pretty-printed or foreign document) is signed through xml-crypto's DOM, which is about 15 times slower.
 */
import { createHash, createPrivateKey, createPublicKey, sign, X509Certificate, type KeyObject } from 'node:crypto';
import { SignedXml } from 'xml-crypto';
import { scanCanonical } from './canonical-scan';

export const DS_NS = 'http://www.w3.org/2000/09/xmldsig#';
export const C14N = 'http://www.w3.org/TR/2001/REC-xml-c14n-20010315';
export const RSA_SHA256 = 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256';
export const SHA256 = 'http://www.w3.org/2001/04/xmlenc#sha256';
export const ENVELOPED = 'http://www.w3.org/2000/09/xmldsig#enveloped-signature';

const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n';
/** The Id used when the document has no `cac:Signature` naming one. */
const DEFAULT_SIGNATURE_ID = 'SignatureSP';

export interface Signer {
  readonly key: KeyObject;
  readonly certificatePem: string;
  /** DER of the certificate in base64, as it goes into `ds:X509Certificate`. */
  readonly certificateBase64: string;
}

export interface SignedXmlResult {
  xml: string;
  /** The reference's DigestValue (base64): the `hash` of spec 2.4. */
  hash: string;
}

/** Parses the key once; throws when the key does not belong to the certificate (a configuration error). */
export function createSigner(material: { privateKeyPem: string; certificatePem: string }): Signer {
  const key = createPrivateKey(material.privateKeyPem);
  const certificate = new X509Certificate(material.certificatePem);
  const keySpki = createPublicKey(key).export({ type: 'spki', format: 'der' });
  if (!keySpki.equals(certificate.publicKey.export({ type: 'spki', format: 'der' }))) {
    throw new Error('the private key does not belong to the certificate');
  }
  return { key, certificatePem: certificate.toString(), certificateBase64: certificate.raw.toString('base64') };
}

export function signXml(xml: string, signer: Signer): SignedXmlResult {
  const scan = scanCanonical(xml);
  return scan ? signCanonical(xml, scan.insertAt, scan.namespaces, signer) : signWithDom(xml, signer);
}

const EMPTY_EXTENSION = '<ext:ExtensionContent></ext:ExtensionContent>';

/**
 * Where the signature goes in XML that chasqui's own builders wrote (documents/xml/canonical.ts): canonical by
 * construction, with every namespace declared on the root, so only the root tag is read instead of scanning the
 * whole document. The corpus test proves this equals `scanCanonical` for every fixture. Null when the XML is not
 * shaped like builder output.
 */
export function builtXmlLayout(xml: string): { insertAt: number; namespaces: ReadonlyMap<string, string> } | null {
  const rootEnd = xml.indexOf('>');
  const slot = xml.indexOf(EMPTY_EXTENSION);
  if (xml[0] !== '<' || rootEnd < 0 || slot < 0) return null;
  const namespaces = new Map<string, string>();
  for (const m of xml.slice(0, rootEnd).matchAll(/ xmlns(?::([A-Za-z_][\w.-]*))?="([^"]*)"/g))
    namespaces.set(m[1] ?? '', m[2]);
  return { insertAt: slot + '<ext:ExtensionContent>'.length, namespaces };
}

/** Signs builder output (`prepareDocument(...).xml`) on the fast path without re-proving it canonical. */
export function signBuiltXml(xml: string, signer: Signer): SignedXmlResult {
  const layout = builtXmlLayout(xml);
  return layout ? signCanonical(xml, layout.insertAt, layout.namespaces, signer) : signXml(xml, signer);
}

/** The Id that the document's `cac:Signature` points at (`cac:ExternalReference/cbc:URI` "#Id", else its `cbc:ID`). */
function signatureId(xml: string): string {
  const start = xml.indexOf('<cac:Signature>');
  const end = start < 0 ? -1 : xml.indexOf('</cac:Signature>', start);
  if (end < 0) return DEFAULT_SIGNATURE_ID;
  const block = xml.slice(start, end);
  const id = /<cbc:URI>\s*#?([^<\s]*)\s*</.exec(block)?.[1] || /<cbc:ID>\s*([^<\s]*)\s*</.exec(block)?.[1];
  // An xs:ID must be an NCName; anything else would make the signature element invalid.
  return id && /^[A-Za-z_][\w.-]*$/.test(id) ? id : DEFAULT_SIGNATURE_ID;
}

function signedInfo(digest: string, namespaces: string): string {
  return (
    `<ds:SignedInfo${namespaces}>` +
    `<ds:CanonicalizationMethod Algorithm="${C14N}"></ds:CanonicalizationMethod>` +
    `<ds:SignatureMethod Algorithm="${RSA_SHA256}"></ds:SignatureMethod>` +
    `<ds:Reference URI=""><ds:Transforms><ds:Transform Algorithm="${ENVELOPED}"></ds:Transform></ds:Transforms>` +
    `<ds:DigestMethod Algorithm="${SHA256}"></ds:DigestMethod><ds:DigestValue>${digest}</ds:DigestValue>` +
    `</ds:Reference></ds:SignedInfo>`
  );
}

/** Inclusive C14N renders on SignedInfo every namespace in scope there, default first, then by prefix. */
function namespaceAttributes(inScope: ReadonlyMap<string, string>): string {
  const prefixes = [...inScope.keys()].sort();
  let out = '';
  for (const prefix of prefixes) {
    const uri = inScope.get(prefix)!;
    if (uri) out += prefix ? ` xmlns:${prefix}="${uri}"` : ` xmlns="${uri}"`;
  }
  return out;
}

function signCanonical(
  xml: string,
  insertAt: number,
  inScope: ReadonlyMap<string, string>,
  signer: Signer,
): SignedXmlResult {
  const digest = createHash('sha256').update(xml, 'utf8').digest('base64');
  const dsInScope = inScope.get('ds');
  // A document that already binds `ds` elsewhere would need another prefix: leave that rare case to the DOM path.
  if (dsInScope !== undefined && dsInScope !== DS_NS) return signWithDom(xml, signer);
  const scope = dsInScope ? inScope : new Map(inScope).set('ds', DS_NS);
  // Namespace URIs are already attribute-escaped: they come from canonical attributes.
  const info = signedInfo(digest, '');
  const canonicalInfo = signedInfo(digest, namespaceAttributes(scope));
  const value = sign('sha256', Buffer.from(canonicalInfo, 'utf8'), signer.key).toString('base64');
  const signature =
    `<ds:Signature${dsInScope ? '' : ` xmlns:ds="${DS_NS}"`} Id="${signatureId(xml)}">${info}` +
    `<ds:SignatureValue>${value}</ds:SignatureValue>` +
    `<ds:KeyInfo><ds:X509Data><ds:X509Certificate>${signer.certificateBase64}</ds:X509Certificate></ds:X509Data></ds:KeyInfo>` +
    `</ds:Signature>`;
  return { xml: XML_DECLARATION + xml.slice(0, insertAt) + signature + xml.slice(insertAt), hash: digest };
}

/** The slow path for documents that are not already canonical: xml-crypto canonicalises through a DOM. */
function signWithDom(xml: string, signer: Signer): SignedXmlResult {
  const signed = new SignedXml({
    privateKey: signer.key,
    publicCert: signer.certificatePem,
    signatureAlgorithm: RSA_SHA256,
    canonicalizationAlgorithm: C14N,
  });
  signed.addReference({ xpath: '/*', transforms: [ENVELOPED], digestAlgorithm: SHA256, isEmptyUri: true });
  signed.computeSignature(xml, {
    prefix: 'ds',
    attrs: { Id: signatureId(xml) },
    location: { reference: "(//*[local-name()='ExtensionContent'][not(*)])[1]", action: 'append' },
  });
  const digest = /<ds:DigestValue>([^<]+)<\/ds:DigestValue>/.exec(signed.getSignatureXml())?.[1];
  if (!digest) throw new Error('xml-crypto produced no digest');
  // The declaration (if any) said how the input was encoded; the output is a JS string written as UTF-8.
  const body = signed.getSignedXml().replace(/^\s*<\?xml[^>]*\?>\s*/, '');
  return { xml: XML_DECLARATION + body, hash: digest };
}
