import type { Element } from '@xmldom/xmldom';
import { childElements, parseXml } from '../authority/xml';
import { el, escapeText } from '../documents/xml/canonical';

/**
 * SOAP as SUNAT speaks it, for every SOAP service the simulator serves (billService, billConsultService, and any
 * other service described by a `SoapServiceContract`). Requests are read strictly, by namespace URI (clients choose
 * their own prefixes): a SOAP 1.1 envelope, one operation of the service in http://service.sunat.gob.pe, its parts
 * unqualified as the WSDL's schema declares them, a WS-Security UsernameToken; MTOM/XOP packages are resolved.
 * Anything else is answered with a fault, never guessed at. Answers are written like SUNAT's (prefix `soap-env`,
 * operation element in the service namespace, parts unqualified).
 */
export const SOAP11_NS = 'http://schemas.xmlsoap.org/soap/envelope/';
export const SOAP12_NS = 'http://www.w3.org/2003/05/soap-envelope';
export const SERVICE_NS = 'http://service.sunat.gob.pe';
const WSSE_NS = 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd';
const XOP_NS = 'http://www.w3.org/2004/08/xop/include';

/** The operations of one SOAP service and the parts each takes (the WSDL's schema, in order). */
export type SoapServiceContract = Readonly<Record<string, readonly string[]>>;

export interface SoapCall {
  operation: string;
  /** null when the request carries no usable WS-Security UsernameToken (SUNAT: 0101). */
  username: string | null;
  password: string | null;
  params: Record<string, string>;
}

/** Why a request was refused before any SUNAT rule ran: the SOAP fault to answer. */
export interface SoapRefusal {
  faultcode: string;
  faultstring: string;
}

export type SoapRead = { ok: true; call: SoapCall } | { ok: false; refusal: SoapRefusal };

const refuse = (faultcode: string, faultstring: string): SoapRead => ({
  ok: false,
  refusal: { faultcode, faultstring },
});

/** Trimmed text of an element; XOP includes are replaced by their attachment, base64 (the WSDL's base64Binary). */
function valueOf(element: Element, attachments: Map<string, Buffer>): string | { missing: string } {
  const include = childElements(element, XOP_NS, 'Include')[0];
  if (!include) return (element.textContent ?? '').trim();
  const href = include.getAttribute('href') ?? '';
  const id = decodeURIComponent(href.replace(/^cid:/i, ''));
  const data = attachments.get(id);
  return data ? data.toString('base64') : { missing: href };
}

/**
 * Reads a request body against a service contract. `contentType` decides between a plain SOAP 1.1 message and an
 * MTOM package (multipart/related with an application/xop+xml root).
 */
export function readSoapRequest(body: Buffer, contentType: string, contract: SoapServiceContract): SoapRead {
  const mime = /^\s*multipart\/related/i.test(contentType)
    ? readMultipart(body, contentType)
    : { root: body.toString('utf8'), attachments: new Map<string, Buffer>() };
  if (!mime)
    return refuse('soap-env:Client', 'The MTOM package could not be read (multipart/related without its root part)');
  const envelope = parseXml(mime.root)?.documentElement;
  if (!envelope || envelope.localName !== 'Envelope')
    return refuse('soap-env:Client', 'The request is not a SOAP message');
  if (envelope.namespaceURI === SOAP12_NS || /application\/soap\+xml/i.test(contentType)) {
    return refuse(
      'soap-env:VersionMismatch',
      'SOAP 1.2 is not supported by this service: send a SOAP 1.1 envelope (http://schemas.xmlsoap.org/soap/envelope/)',
    );
  }
  if (envelope.namespaceURI !== SOAP11_NS)
    return refuse('soap-env:VersionMismatch', `Unknown SOAP envelope namespace ${envelope.namespaceURI ?? '(none)'}`);
  const body1 = childElements(envelope, SOAP11_NS, 'Body')[0];
  const payload = body1 ? childElements(body1) : [];
  if (payload.length !== 1) return refuse('soap-env:Client', 'The SOAP Body must hold exactly one operation element');
  const [operation] = payload;
  const parts = contract[operation.localName ?? ''];
  if (operation.namespaceURI !== SERVICE_NS || !parts) {
    return refuse(
      'soap-env:Client',
      `Cannot find dispatch method for {${operation.namespaceURI ?? ''}}${operation.localName}`,
    );
  }
  const params: Record<string, string> = {};
  for (const child of childElements(operation)) {
    if (child.namespaceURI !== null || !parts.includes(child.localName ?? '')) {
      const expected = parts.map((p) => `<{}${p}>`).join(',');
      return refuse(
        'soap-env:Client',
        `Unmarshalling Error: unexpected element (uri:"${child.namespaceURI ?? ''}", local:"${child.localName}"). Expected elements are ${expected}`,
      );
    }
    const value = valueOf(child, mime.attachments);
    if (typeof value !== 'string')
      return refuse('soap-env:Client', `The MTOM package has no attachment ${value.missing}`);
    params[child.localName!] = value;
  }
  const header = childElements(envelope, SOAP11_NS, 'Header')[0];
  const security = header ? childElements(header, WSSE_NS, 'Security')[0] : undefined;
  const token = security ? childElements(security, WSSE_NS, 'UsernameToken')[0] : undefined;
  const username = token ? childElements(token, WSSE_NS, 'Username')[0] : undefined;
  const password = token ? childElements(token, WSSE_NS, 'Password')[0] : undefined;
  return {
    ok: true,
    call: {
      operation: operation.localName!,
      username: username ? (username.textContent ?? '').trim() : null,
      password: password ? (password.textContent ?? '').trim() : null,
      params,
    },
  };
}

/** A multipart/related body split into its root (the SOAP envelope) and its attachments by Content-ID. */
function readMultipart(body: Buffer, contentType: string): { root: string; attachments: Map<string, Buffer> } | null {
  const boundary = /boundary="?([^";]+)"?/i.exec(contentType)?.[1];
  if (!boundary) return null;
  const start = /[;\s]start="?<?([^";>]+)>?"?/i.exec(contentType)?.[1] ?? null;
  const delimiter = Buffer.from(`--${boundary}`);
  const parts: { headers: Record<string, string>; data: Buffer }[] = [];
  let at = body.indexOf(delimiter);
  while (at >= 0) {
    const from = at + delimiter.length;
    if (body.subarray(from, from + 2).toString() === '--') break;
    const next = body.indexOf(delimiter, from);
    if (next < 0) break;
    const raw = body.subarray(from, next);
    const split = raw.indexOf('\r\n\r\n');
    if (split >= 0) {
      const headers: Record<string, string> = {};
      for (const line of raw.subarray(0, split).toString('latin1').split('\r\n')) {
        const colon = line.indexOf(':');
        if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      // The part ends with the CRLF that precedes the next delimiter.
      const end = raw.length >= 2 && raw.subarray(raw.length - 2).toString() === '\r\n' ? raw.length - 2 : raw.length;
      parts.push({ headers, data: raw.subarray(split + 4, end) });
    }
    at = next;
  }
  const idOf = (p: (typeof parts)[number]) => (p.headers['content-id'] ?? '').replace(/^<|>$/g, '');
  const root = (start ? parts.find((p) => idOf(p) === start) : undefined) ?? parts[0];
  if (!root) return null;
  const attachments = new Map<string, Buffer>();
  for (const p of parts) {
    if (p === root) continue;
    const encoding = (p.headers['content-transfer-encoding'] ?? 'binary').toLowerCase();
    attachments.set(
      idOf(p),
      encoding === 'base64' ? Buffer.from(p.data.toString('latin1'), 'base64') : Buffer.from(p.data),
    );
  }
  return { root: root.data.toString('utf8'), attachments };
}

const ENVELOPE_OPEN =
  '<soap-env:Envelope xmlns:soap-env="http://schemas.xmlsoap.org/soap/envelope/"><soap-env:Header/><soap-env:Body>';
const ENVELOPE_CLOSE = '</soap-env:Body></soap-env:Envelope>';

/** `<br:{operation}Response>` with the given unqualified parts, in WSDL order. */
export function soapResponse(operation: string, content: string): string {
  return `${ENVELOPE_OPEN}<br:${operation}Response xmlns:br="${SERVICE_NS}">${content}</br:${operation}Response>${ENVELOPE_CLOSE}`;
}

export function part(name: string, value: string): string {
  return el(name, value).s;
}

/** A SOAP 1.1 fault carrying the SUNAT code the way SUNAT does: `soap-env:Client.<code>`. */
export function soapFault(code: string, message: string): string {
  return rawSoapFault(`soap-env:Client.${code}`, message);
}

/** A SOAP 1.1 fault with any faultcode (`soap-env:VersionMismatch`, `soap-env:Client` for refused requests). */
export function rawSoapFault(faultcode: string, faultstring: string): string {
  return `${ENVELOPE_OPEN}<soap-env:Fault><faultcode>${escapeText(faultcode)}</faultcode><faultstring>${escapeText(faultstring)}</faultstring></soap-env:Fault>${ENVELOPE_CLOSE}`;
}
