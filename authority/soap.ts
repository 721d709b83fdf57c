import type { Element } from '@xmldom/xmldom';
import { el, frag } from '../documents/xml/canonical';
import type { SolCredentials } from './types';
import { childElements, firstChild, NS, parseXml, textOf } from './xml';
import { declaresDtd, DTD_REFUSED } from '../documents/xml/dtd';

const WSSE = 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd';
const PASSWORD_TEXT = 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-username-token-profile-1.0#PasswordText';

/**
 * SOAP 1.1 request with a WS-Security UsernameToken (Username = RUC + SOL user, clear-text password, as SUNAT
 * requires). Operation in the service namespace, parameters unqualified, as in SUNAT's WSDL.
 */
export function soapRequest(creds: SolCredentials, operation: string, params: [string, string][]): string {
  return el(
    'soapenv:Envelope',
    { 'xmlns:soapenv': NS.soap, 'xmlns:ser': NS.service, 'xmlns:wsse': WSSE },
    el(
      'soapenv:Header',
      el(
        'wsse:Security',
        el(
          'wsse:UsernameToken',
          el('wsse:Username', `${creds.ruc}${creds.solUser}`),
          el('wsse:Password', { Type: PASSWORD_TEXT }, creds.solPassword),
        ),
      ),
    ),
    el('soapenv:Body', el(`ser:${operation}`, frag(params.map(([name, value]) => el(name, value))))),
  ).s;
}

export type SoapAnswer =
  | { kind: 'body'; element: Element }
  | { kind: 'fault'; faultcode: string; faultstring: string; code: string | null }
  | { kind: 'invalid'; reason: string };

/**
 * The authority's code in a fault: digits at the end of faultcode (`soap-env:Client.0111`), else the first 4-digit
 * number of faultstring (SUNAT beta: `... Detalle: ... error: ... 3103 (nodo: ...)`).
 */
export function faultCode(faultcode: string, faultstring: string): string | null {
  const fromCode = /(\d{3,4})\s*$/.exec(faultcode)?.[1];
  if (fromCode) return fromCode;
  return /\b(\d{4})\b/.exec(faultstring)?.[1] ?? null;
}

/** Reads a SOAP 1.1 response into its body element or its fault; anything else is `invalid`. */
export function readSoapAnswer(text: string, expected: string): SoapAnswer {
  if (declaresDtd(text)) return { kind: 'invalid', reason: `the answer is refused: ${DTD_REFUSED}` };
  const doc = parseXml(text);
  const envelope = doc?.documentElement;
  if (!envelope) return { kind: 'invalid', reason: text.trim() ? 'the answer is not XML' : 'the answer is empty' };
  if (envelope.namespaceURI !== NS.soap || envelope.localName !== 'Envelope') {
    return { kind: 'invalid', reason: `the answer is ${envelope.localName}, not a SOAP envelope` };
  }
  const body = firstChild(envelope, NS.soap, 'Body');
  const payload = body ? childElements(body)[0] : undefined;
  if (!payload) return { kind: 'invalid', reason: 'the SOAP body is empty' };
  if (payload.namespaceURI === NS.soap && payload.localName === 'Fault') {
    const faultcode = textOf(firstChild(payload, undefined, 'faultcode')) ?? '';
    const faultstring = textOf(firstChild(payload, undefined, 'faultstring')) ?? '';
    return { kind: 'fault', faultcode, faultstring, code: faultCode(faultcode, faultstring) };
  }
  if (payload.localName !== expected)
    return { kind: 'invalid', reason: `expected ${expected}, got ${payload.localName}` };
  return { kind: 'body', element: payload };
}
