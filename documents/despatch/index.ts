/**
 * Dispatch guides (GRE 09 remitente, 31 transportista): payload → validated guide → unsigned UBL DespatchAdvice.
 * Guides carry no amounts, so `totals` is null and `currency` too.
 */
import { resolveAliases } from '../input/aliases';
import { joiIssues } from '../input/joi-issues';
import { DocumentValidationError } from '../errors';
import { preparedDocument } from '../prepared';
import type { PrepareOptions, PreparedDocument } from '../types';
import { buildDespatchXml, despatchId } from '../xml/despatch';
import { checkDespatch } from './rules';
import { despatchSchema } from './schema';
import type { DespatchPayload } from './types';

export { buildDespatchXml } from '../xml/despatch';
export type { DespatchPayload } from './types';

export function prepareDespatch(payload: unknown, options: PrepareOptions = {}): PreparedDocument {
  const { value, error } = despatchSchema.validate(resolveAliases(payload));
  if (error) throw new DocumentValidationError(joiIssues(error));
  const guide = value as DespatchPayload;
  const { issues, warnings } = checkDespatch(guide, options);
  if (issues.length > 0) throw new DocumentValidationError(issues);
  return preparedDocument(
    guide,
    { number: Number(guide.correlativo), id: despatchId(guide) },
    {
      currency: null,
      xml: buildDespatchXml(guide),
      totals: null,
      warnings,
      buyerEmail: guide.destinatario.correo,
    },
  );
}
