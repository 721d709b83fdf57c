/**
 * A direct check of enveloped signatures canonicalised with Exclusive XML Canonicalization (SUNAT's and most OSEs'
 * CDRs: exc-c14n#WithComments, RSA-SHA512), on the DOM the reader has already parsed. xml-crypto does the same job
 * through XPath selections and a second parse and cost about 2 ms of the worker's CPU per CDR; this walk costs a
 * fraction of that. It decides only the plain shape (one Reference URI="", enveloped + exc-c14n transforms, no
 * InclusiveNamespaces, no comments or processing instructions in the document, RSA with SHA-1/256/512), and only says
 * "verified": anything else, a digest or value that does not hold included, goes to xml-crypto for the verdict and its
 * reason (`verifyXmlSignature`).
 */
import { createHash, verify } from 'node:crypto';
import { publicKeyOf } from './public-keys';
import { DS_NS, ENVELOPED } from './signer';

const EXC_C14N = 'http://www.w3.org/2001/10/xml-exc-c14n#';
const EXC_C14N_WITH_COMMENTS = 'http://www.w3.org/2001/10/xml-exc-c14n#WithComments';
const DIGESTS: Record<string, string> = {
  'http://www.w3.org/2000/09/xmldsig#sha1': 'sha1',
  'http://www.w3.org/2001/04/xmlenc#sha256': 'sha256',
  'http://www.w3.org/2001/04/xmlenc#sha512': 'sha512',
};
const SIGNATURES: Record<string, string> = {
  'http://www.w3.org/2000/09/xmldsig#rsa-sha1': 'sha1',
  'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256': 'sha256',
  'http://www.w3.org/2001/04/xmldsig-more#rsa-sha512': 'sha512',
};
const ELEMENT = 1;
const TEXT = 3;
const CDATA = 4;
const PROCESSING_INSTRUCTION = 7;
const COMMENT = 8;

const escapeText = (s: string) =>
  s.replace(/[&<>\r]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : '&#xD;'));
const escapeAttribute = (s: string) =>
  s.replace(/[&<"\t\n\r]/g, (c) =>
    c === '&'
      ? '&amp;'
      : c === '<'
        ? '&lt;'
        : c === '"'
          ? '&quot;'
          : c === '\t'
            ? '&#x9;'
            : c === '\n'
              ? '&#xA;'
              : '&#xD;',
  );

/** Thrown for what this rendering leaves to xml-crypto: a comment or a processing instruction inside the element. */
class Unrendered extends Error {}

/**
 * Exclusive canonical form (without comments) of `element`'s subtree, leaving out `omit` (the enveloped signature).
 * `rendered`: the namespace declarations already in force from output ancestors (none for an apex element). Throws
 * `Unrendered` at a comment or processing instruction (a same-document reference drops comments; xml-crypto decides).
 */
export function exclusiveCanonical(
  element: Element,
  omit: Node | null = null,
  rendered: ReadonlyMap<string, string> = new Map(),
): string {
  const prefix = element.prefix ?? '';
  // Visibly utilised namespaces: the element's own prefix (or the default one) and its attributes' prefixes.
  const used = new Map<string, string>([[prefix, element.namespaceURI ?? '']]);
  const attributes: Attr[] = [];
  for (let i = 0; i < element.attributes.length; i++) {
    const attribute = element.attributes[i];
    if (attribute.name === 'xmlns' || attribute.prefix === 'xmlns') continue;
    if (attribute.prefix && attribute.prefix !== 'xml') used.set(attribute.prefix, attribute.namespaceURI ?? '');
    attributes.push(attribute);
  }
  let out = `<${element.tagName}`;
  let inScope = rendered;
  for (const p of [...used.keys()].sort()) {
    const uri = used.get(p)!;
    if ((rendered.get(p) ?? '') === uri) continue;
    out += p ? ` xmlns:${p}="${escapeAttribute(uri)}"` : ` xmlns="${escapeAttribute(uri)}"`;
    if (inScope === rendered) inScope = new Map(rendered);
    (inScope as Map<string, string>).set(p, uri);
  }
  // By namespace URI (none first), then local name, in code point order.
  const key = (a: Attr) => `${a.namespaceURI ?? ''} ${a.localName}`;
  attributes.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  for (const attribute of attributes) out += ` ${attribute.name}="${escapeAttribute(attribute.value)}"`;
  out += '>';
  for (let child = element.firstChild; child; child = child.nextSibling) {
    if (child === omit) continue;
    if (child.nodeType === ELEMENT) out += exclusiveCanonical(child as Element, omit, inScope);
    else if (child.nodeType === TEXT || child.nodeType === CDATA) out += escapeText((child as Text).data);
    else if (child.nodeType === COMMENT || child.nodeType === PROCESSING_INSTRUCTION) throw new Unrendered();
  }
  return `${out}</${element.tagName}>`;
}

/** Outside the root only the XML declaration and whitespace (neither is canonicalised) may stand; inside, see `Unrendered`. */
function plainProlog(doc: Document): boolean {
  for (let child = doc.firstChild; child; child = child.nextSibling) {
    const declaration = child.nodeType === PROCESSING_INSTRUCTION && (child as ProcessingInstruction).target === 'xml';
    const blank = child.nodeType === TEXT && !(child as Text).data.trim();
    if (child.nodeType !== ELEMENT && !declaration && !blank) return false;
  }
  return true;
}

function elementChildren(parent: Element): Element[] {
  const children: Element[] = [];
  for (let child = parent.firstChild; child; child = child.nextSibling)
    if (child.nodeType === ELEMENT) children.push(child as Element);
  return children;
}

const algorithmOf = (element: Element | undefined, localName: string) =>
  element && element.namespaceURI === DS_NS && element.localName === localName
    ? element.getAttribute('Algorithm')
    : null;

/**
 * True when `signature` (a ds:Signature of the plain shape above, enveloped in `doc`) verifies with `certificateBase64`;
 * null when it cannot tell (another shape, or something does not hold: the caller's full verifier decides then).
 */
export function verifiesExclusive(doc: Document, signature: Element, certificateBase64: string): true | null {
  if (!plainProlog(doc)) return null;
  const [signedInfo, signatureValue] = elementChildren(signature);
  if (
    signedInfo?.namespaceURI !== DS_NS ||
    signedInfo.localName !== 'SignedInfo' ||
    signatureValue?.localName !== 'SignatureValue'
  )
    return null;
  const [canonicalization, method, reference, ...more] = elementChildren(signedInfo);
  const c14n = algorithmOf(canonicalization, 'CanonicalizationMethod');
  const hash = SIGNATURES[algorithmOf(method, 'SignatureMethod') ?? ''];
  if (
    more.length ||
    (c14n !== EXC_C14N && c14n !== EXC_C14N_WITH_COMMENTS) ||
    elementChildren(canonicalization).length ||
    !hash
  )
    return null;
  if (reference?.namespaceURI !== DS_NS || reference.localName !== 'Reference' || reference.getAttribute('URI') !== '')
    return null;
  const [transformsElement, digestMethod, digestValue, ...rest] = elementChildren(reference);
  if (rest.length || transformsElement?.localName !== 'Transforms' || digestValue?.localName !== 'DigestValue')
    return null;
  // Enveloped then exclusive (enveloped alone would mean inclusive C14N, which this does not render).
  const transforms = elementChildren(transformsElement).map((t) =>
    elementChildren(t).length ? null : algorithmOf(t, 'Transform'),
  );
  if (
    transforms.length !== 2 ||
    transforms[0] !== ENVELOPED ||
    (transforms[1] !== EXC_C14N && transforms[1] !== EXC_C14N_WITH_COMMENTS)
  )
    return null;
  const digestAlgorithm = DIGESTS[algorithmOf(digestMethod, 'DigestMethod') ?? ''];
  if (!digestAlgorithm) return null;
  try {
    const digest = createHash(digestAlgorithm)
      .update(exclusiveCanonical(doc.documentElement, signature), 'utf8')
      .digest('base64');
    if (digest !== (digestValue.textContent ?? '').replace(/\s+/g, '')) return null;
    const value = Buffer.from((signatureValue.textContent ?? '').replace(/\s+/g, ''), 'base64');
    return verify(hash, Buffer.from(exclusiveCanonical(signedInfo), 'utf8'), publicKeyOf(certificateBase64), value)
      ? true
      : null;
  } catch {
    // Unrendered content, or a key or value the crypto library refuses: xml-crypto decides and says why.
    return null;
  }
}
