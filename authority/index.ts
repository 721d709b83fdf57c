/** SUNAT / OSE connectors: plain async functions returning classified values (no Temporal, no database). */
export type {
  AuthorityResult,
  AuthorityStatus,
  Origin,
  Action,
  SolCredentials,
  GreCredentials,
  Timeouts,
  CallOptions,
} from './types';
export { DEFAULT_TIMEOUTS } from './types';
export { sendBill, sendSummary, getStatus, getStatusCdr, type OutgoingFile, type DocumentKey } from './bill-service';
export { readCdrXml, readCdrZip, type Cdr, type CdrNote, type CdrReadResult } from './cdr';
export { codeCategory, ALREADY_REPORTED_CODES } from './classify';
export { GreConnector, type GreEndpoints, type GreConnectorOptions, type TokenOutcome } from './gre/connector';
export { MemoryGreTokenStore, type GreToken, type GreTokenStore } from './gre/token-store';
export { PgGreTokenStore } from './gre/pg-token-store';
export {
  resolveEndpoints,
  EndpointConfigError,
  SUNAT_PATHS,
  type CompanyRoute,
  type ResolvedEndpoints,
} from './endpoints';
