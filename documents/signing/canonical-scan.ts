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
 * One linear pass of native searches (`indexOf`, sticky patterns); see docs/benchmarks-history.md (bench:sign) for its cost.
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
const SPACE = 32;

// Sticky patterns, run at a given offset: a start-tag name (test, no allocation) and an attribute's ` name="`.
const ELEMENT_NAME = /[^\s<>/="'!?&]+/y;
const ATTRIBUTE_HEAD = / ([^\s<>/="'&]+)="/y;

const TEXT_ENTITIES = ['amp;', 'lt;', 'gt;', '#xD;'];
const ATTR_ENTITIES = ['amp;', 'lt;', 'quot;', '#x9;', '#xA;', '#xD;'];

/**
 * Characters that may appear only in some regions ('&' in text and values, tab and newline in text) are tracked by
 * a pointer to their next occurrence: each region moves the pointers past the occurrences it allows, so one that is
 * still behind the cursor sits where it may not (a tag). This keeps every search native and every check linear.
 */
class Cursor {
  nextAmp: number;
  nextTab: number;
  nextNewline: number;
  constructor(readonly xml: string) {
    this.nextAmp = this.find('&', 0);
    this.nextTab = this.find('\t', 0);
    this.nextNewline = this.find('\n', 0);
  }
  find(ch: string, from: number): number {
    const at = this.xml.indexOf(ch, from);
    return at < 0 ? this.xml.length : at;
  }
  /** Entities in [from, to) are of the allowed kinds and nothing disallowed was left behind. */
  entities(from: number, to: number, allowed: readonly string[]): boolean {
    if (this.nextAmp < from) return false;
    while (this.nextAmp < to) {
      const at = this.nextAmp + 1;
      if (!allowed.some((e) => this.xml.startsWith(e, at))) return false;
      this.nextAmp = this.find('&', at);
    }
    return true;
  }
  /** Raw tabs and newlines are canonical only in text. */
  whitespace(from: number, to: number): boolean {
    if (this.nextTab < from || this.nextNewline < from) return false;
    if (this.nextTab < to) this.nextTab = this.find('\t', to);
    if (this.nextNewline < to) this.nextNewline = this.find('\n', to);
    return true;
  }
}

/** Where to put the signature when `xml` is provably canonical; null otherwise (use the DOM signer). */
export function scanCanonical(xml: string): CanonicalScan | null {
  const n = xml.length;
  if (n === 0 || xml.charCodeAt(0) !== LT || xml.indexOf('\r') >= 0) return null;
  const cursor = new Cursor(xml);
  const names: string[] = [];
  const scopes: ReadonlyMap<string, string>[] = [];
  let scope: ReadonlyMap<string, string> = new Map();
  let found: CanonicalScan | null = null;
  let pos = 0;
  let lt = 0;
  while (pos < n) {
    if (lt > pos) {
      // Text: only inside the root, no raw '>', canonical entities.
      if (names.length === 0) return null;
      const gt = xml.indexOf('>', pos);
      if (gt >= 0 && gt < lt) return null;
      if (!cursor.entities(pos, lt, TEXT_ENTITIES) || !cursor.whitespace(pos, lt)) return null;
    } else if (!cursor.whitespace(pos, lt)) return null;
    if (xml.charCodeAt(lt + 1) === SLASH) {
      const name = names.pop();
      if (name === undefined || !xml.startsWith(name, lt + 2) || xml.charCodeAt(lt + 2 + name.length) !== GT)
        return null;
      scope = scopes.pop()!;
      pos = lt + 3 + name.length;
      if (names.length === 0)
        return pos === n && cursor.nextAmp === n && cursor.nextTab === n && cursor.nextNewline === n ? found : null;
      lt = xml.indexOf('<', pos);
      if (lt < 0) return null;
      continue;
    }
    if (names.length === 0 && lt !== 0) return null;
    ELEMENT_NAME.lastIndex = lt + 1;
    if (!ELEMENT_NAME.test(xml)) return null;
    let i = ELEMENT_NAME.lastIndex;
    const name = xml.slice(lt + 1, i);
    let declared: Map<string, string> | undefined;
    let previous = '';
    let previousRank = -1;
    while (xml.charCodeAt(i) === SPACE) {
      // Attributes: ` name="value"` repeated, in canonical order.
      ATTRIBUTE_HEAD.lastIndex = i;
      const head = ATTRIBUTE_HEAD.exec(xml);
      if (!head) return null;
      const attr = head[1];
      const valueStart = ATTRIBUTE_HEAD.lastIndex;
      const close = xml.indexOf('"', valueStart);
      if (close < 0 || !cursor.entities(valueStart, close, ATTR_ENTITIES)) return null;
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
    // No '<' inside the tag (attribute values included), no raw tab or newline in it.
    const next = xml.indexOf('<', lt + 1);
    if (next >= 0 && next < i) return null;
    if (!cursor.whitespace(i, i)) return null;
    names.push(name);
    scopes.push(scope);
    if (declared) scope = declared;
    pos = i + 1;
    if (!found && isExtensionContent(name, scope) && isEmptyElement(xml, pos, name)) {
      found = { insertAt: pos, namespaces: scope };
    }
    if (next < 0) return null;
    lt = next;
  }
  return null;
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
