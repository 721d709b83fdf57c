/**
 * A tiny XML writer whose output is already in Canonical XML 1.0 form (W3C C14N, no comments):
 * empty elements as start/end pairs, attributes in canonical order, canonical escaping, no XML declaration.
 * Builders emit documents with it so the signer can digest the string as it is, with no DOM and no
 * re-canonicalisation (the reason chasqui signs at close to the speed of RSA).
 *
 * Canonical attribute order: namespace declarations first (default, then by prefix), then attributes without
 * a prefix by local name, then prefixed attributes by qualified name (UBL documents use none of the latter).
 */

/** Markup already serialised canonically; plain strings passed as children are text and get escaped. */
export class Xml {
  constructor(readonly s: string) {}
  toString(): string {
    return this.s;
  }
}

export type AttrValue = string | number | null | undefined | false;
export type Attrs = Record<string, AttrValue>;
export type Child = Xml | string | number | null | undefined | false | readonly Child[];

const TEXT_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '\r': '&#xD;' };
const ATTR_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '"': '&quot;',
  '\t': '&#x9;',
  '\n': '&#xA;',
  '\r': '&#xD;',
};

export function escapeText(value: string): string {
  return /[&<>\r]/.test(value) ? value.replace(/[&<>\r]/g, (c) => TEXT_ESCAPES[c]) : value;
}

export function escapeAttr(value: string): string {
  return /[&<"\t\n\r]/.test(value) ? value.replace(/[&<"\t\n\r]/g, (c) => ATTR_ESCAPES[c]) : value;
}

function attrRank(name: string): number {
  if (name === 'xmlns') return 0;
  if (name.startsWith('xmlns:')) return 1;
  return name.includes(':') ? 3 : 2;
}

function compareAttrs(a: string, b: string): number {
  const ra = attrRank(a);
  const rb = attrRank(b);
  if (ra !== rb) return ra - rb;
  return a < b ? -1 : a > b ? 1 : 0;
}

function serialiseAttrs(attrs: Attrs): string {
  const names: string[] = [];
  for (const name in attrs) {
    const v = attrs[name];
    if (v !== undefined && v !== null && v !== false) names.push(name);
  }
  if (names.length > 1) names.sort(compareAttrs);
  let out = '';
  for (const name of names) out += ` ${name}="${escapeAttr(String(attrs[name]))}"`;
  return out;
}

/**
 * Attributes serialised once, for attribute sets a builder writes thousands of times (`preAttrs({...})` at module
 * load, then `el(name, PRE, value)`); same canonical output as passing the object.
 */
export class SerialisedAttrs {
  constructor(readonly s: string) {}
}

export function preAttrs(attrs: Attrs): SerialisedAttrs {
  return new SerialisedAttrs(serialiseAttrs(attrs));
}

// Markup is built by `+=` on purpose: V8 keeps the result as a rope and copies it once, when the signer hashes the
// document, instead of once per nesting level as Array.join would (this writer is on the signing hot path).
function appendChild(child: Child, out: string): string {
  if (child === null || child === undefined || child === false) return out;
  if (child instanceof Xml) return out + child.s;
  if (typeof child === 'string') return out + escapeText(child);
  if (typeof child === 'number') return out + String(child);
  for (const c of child as readonly Child[]) out = appendChild(c, out);
  return out;
}

/** `el('cbc:ID', {schemeID: '6'}, '20123456789')` or `el('cac:Party', child1, child2)`. */
export function el(name: string, attrsOrChild?: Attrs | SerialisedAttrs | Child, ...children: Child[]): Xml {
  let out = `<${name}`;
  let first: Child = null;
  if (attrsOrChild instanceof SerialisedAttrs) out += attrsOrChild.s;
  else if (
    attrsOrChild !== null &&
    typeof attrsOrChild === 'object' &&
    !(attrsOrChild instanceof Xml) &&
    !Array.isArray(attrsOrChild)
  ) {
    out += serialiseAttrs(attrsOrChild as Attrs);
  } else first = attrsOrChild as Child;
  out = appendChild(first, out + '>');
  for (const child of children) out = appendChild(child, out);
  return new Xml(`${out}</${name}>`);
}

/** An element only when its value is present: `opt('cbc:DueDate', doc.dueDate)`. */
export function opt(
  name: string,
  value: string | number | null | undefined,
  attrs?: Attrs | SerialisedAttrs,
): Xml | null {
  if (value === null || value === undefined || value === '') return null;
  return attrs ? el(name, attrs, String(value)) : el(name, String(value));
}

/** Several siblings as one piece of markup. */
export function frag(...children: Child[]): Xml {
  return new Xml(appendChild(children, ''));
}
