/**
 * XML from outside (an integrator's signed document, an authority's SOAP answer or CDR, a file given to `chasqui
 * validate`) never needs a DTD, and a DTD is what entity expansion (billion laughs) and external entities (a file or
 * a URL read by the parser) ride on. Such a text is refused before any parser sees it, whatever that parser would do
 * with it (docs/security.md, "XML").
 */

/** Whether the XML's prolog (before the root element) carries a `<!DOCTYPE …>`, the only place a DTD may stand. */
export function declaresDtd(xml: string): boolean {
  let at = xml.charCodeAt(0) === 0xfeff ? 1 : 0;
  for (;;) {
    while (at < xml.length && ' \t\r\n'.includes(xml[at])) at++;
    if (xml.startsWith('<?', at)) at = skipPast(xml, '?>', at);
    else if (xml.startsWith('<!--', at)) at = skipPast(xml, '-->', at);
    else return xml.slice(at, at + 9).toUpperCase() === '<!DOCTYPE';
    if (at < 0) return false;
  }
}

function skipPast(xml: string, end: string, from: number): number {
  const found = xml.indexOf(end, from + 2);
  return found < 0 ? -1 : found + end.length;
}

export const DTD_REFUSED = 'the XML declares a DOCTYPE: DTDs and entities are refused';
