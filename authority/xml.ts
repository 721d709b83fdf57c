import { DOMParser, onErrorStopParsing, type Document, type Element } from '@xmldom/xmldom';
import { declaresDtd } from '../documents/xml/dtd';

/** Namespace URIs the connectors read by (never by prefix: SUNAT prefixes, OSEs often use default namespaces). */
export const NS = {
  soap: 'http://schemas.xmlsoap.org/soap/envelope/',
  service: 'http://service.sunat.gob.pe',
  ar: 'urn:oasis:names:specification:ubl:schema:xsd:ApplicationResponse-2',
  cbc: 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2',
  cac: 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2',
  ds: 'http://www.w3.org/2000/09/xmldsig#',
} as const;

/**
 * xmldom 0.9 builds a new RegExp for every end tag it reads (`reg('^', QName_group, S_OPT, '$')` in its SAX parser):
 * the pattern text (a long Unicode class) is joined, hashed and the RegExp initialised each time, a third of the CPU of
 * parsing a CDR (0.34 ms of it for 3 kB). The parts are the grammar's own constants and the RegExp carries no state
 * (no `g` or `y` flag), so one per combination of parts is kept. The parser reads `reg` from the grammar module at each
 * call, which is what makes this replacement take effect; anything other than those constants goes to the original.
 */
const grammar = require('@xmldom/xmldom/lib/grammar') as { reg: (...parts: (string | RegExp)[]) => RegExp };
const buildRegExp = grammar.reg;
const builtRegExps = new Map<string, RegExp>();
const grammarIds = new Map<RegExp, number>();
grammar.reg = function reg(this: unknown, ...parts: (string | RegExp)[]): RegExp {
  let key = '';
  for (const part of parts) {
    if (part === '^' || part === '$') key += part;
    else if (part instanceof RegExp && !part.global && !part.sticky) {
      let id = grammarIds.get(part);
      if (id === undefined) grammarIds.set(part, (id = grammarIds.size));
      key += `#${id}`;
    } else return buildRegExp.apply(this, parts);
  }
  let built = builtRegExps.get(key);
  if (!built) builtRegExps.set(key, (built = buildRegExp.apply(this, parts)));
  return built;
};

/** A DOM for well-formed XML, null for anything else (HTML pages, truncated bodies, empty strings). */
export function parseXml(text: string): Document | null {
  if (!text.trim() || declaresDtd(text)) return null;
  try {
    const doc = new DOMParser({ onError: onErrorStopParsing }).parseFromString(text, 'text/xml');
    return doc.documentElement ? doc : null;
  } catch {
    return null;
  }
}

/** Element children of `parent`, optionally filtered by namespace URI and local name. */
export function childElements(parent: Element, ns?: string, localName?: string): Element[] {
  const out: Element[] = [];
  for (let n = parent.firstChild; n; n = n.nextSibling) {
    if (n.nodeType !== 1) continue;
    const e = n as Element;
    if ((ns === undefined || e.namespaceURI === ns) && (localName === undefined || e.localName === localName))
      out.push(e);
  }
  return out;
}

export function firstChild(parent: Element, ns: string | undefined, localName: string): Element | null {
  return childElements(parent, ns, localName)[0] ?? null;
}

/** Follows a path of [namespace, localName] steps through first matching children. */
export function childPath(parent: Element, ...steps: [string | undefined, string][]): Element | null {
  let current: Element | null = parent;
  for (const [ns, local] of steps) {
    if (!current) return null;
    current = firstChild(current, ns, local);
  }
  return current;
}

export function firstDescendant(parent: Element, ns: string, localName: string): Element | null {
  return (parent.getElementsByTagNameNS(ns, localName)[0] as Element | undefined) ?? null;
}

/** Trimmed text content, null when the element is absent or empty. */
export function textOf(e: Element | null): string | null {
  const t = e?.textContent?.trim();
  return t ? t : null;
}
