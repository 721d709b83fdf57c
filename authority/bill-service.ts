import {
  codedAnswer,
  fromCdr,
  notRegistered,
  noVerdict,
  rejection,
  systemFailure,
  ticketIssued,
  ticketPending,
} from './classify';
import { codesDoing } from '../documents/sunat-codes';
import { readCdrZip } from './cdr';
import { gatewayFailure, httpRequest, transportFailure } from './http';
import { readSoapAnswer, soapRequest } from './soap';
import type { AuthorityResult, CallOptions, SolCredentials } from './types';
import { firstChild, textOf } from './xml';
import { zipXml } from './zip';

/** A signed document as it is sent: `filename` is the base name (`20123456789-01-F001-1`, extension optional). */
export interface OutgoingFile {
  filename: string;
  xml: string;
}

/** The document a CDR is asked for (billConsultService). */
export interface DocumentKey {
  ruc: string;
  type: string;
  series: string;
  number: number | string;
}

export function baseName(filename: string): string {
  return filename.replace(/\.(xml|zip)$/i, '');
}

type Exchange =
  { ok: true; element: import('@xmldom/xmldom').Element; httpStatus: number } | { ok: false; result: AuthorityResult };

/** POSTs one SOAP operation and reduces transport, HTTP and SOAP-level failures to a classified result. */
async function exchange(
  url: string,
  creds: SolCredentials,
  operation: string,
  params: [string, string][],
  options: CallOptions,
): Promise<Exchange> {
  const outcome = await httpRequest({
    method: 'POST',
    url,
    headers: { 'content-type': 'text/xml; charset=utf-8', soapaction: `urn:${operation}` },
    body: soapRequest(creds, operation, params),
    timeouts: options.timeouts,
    addresses: options.addresses,
  });
  if (outcome.kind !== 'response') return { ok: false, result: transportFailure(outcome) };
  const { status, body } = outcome;
  const gateway = gatewayFailure(status);
  if (gateway) return { ok: false, result: gateway };
  const answer = readSoapAnswer(body, `${operation}Response`);
  if (answer.kind === 'fault') {
    const text = answer.faultstring || answer.faultcode;
    if (answer.code) return { ok: false, result: codedAnswer(answer.code, text, status) };
    return { ok: false, result: systemFailure('SOAP_FAULT', `SOAP fault without a code: ${text}`, status) };
  }
  if (answer.kind === 'invalid') {
    const code = body.trim() ? 'UNREADABLE_ANSWER' : 'EMPTY_ANSWER';
    return { ok: false, result: systemFailure(code, `HTTP ${status}: ${answer.reason}`, status) };
  }
  return { ok: true, element: answer.element, httpStatus: status };
}

/** A result from a base64 CDR zip: unreadable or unsigned CDRs are system failures (query before acting). */
export function cdrResult(base64: string, httpStatus: number): AuthorityResult {
  const read = readCdrZip(Buffer.from(base64, 'base64'));
  if (!read.ok) return systemFailure('CDR_UNREADABLE', read.reason, httpStatus, base64);
  if (!read.cdr.signed) return systemFailure('CDR_UNSIGNED', 'the CDR carries no signature', httpStatus, base64);
  return fromCdr(read.cdr, base64, httpStatus);
}

function fileParams(file: OutgoingFile): [string, string][] {
  const name = baseName(file.filename);
  return [
    ['fileName', `${name}.zip`],
    ['contentFile', zipXml(name, file.xml).toString('base64')],
  ];
}

/** billService sendBill: synchronous verdict for 01/03/07/08 (and 20/40). */
export async function sendBill(
  endpoint: string,
  creds: SolCredentials,
  file: OutgoingFile,
  options: CallOptions = {},
): Promise<AuthorityResult> {
  const ex = await exchange(endpoint, creds, 'sendBill', fileParams(file), options);
  if (!ex.ok) return ex.result;
  const content = textOf(firstChild(ex.element, undefined, 'applicationResponse'));
  if (!content) return systemFailure('NO_CDR', 'sendBillResponse without applicationResponse', ex.httpStatus);
  return cdrResult(content, ex.httpStatus);
}

/** billService sendSummary (RC, RA, RR): a ticket to poll with getStatus. */
export async function sendSummary(
  endpoint: string,
  creds: SolCredentials,
  file: OutgoingFile,
  options: CallOptions = {},
): Promise<AuthorityResult> {
  const ex = await exchange(endpoint, creds, 'sendSummary', fileParams(file), options);
  if (!ex.ok) return ex.result;
  const ticket = textOf(firstChild(ex.element, undefined, 'ticket'));
  if (!ticket) return systemFailure('NO_TICKET', 'sendSummaryResponse without a ticket', ex.httpStatus);
  return ticketIssued(ticket, ex.httpStatus);
}

/** billService getStatus(ticket): 98 still processing, 0 processed (CDR), 99 processed with errors (CDR when generated). */
export async function getStatus(
  endpoint: string,
  creds: SolCredentials,
  ticket: string,
  options: CallOptions = {},
): Promise<AuthorityResult> {
  const ex = await exchange(endpoint, creds, 'getStatus', [['ticket', ticket]], options);
  if (!ex.ok) return { ...ex.result, ticket };
  const status = firstChild(ex.element, undefined, 'status');
  const statusCode = textOf(status && firstChild(status, undefined, 'statusCode'));
  const content = textOf(status && firstChild(status, undefined, 'content'));
  if (statusCode === '98') return ticketPending(ticket, ex.httpStatus);
  if ((statusCode === '0' || statusCode === '99') && content) return { ...cdrResult(content, ex.httpStatus), ticket };
  if (statusCode === '99') {
    return {
      ...rejection('99', 'the ticket was processed with errors and no CDR was generated', ex.httpStatus),
      ticket,
    };
  }
  return {
    ...systemFailure(
      'UNEXPECTED_STATUS',
      `getStatus answered statusCode ${statusCode ?? '(none)'} without a CDR`,
      ex.httpStatus,
    ),
    ticket,
  };
}

/** "Comprobante no encontrado o no existe": SUNAT has no record of it, so sending it is safe. */
const NOT_FOUND_CODES = new Set(codesDoing('send'));

/**
 * billConsultService getStatusCdr (production SUNAT only, facturas and their notes): the CDR of a document sent
 * earlier. This is how a timed-out send is reconciled.
 */
export async function getStatusCdr(
  endpoint: string,
  creds: SolCredentials,
  key: DocumentKey,
  options: CallOptions = {},
): Promise<AuthorityResult> {
  const ex = await exchange(
    endpoint,
    creds,
    'getStatusCdr',
    [
      ['rucComprobante', key.ruc],
      ['tipoComprobante', key.type],
      ['serieComprobante', key.series],
      ['numeroComprobante', String(Number(key.number))],
    ],
    options,
  );
  if (!ex.ok) return ex.result;
  const status = firstChild(ex.element, undefined, 'statusCdr');
  const statusCode = textOf(status && firstChild(status, undefined, 'statusCode')) ?? '';
  const statusMessage = textOf(status && firstChild(status, undefined, 'statusMessage')) ?? '';
  const content = textOf(status && firstChild(status, undefined, 'content'));
  if (content) return cdrResult(content, ex.httpStatus);
  const message = statusMessage || `statusCode ${statusCode}`;
  if (NOT_FOUND_CODES.has(statusCode)) return notRegistered(statusCode, message, ex.httpStatus);
  return noVerdict(statusCode || null, message, ex.httpStatus);
}
