/**
 * Decides whether a string is already in Canonical XML 1.0 form (inclusive, without comments) and finds where the
 * signature goes. The signer digests such a string as it is, so this check is what makes the fast path safe:
 * anything it cannot prove canonical goes to xml-crypto instead.
 *
 * Accepted (the shape `documents/xml/canonical.ts` writes): no XML declaration, comments, processing instructions,
 * CDATA or DOCTYPE; no text outside the root; no raw CR anywhere; start tags as `<name a="v" b="v">` with one space
 * before each attribute, namespace declarations first (default, then by prefix), then unprefixed attributes by
 * name, and no other prefixed attribute (their canonical order depends on namespace URIs: not worth it); no
 * namespace declaration the parent already has in scope; no empty-element tags; canonical escaping in text
 * (`&amp; &lt; &gt; &#xD;`, no raw `>`) and attributes (`&amp; &lt; &quot; &#x9; &#xA; &#xD;`, no raw tab or
 * newline); balanced tags.
 *
 * One linear pass with native `indexOf` searches and no regular expressions or per-tag allocations beyond the
 * element names: about 1 ns per character, small next to SHA-256 and RSA (bench:sign).
 */

const EXTENSION_NS = 'urn:oasis:names:specification:ubl:schema:xsd:CommonExtensionComponents-2';

export interface CanonicalScan {
  /** Offset right after the start tag of the first empty (or whitespace-only) `ExtensionContent`. */
  insertAt: number;
  /** Namespace declarations in scope there: prefix ('' for the default namespace) → URI. */
  namespaces: ReadonlyMap<string, string>;
}

const LT = 60;
const GT = 62;
const SLASH = 47;
const QUOTE = 34;
const SPACE = 32;
const EQUALS = 61;

const TEXT_ENTITIES = ['amp;', 'lt;', 'gt;', '#xD;'];
const ATTR_ENTITIES = ['amp;', 'lt;', 'quot;', '#x9;', '#xA;', '#xD;'];

/** Where to put the signature when `xml` is provably canonical; null otherwise (use the DOM signer). */
export function scanCanonical(xml: string): CanonicalScan | null {
  const n = xml.length;
  if (n === 0 || xml.charCodeAt(0) !== LT || xml.indexOf('\r') >= 0) return null;
  const names: string[] = [];
  const scopes: ReadonlyMap<string, string>[] = [];
  let scope: ReadonlyMap<string, string> = new Map();
  let found: CanonicalScan | null = null;
  // The next '&' ahead of the cursor: every one must sit in text or in an attribute value, in canonical form.
  let nextAmp = xml.indexOf('&');
  if (nextAmp < 0) nextAmp = n;
  const entitiesOk = (from: number, to: number, allowed: readonly string[]): boolean => {
    if (nextAmp < from) return false;
    while (nextAmp < to) {
      if (!allowed.some((e) => xml.startsWith(e, nextAmp + 1))) return false;
      nextAmp = xml.indexOf('&', nextAmp + 1);
      if (nextAmp < 0) nextAmp = n;
    }
    return true;
  };

  let pos = 0;
  while (pos < n) {
    const lt = xml.indexOf('<', pos);
    if (lt < 0) return null;
    if (lt > pos) {
      // Text: only inside the root, no raw '>', canonical entities.
      if (names.length === 0) return null;
      const gt = xml.indexOf('>', pos);
      if (gt >= 0 && gt < lt) return null;
      if (!entitiesOk(pos, lt, TEXT_ENTITIES)) return null;
    }
    if (xml.charCodeAt(lt + 1) === SLASH) {
      const name = names.pop();
      if (name === undefined || !xml.startsWith(name, lt + 2) || xml.charCodeAt(lt + 2 + name.length) !== GT) return null;
      scope = scopes.pop()!;
      pos = lt + 3 + name.length;
      if (names.length === 0 && pos !== n) return null;
      continue;
    }
    if (names.length === 0 && lt !== 0) return null;
    let i = lt + 1;
    for (; i < n; i++) {
      const c = xml.charCodeAt(i);
      if (c === SPACE || c === GT) break;
      if (c <= SPACE || c === LT || c === SLASH || c === EQUALS || c === QUOTE || c === 39 || c === 33 || c === 63) return null;
    }
    if (i === lt + 1 || i >= n) return null;
    const name = xml.slice(lt + 1, i);
    let declared: Map<string, string> | undefined;
    if (xml.charCodeAt(i) === SPACE) {
      // Attributes: ` name="value"` repeated, in canonical order.
      let previous = '';
      let previousRank = -1;
      while (xml.charCodeAt(i) === SPACE) {
        const eq = xml.indexOf('="', i + 1);
        if (eq < 0) return null;
        const attr = xml.slice(i + 1, eq);
        for (let k = 0; k < attr.length; k++) {
          const c = attr.charCodeAt(k);
          if (c <= SPACE || c === LT || c === GT || c === SLASH || c === QUOTE || c === 39 || c === EQUALS) return null;
        }
        const close = xml.indexOf('"', eq + 2);
        if (close < 0) return null;
        const valueStart = eq + 2;
        for (let k = valueStart; k < close; k++) {
          const c = xml.charCodeAt(k);
          if (c === LT || c === 9 || c === 10) return null;
        }
        if (!entitiesOk(valueStart, close, ATTR_ENTITIES)) return null;
        const rank = attr === 'xmlns' ? 0 : attr.startsWith('xmlns:') ? 1 : 2;
        if (rank < previousRank || (rank === previousRank && attr <= previous)) return null;
        previous = attr;
        previousRank = rank;
        if (rank === 2) {
          if (attr.includes(':')) return null;
        } else {
          const prefix = rank === 0 ? '' : attr.slice(6);
          const uri = xml.slice(valueStart, close);
          if (rank === 1 && uri === '') return null;
          // C14N drops a declaration the parent already renders (and xmlns="" where no default is in scope).
          if ((scope.get(prefix) ?? '') === uri) return null;
          declared ??= new Map(scope);
          declared.set(prefix, uri);
        }
        i = close + 1;
      }
      if (xml.charCodeAt(i) !== GT) return null;
    }
    names.push(name);
    scopes.push(scope);
    if (declared) scope = declared;
    pos = i + 1;
    if (!found && isExtensionContent(name, scope) && isEmptyElement(xml, pos, name)) {
      found = { insertAt: pos, namespaces: scope };
    }
  }
  return names.length === 0 && nextAmp === n ? found : null;
}

function isExtensionContent(name: string, scope: ReadonlyMap<string, string>): boolean {
  if (!name.endsWith('ExtensionContent')) return false;
  const colon = name.indexOf(':');
  const local = colon < 0 ? name : name.slice(colon + 1);
  return local === 'ExtensionContent' && scope.get(colon < 0 ? '' : name.slice(0, colon)) === EXTENSION_NS;
}

function isEmptyElement(xml: string, contentStart: number, name: string): boolean {
  const end = xml.indexOf('<', contentStart);
  return end >= 0 && xml.startsWith(`</${name}>`, end) && /^[ \t\n]*$/.test(xml.slice(contentStart, end));
}
