/** Reading back UBL that chasqui (or an issuer) signed: namespace-aware steps through `cac:`/`cbc:` children. */
import { DOMParser, type Element } from '@xmldom/xmldom';
import { declaresDtd, DTD_REFUSED } from './dtd';
import { STORED_BOUNDS, XmlBoundsError, xmlBoundsProblem } from './bounds';

export const CBC = 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2';
export const CAC = 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2';
export const DS = 'http://www.w3.org/2000/09/xmldsig#';

/**
 * The root element of an XML text; throws when it is not XML (a stored document is trusted input), and
 * XmlBoundsError past the bounds of a stored document, before parsing it.
 */
export function parseRoot(xml: string): Element {
  if (declaresDtd(xml)) throw new Error(DTD_REFUSED);
  const beyond = xmlBoundsProblem(xml, STORED_BOUNDS);
  if (beyond) throw new XmlBoundsError(beyond);
  const root = new DOMParser().parseFromString(xml, 'text/xml').documentElement;
  if (!root) throw new Error('signed document is not XML');
  return root;
}

export function children(parent: Element, ns: string, name: string): Element[] {
  const out: Element[] = [];
  for (let n = parent.firstChild; n; n = n.nextSibling) {
    if (n.nodeType === 1 && (n as Element).namespaceURI === ns && (n as Element).localName === name)
      out.push(n as Element);
  }
  return out;
}

const stepOf = (step: string): [string, string] => {
  const [prefix, name] = step.split(':');
  return [prefix === 'cbc' ? CBC : CAC, name];
};

/** First element down a path of `cac:`/`cbc:` steps. */
export function at(parent: Element | null, ...steps: string[]): Element | null {
  let current = parent;
  for (const step of steps) {
    if (!current) return null;
    const [ns, name] = stepOf(step);
    current = children(current, ns, name)[0] ?? null;
  }
  return current;
}

/** Every element at the end of a path (`all(root, 'cac:InvoiceLine')`, `all(line, 'cac:Item', 'cbc:Description')`). */
export function all(parent: Element | null, ...steps: string[]): Element[] {
  if (!parent) return [];
  const last = steps[steps.length - 1];
  const holder = steps.length > 1 ? at(parent, ...steps.slice(0, -1)) : parent;
  if (!holder) return [];
  const [ns, name] = stepOf(last);
  return children(holder, ns, name);
}

export const text = (e: Element | null): string | null => e?.textContent?.trim() || null;
