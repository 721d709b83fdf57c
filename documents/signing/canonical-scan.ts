/**
 * Decides whether a string is already in Canonical XML 1.0 form (inclusive, without comments) and finds where the
 * signature goes. The signer digests such a string as it is, so this check is what makes the fast path safe:
 * anything it cannot prove canonical goes to xml-crypto instead.
 *
 * Accepted (the shape `documents/xml/canonical.ts` writes): no XML declaration, comments, processing instructions,
 * CDATA or DOCTYPE; no text outside the root; start tags as `<name a="v" b="v">` with one space before each
 * attribute, namespace declarations first (default, then by prefix), then unprefixed attributes by name, and no
 * other prefixed attribute (their canonical order depends on namespace URIs: not worth it); no namespace declaration
 * the parent already has in scope; no empty-element tags; canonical escaping in text (`&amp; &lt; &gt; &#xD;`) and
 * attributes (`&amp; &lt; &quot; &#x9; &#xA; &#xD;`); balanced tags. One linear pass, no DOM.
 */

const EXTENSION_NS = 'urn:oasis:names:specification:ubl:schema:xsd:CommonExtensionComponents-2';

export interface CanonicalScan {
  /** Offset right after the start tag of the first empty (or whitespace-only) `ExtensionContent`. */
  insertAt: number;
  /** Namespace declarations in scope there: prefix ('' for the default namespace) → URI. */
  namespaces: ReadonlyMap<string, string>;
}

// One tag with the text before it. Names: any run without markup characters (well-formedness of names is not
// what decides canonical form). Attributes: exactly ` name="value"`, no raw tab/newline/CR in values.
const TAG = /([^<]*)<(\/?)([^\s<>/="'!?]+)((?: [^\s<>/="']+="[^"<\t\n\r]*")*)>/y;
const ATTR = / ([^\s<>/="']+)="([^"]*)"/g;
const BAD_TEXT = /[>\r]|&(?!(?:amp|lt|gt|#xD);)/;
const BAD_ATTR = /&(?!(?:amp|lt|quot|#x9|#xA|#xD);)/;
const BLANK = /^[ \t\n]*$/;

function rank(name: string): number {
  if (name === 'xmlns') return 0;
  if (name.startsWith('xmlns:')) return 1;
  return 2;
}

/** Namespaces declared by a start tag, or null when its attributes are not in canonical form. */
function readAttributes(attrs: string, scope: ReadonlyMap<string, string>): Map<string, string> | null | undefined {
  let declared: Map<string, string> | undefined;
  let previous = '';
  let previousRank = -1;
  ATTR.lastIndex = 0;
  for (let m = ATTR.exec(attrs); m; m = ATTR.exec(attrs)) {
    const name = m[1];
    const value = m[2];
    const r = rank(name);
    if (r < previousRank || (r === previousRank && name <= previous)) return null;
    previous = name;
    previousRank = r;
    if (BAD_ATTR.test(value)) return null;
    if (r === 2) {
      if (name.includes(':')) return null;
      continue;
    }
    const prefix = r === 0 ? '' : name.slice(6);
    if (r === 1 && value === '') return null;
    // C14N drops a declaration the parent already renders (and xmlns="" where no default namespace is in scope).
    if ((scope.get(prefix) ?? '') === value) return null;
    declared ??= new Map(scope);
    declared.set(prefix, value);
  }
  return declared;
}

/** Where to put the signature when `xml` is provably canonical; null otherwise (use the DOM signer). */
export function scanCanonical(xml: string): CanonicalScan | null {
  const names: string[] = [];
  const scopes: ReadonlyMap<string, string>[] = [];
  let scope: ReadonlyMap<string, string> = new Map();
  let found: CanonicalScan | null = null;
  let pos = 0;
  TAG.lastIndex = 0;
  while (pos < xml.length) {
    const m = TAG.exec(xml);
    if (!m) return null;
    const text = m[1];
    const name = m[3];
    if (text && (names.length === 0 || BAD_TEXT.test(text))) return null;
    if (m[2]) {
      if (m[4] || names.pop() !== name) return null;
      scope = scopes.pop()!;
      if (names.length === 0 && TAG.lastIndex !== xml.length) return null;
    } else {
      if (names.length === 0 && pos !== 0) return null;
      const declared = m[4] ? readAttributes(m[4], scope) : undefined;
      if (declared === null) return null;
      names.push(name);
      scopes.push(scope);
      if (declared) scope = declared;
      if (!found && isExtensionContent(name, scope) && isEmptyElement(xml, TAG.lastIndex, name)) {
        found = { insertAt: TAG.lastIndex, namespaces: scope };
      }
    }
    pos = TAG.lastIndex;
  }
  return names.length === 0 ? found : null;
}

function isExtensionContent(name: string, scope: ReadonlyMap<string, string>): boolean {
  const colon = name.indexOf(':');
  const local = colon < 0 ? name : name.slice(colon + 1);
  return local === 'ExtensionContent' && scope.get(colon < 0 ? '' : name.slice(0, colon)) === EXTENSION_NS;
}

function isEmptyElement(xml: string, contentStart: number, name: string): boolean {
  const end = xml.indexOf('<', contentStart);
  return end >= 0 && xml.startsWith(`</${name}>`, end) && BLANK.test(xml.slice(contentStart, end));
}
