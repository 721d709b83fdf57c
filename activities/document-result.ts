/**
 * Spec 2.5 `result`: an authority answer in the API's words, stored on the row as integrators read it. Changes when
 * the API's wording changes.
 */
import type { AuthorityResult } from '../authority';
import type { DocumentResult } from '../db/documents';

const ORIGIN_DESCRIPTIONS: Record<string, string> = {
  connection: 'The authority or OSE could not be reached; the document was not received. chasqui retries it.',
  timeout: 'Sent, but no answer came in time; it may have been received. Query its state before acting.',
  tax_authority: 'The authority or OSE received the document and answered.',
  system: 'The authority answered, but chasqui could not process the answer. Query its state before acting.',
};

/** Spec 2.5 `result`; `action` is left out on acceptance (7.5), and a timeout carries `success: false` and the id. */
export function toDocumentResult(externalId: string, r: AuthorityResult): DocumentResult {
  const result: DocumentResult = {
    code: r.code,
    message: r.message,
    errors: r.errors,
    origin: r.origin,
    origin_description: r.origin ? ORIGIN_DESCRIPTIONS[r.origin] : null,
    action: r.action,
    reached_sunat: r.reached_sunat,
  };
  if (r.observations.length) result.observations = r.observations;
  if (r.origin === 'timeout') Object.assign(result, { success: false, external_id: externalId });
  if (r.action === null) delete (result as Partial<DocumentResult>).action;
  return result;
}
