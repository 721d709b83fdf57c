import { el, escapeText } from '../documents/xml/canonical';

/**
 * SOAP as SUNAT speaks it: requests are read with prefix-agnostic patterns (clients choose their own prefixes),
 * answers are written like SUNAT's (prefix `soap-env`, operation element in http://service.sunat.gob.pe, parts unqualified).
 */
export interface SoapCall {
  operation: string;
  username: string | null;
  password: string | null;
  params: Record<string, string>;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decode(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]+|#\d+|\w+);/g, (m, e: string) =>
    e[0] === '#' ? String.fromCodePoint(e[1] === 'x' ? parseInt(e.slice(2), 16) : Number(e.slice(1))) : (ENTITIES[e] ?? m),
  );
}

const PARAMS = ['fileName', 'contentFile', 'ticket', 'rucComprobante', 'tipoComprobante', 'serieComprobante', 'numeroComprobante'];
const PATTERNS = new Map(
  [...PARAMS, 'Username', 'Password'].map((local) => [local, new RegExp(`<(?:[\\w.-]+:)?${local}(?:\\s[^>]*)?>([^<]*)</(?:[\\w.-]+:)?${local}>`)]),
);

function element(xml: string, local: string): string | null {
  const m = PATTERNS.get(local)!.exec(xml);
  return m ? decode(m[1].trim()) : null;
}

/** The operation, WS-Security user and parameters of a request; null when it is not a SOAP call. */
export function readSoapCall(xml: string): SoapCall | null {
  const body = /<(?:[\w.-]+:)?Body(?:\s[^>]*)?>\s*<(?:[\w.-]+:)?([\w.-]+)/.exec(xml);
  if (!body || !/<(?:[\w.-]+:)?Envelope[\s>]/.test(xml)) return null;
  const params: Record<string, string> = {};
  for (const name of PARAMS) {
    const value = element(xml, name);
    if (value !== null) params[name] = value;
  }
  return { operation: body[1], username: element(xml, 'Username'), password: element(xml, 'Password'), params };
}

const ENVELOPE_OPEN =
  '<soap-env:Envelope xmlns:soap-env="http://schemas.xmlsoap.org/soap/envelope/"><soap-env:Header/><soap-env:Body>';
const ENVELOPE_CLOSE = '</soap-env:Body></soap-env:Envelope>';

/** `<br:{operation}Response>` with the given unqualified parts, in WSDL order. */
export function soapResponse(operation: string, content: string): string {
  return `${ENVELOPE_OPEN}<br:${operation}Response xmlns:br="http://service.sunat.gob.pe">${content}</br:${operation}Response>${ENVELOPE_CLOSE}`;
}

export function part(name: string, value: string): string {
  return el(name, value).s;
}

/** A SOAP 1.1 fault carrying the SUNAT code the way SUNAT does: `soap-env:Client.<code>`. */
export function soapFault(code: string | null, message: string): string {
  const faultcode = code ? `soap-env:Client.${code}` : 'soap-env:Client';
  return `${ENVELOPE_OPEN}<soap-env:Fault><faultcode>${faultcode}</faultcode><faultstring>${escapeText(message)}</faultstring></soap-env:Fault>${ENVELOPE_CLOSE}`;
}
