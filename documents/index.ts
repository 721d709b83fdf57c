/**
 * The documents library: payload (spec 2.3) → validated model → exact totals → UBL XML → XMLDSig signature.
 * No I/O here: no database, no network, no clock beyond what the caller passes.
 */
import type Joi from 'joi';
import { DocumentValidationError, issue, type ValidationIssue } from './errors';
import { resolveAliases } from './input/aliases';
import { joiIssues } from './input/joi-issues';
import { prepareDespatch } from './despatch';
import { prepareSale } from './sales';
import { saleSchema } from './sales/schema';
import type { SaleInput } from './sales/types';
import { purchaseSchema } from './sales/purchase';
import { prepareOther } from './other';
import { perceptionSchema, retentionSchema, type OtherInput } from './other/schema';
import { prepareSummary } from './summaries';
import { rcSchema, voidedSchema, type RcInput, type VoidedInput } from './summaries/schema';
import type { DocType, PrepareOptions, PreparedDocument } from './types';

export { DocumentValidationError, formatIssue, type ValidationIssue } from './errors';
export type { DocType, IssuerRegisters, PrepareOptions, PreparedDocument, ReferencedDocument } from './types';

const JOI_OPTIONS: Joi.ValidationOptions = {
  abortEarly: false,
  convert: true,
  stripUnknown: false,
  errors: { wrap: { label: "'" } },
};

const SCHEMAS: Partial<Record<DocType, Joi.ObjectSchema>> = {
  '01': saleSchema,
  '03': saleSchema,
  '04': purchaseSchema,
  '07': saleSchema,
  '08': saleSchema,
  '20': retentionSchema,
  '40': perceptionSchema,
  rc: rcSchema,
  ra: voidedSchema,
  rr: voidedSchema,
};

/** Validates with joi; on success the typed value, otherwise every structural issue found. */
function validate<T>(schema: Joi.ObjectSchema, payload: unknown): { value: T | null; issues: ValidationIssue[] } {
  const result = schema.validate(payload, JOI_OPTIONS);
  return result.error ? { value: null, issues: joiIssues(result.error) } : { value: result.value as T, issues: [] };
}

function issuerIssues(payload: Record<string, unknown>, options: PrepareOptions): ValidationIssue[] {
  const ruc = (payload.emisor as { ruc?: unknown } | undefined)?.ruc;
  if (!options.issuerRuc || ruc === undefined || ruc === options.issuerRuc) return [];
  return [
    issue(
      'chasqui',
      'BR_ISSUER_MISMATCH',
      `emisor.ruc ${String(ruc)} is not the company of the token (${options.issuerRuc})`,
      'emisor.ruc',
    ),
  ];
}

function isOther(value: SaleInput | RcInput | VoidedInput | OtherInput): value is OtherInput {
  return value.tipoDoc === '20' || value.tipoDoc === '40';
}

function isSummary(value: SaleInput | RcInput | VoidedInput): value is RcInput | VoidedInput {
  return value.tipoDoc === 'rc' || value.tipoDoc === 'ra' || value.tipoDoc === 'rr';
}

/**
 * Validates a payload and builds its unsigned XML. Throws DocumentValidationError carrying every issue found
 * (structure, SUNAT rules, totals sent by the client that do not match).
 */
export function prepareDocument(payload: unknown, options: PrepareOptions = {}): PreparedDocument {
  if (payload === null || typeof payload !== 'object' || Array.isArray(payload)) {
    throw new DocumentValidationError([issue('chasqui', null, 'the document must be a JSON object', null)]);
  }
  const normalised = resolveAliases(payload) as Record<string, unknown>;
  const docType = normalised.tipoDoc as DocType;
  if (docType === '09' || docType === '31') return prepareDespatch(payload, options);
  const schema = SCHEMAS[docType];
  if (!schema) {
    throw new DocumentValidationError([
      issue(
        'SUNAT',
        '1003',
        `tipoDoc must be one of 01, 03, 04, 07, 08, 09, 20, 31, 40, rc, ra, rr (got ${JSON.stringify(normalised.tipoDoc ?? null)})`,
        'tipoDoc',
      ),
    ]);
  }
  const { value, issues } = validate<SaleInput | RcInput | VoidedInput | OtherInput>(schema, normalised);
  const earlier = [...issues, ...issuerIssues(normalised, options)];
  if (!value) throw new DocumentValidationError(earlier);
  if (isOther(value)) return prepareOther(value, options, earlier);
  return isSummary(value) ? prepareSummary(value, options, earlier) : prepareSale(value, options, earlier);
}
