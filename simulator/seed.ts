import { acceptanceText, buildCdrZip } from './cdr';
import { messageFor } from './codes';
import { documentKey, type SimulatorStore, type StoredDocument } from './store';

/**
 * A number the authority holds from "elsewhere" (another provider, or an earlier send chasqui never saw answered):
 * `POST /__admin/documents` stores it with its CDR, so a later send of that number answers 1033 (1032 when seeded
 * rejected) and getStatusCdr returns this CDR. `documentHash` makes the CDR carry the hash as OSE CDRs do.
 */
export interface SeededDocument {
  ruc: string;
  docType: string;
  series: string;
  number: string | number;
  status?: 'accepted' | 'rejected';
  documentHash?: string | null;
  /** The document's issue date (YYYY-MM-DD), as an invoice's CDR carries it; the seed day when absent. */
  issueDate?: string | null;
}

/** Why the seed is not valid, or null. */
export function seedProblem(input: Partial<SeededDocument> | null): string | null {
  if (!input || typeof input !== 'object')
    return 'the body must be {ruc, docType, series, number, status?, documentHash?, issueDate?}';
  if (!/^\d{11}$/.test(String(input.ruc ?? ''))) return 'ruc must be 11 digits';
  if (!/^(\d{2}|R[ACR])$/.test(String(input.docType ?? ''))) return 'docType must be a two-digit type or RC/RA/RR';
  if (typeof input.series !== 'string' || !input.series) return 'series is required';
  if (!/^\d{1,8}$/.test(String(input.number ?? ''))) return 'number must be 1 to 8 digits';
  if (input.status !== undefined && input.status !== 'accepted' && input.status !== 'rejected')
    return 'status must be accepted or rejected';
  if (input.documentHash != null && typeof input.documentHash !== 'string') return 'documentHash must be a string';
  if (input.issueDate != null && !/^\d{4}-\d{2}-\d{2}$/.test(String(input.issueDate)))
    return 'issueDate must be YYYY-MM-DD';
  return null;
}

export function seedDocument(store: SimulatorStore, input: SeededDocument): StoredDocument {
  const status = input.status ?? 'accepted';
  const name = `${input.ruc}-${input.docType}-${input.series}-${Number(input.number)}`;
  const referenceId = `${input.series}-${Number(input.number)}`;
  const code = status === 'accepted' ? '0' : '2017';
  const cdrZip = buildCdrZip({
    name,
    issuerRuc: input.ruc,
    docType: input.docType,
    referenceId,
    issueDate: input.issueDate ?? null,
    issueTime: null,
    recipient: null,
    code,
    description: status === 'accepted' ? acceptanceText(input.docType, referenceId) : messageFor(code),
    notes: [],
    documentHash: input.documentHash ?? null,
  });
  const doc: StoredDocument = { name, code, status, cdrZip, receivedAt: new Date().toISOString() };
  store.saveDocument(documentKey(input.ruc, input.docType, input.series, input.number), doc);
  return doc;
}
