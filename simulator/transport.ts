/**
 * What every surface of the simulator (SOAP services, GRE REST, portal) answers with, and the one place where fault
 * rules become answers: a transport fault (reset, hang, HTTP 500, empty 200) or a protocol fault (SOAP fault, GRE
 * HTTP error) replaces the surface's answer; a document-level fault (reject, observe, broken CDR, stuck ticket) is
 * handed to the surface, which applies it where SUNAT would.
 */
import type http from 'node:http';
import { messageFor } from './codes';
import type { Fault, Operation, RequestSubject } from './rules';
import { soapFault } from './soap';
import type { TicketRecord } from './store';

export interface Reply {
  status: number;
  body: string;
  type?: string;
  /** SUNAT code the answer carries, for the log. */
  code?: string | null;
}

export type Outcome = Reply | { kind: 'reset' } | { kind: 'hang' };

/** One request routed to its operation by a surface: what it is about (for rule matching and the log) and its handler. */
export interface Route {
  operation: Operation | 'unknown';
  subject: RequestSubject | null;
  name: string | null;
  ticket: string | null;
  /** Processes the request; `fault` is the matching document-level fault, if any. */
  handle: (fault: Fault | null) => Reply;
}

/** A surface of the simulator: the route of a request it serves, null for one it does not. */
export interface Surface {
  route(method: string, path: string, raw: Buffer, headers: http.IncomingHttpHeaders): Route | null;
}

export const XML = 'text/xml;charset=UTF-8';
const JSON_TYPE = 'application/json';
export const ERROR_PAGE =
  '<html><head><title>500 Internal Server Error</title></head><body><h1>Internal Server Error</h1></body></html>';

export const json = (status: number, value: unknown, code: string | null = null): Reply => ({
  status,
  body: JSON.stringify(value),
  type: JSON_TYPE,
  code,
});
export const fault = (code: string, message = messageFor(code)): Reply => ({
  status: 500,
  body: soapFault(code, message),
  type: XML,
  code,
});
/** The GRE API's refusal of a request: 422 with the code, as SUNAT's REST API answers. */
export const greInvalid = (code: string, message = messageFor(code)): Reply =>
  json(422, { cod: code, msg: message, errors: [{ cod: code, msg: message }] }, code);

/** The document a ticket is about, for rules that match a RUC, type, series or number at the status query. */
export function ticketSubject(record: TicketRecord | undefined): Partial<RequestSubject> {
  return record ? { ruc: record.ruc, docType: record.docType, series: record.series, number: record.number } : {};
}

/** Faults that apply to any operation, decided before the request is processed. */
const TRANSPORT_FAULTS = new Set<Fault['kind']>(['reset', 'hang', 'http500', 'empty200']);
const SOAP_OPERATIONS = new Set<Operation>([
  'sendBill',
  'sendSummary',
  'sendPack',
  'getStatus',
  'consultStatus',
  'getStatusCdr',
]);
const GRE_OPERATIONS = new Set<Operation>(['greToken', 'greSend', 'greStatus']);

/** Whether a fault of this kind can happen to this operation (a rule whose fault cannot is skipped, not consumed). */
export function applicable(kind: Fault['kind'], operation: Operation): boolean {
  if (TRANSPORT_FAULTS.has(kind)) return true;
  switch (kind) {
    case 'soapFault':
      return SOAP_OPERATIONS.has(operation);
    case 'greHttp':
      return GRE_OPERATIONS.has(operation);
    case 'ticketStuck':
      return operation === 'getStatus' || operation === 'greStatus';
    case 'reject':
    case 'observe':
    case 'malformedCdr':
    case 'unsignedCdr':
      return operation === 'sendBill' || operation === 'sendSummary' || operation === 'greSend';
    default:
      return false;
  }
}

/** The answer to a routed request under the fault `f` (null: none matched). */
export function answer(route: Route, f: Fault | null): Outcome {
  switch (f?.kind) {
    case 'reset':
      return { kind: 'reset' };
    case 'hang':
      if (f.afterReceipt) route.handle(null);
      return { kind: 'hang' };
    case 'http500':
      return { status: 500, body: ERROR_PAGE, type: 'text/html' };
    case 'empty200':
      return { status: 200, body: '', type: XML };
    case 'soapFault':
      return fault(f.code, f.message ?? messageFor(f.code));
    case 'greHttp': {
      const code = f.code ?? String(f.status);
      const message =
        f.message ?? (f.status === 401 ? 'No autorizado' : f.status === 422 ? messageFor(code) : 'Error inesperado');
      return f.status === 422 ? greInvalid(code, message) : json(f.status, { cod: code, msg: message }, code);
    }
    default:
      return route.handle(f);
  }
}
