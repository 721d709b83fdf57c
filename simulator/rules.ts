/** The operations the simulator serves, as fault rules name them. */
export const OPERATIONS = [
  'sendBill',
  'sendSummary',
  'sendPack',
  'getStatus',
  /** billConsultService getStatus: the validity of a document (0001/0002/0003/0011). */
  'consultStatus',
  'getStatusCdr',
  'greToken',
  'greSend',
  'greStatus',
  'portal',
] as const;
export type Operation = (typeof OPERATIONS)[number];

export type Fault =
  /** Reset every new connection before reading anything (an approximation of a refused connection on a live port). */
  | { kind: 'refuse' }
  /** Read the request, then reset the connection (TCP RST). */
  | { kind: 'reset' }
  /**
   * Read the request and never answer (until the client gives up or the simulator closes). `afterReceipt`: SUNAT
   * received and judged the document first (its verdict is there for getStatusCdr), only the answer is lost.
   */
  | { kind: 'hang'; afterReceipt?: boolean }
  | { kind: 'http500' }
  | { kind: 'empty200' }
  | { kind: 'soapFault'; code: string; message?: string }
  /** A CDR zip whose XML is cut in half. */
  | { kind: 'malformedCdr' }
  /** A CDR without its signature. */
  | { kind: 'unsignedCdr' }
  /** getStatus / GRE status keep answering 98. */
  | { kind: 'ticketStuck' }
  /** GRE API answers this HTTP status (401, 422, 500). */
  | { kind: 'greHttp'; status: 401 | 422 | 500; code?: string; message?: string }
  /** The document is rejected with this code (2000–3999 in a CDR; a fault when `asFault` or when below 2000). */
  | { kind: 'reject'; code: string; message?: string; asFault?: boolean }
  /** The document is accepted with an observation note of this code (4000+). */
  | { kind: 'observe'; code: string; message?: string };

/** What a rule matches; every field given must match. */
export interface RuleMatch {
  operation?: Operation;
  ruc?: string;
  docType?: string;
  series?: string;
  number?: string | number;
}

export interface FaultRule extends RuleMatch {
  id: string;
  fault: Fault;
  /** Applies this many times, then disappears; unlimited when absent. */
  times?: number;
}

/** The document a request is about, as far as the simulator could tell before answering. */
export interface RequestSubject {
  operation: Operation;
  ruc?: string | null;
  docType?: string | null;
  series?: string | null;
  number?: string | null;
}

export function ruleMatches(rule: RuleMatch, subject: RequestSubject): boolean {
  if (rule.operation && rule.operation !== subject.operation) return false;
  if (rule.ruc && rule.ruc !== subject.ruc) return false;
  if (rule.docType && rule.docType !== subject.docType) return false;
  if (rule.series && rule.series !== subject.series) return false;
  if (rule.number !== undefined && rule.number !== null && Number(rule.number) !== Number(subject.number)) return false;
  return true;
}

const FAULT_KINDS = new Set([
  'refuse',
  'reset',
  'hang',
  'http500',
  'empty200',
  'soapFault',
  'malformedCdr',
  'unsignedCdr',
  'ticketStuck',
  'greHttp',
  'reject',
  'observe',
]);

/** Checks a rule posted to the admin API; returns the problem in words, or null. */
export function ruleProblem(rule: Partial<FaultRule>): string | null {
  const fault = rule.fault as Partial<Fault> | undefined;
  if (!fault || typeof fault.kind !== 'string' || !FAULT_KINDS.has(fault.kind))
    return `fault.kind must be one of ${[...FAULT_KINDS].join(', ')}`;
  if (rule.operation && !(OPERATIONS as readonly string[]).includes(rule.operation))
    return `operation must be one of ${OPERATIONS.join(', ')}`;
  if (
    (fault.kind === 'soapFault' || fault.kind === 'reject' || fault.kind === 'observe') &&
    !/^\d{1,4}$/.test(String((fault as { code?: unknown }).code ?? ''))
  ) {
    return `${fault.kind} needs a numeric code`;
  }
  if (fault.kind === 'greHttp' && ![401, 422, 500].includes(Number((fault as { status?: unknown }).status)))
    return 'greHttp needs status 401, 422 or 500';
  if (fault.kind === 'refuse' && (rule.ruc || rule.docType || rule.series || rule.number !== undefined)) {
    return 'refuse acts before a request is read: it cannot match a RUC, type, series or number';
  }
  if (fault.kind === 'refuse' && rule.times === undefined) return 'refuse needs times: it also refuses the admin API';
  if (rule.times !== undefined && !(Number.isInteger(rule.times) && rule.times > 0))
    return 'times must be a positive integer';
  return null;
}
