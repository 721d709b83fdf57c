/**
 * The documents library: payload (spec 2.3) → validated model → exact totals → UBL XML → XMLDSig signature.
 * No I/O here: no database, no network, no clock beyond what the caller passes.
 */
export { DocumentValidationError, formatIssue, type ValidationIssue } from './errors';
