/**
 * Dispatch guides (GRE 09 remitente, 31 transportista): payload → validated guide → unsigned UBL DespatchAdvice.
 * Guides carry no amounts, so `totals` is null and `currency` too.
 */
import { resolveAliases } from '../input/aliases';
import { joiIssues } from '../input/joi-issues';
import { DocumentValidationError } from '../errors';
import type { PrepareOptions, PreparedDocument } from '../types';
import { buildDespatchXml, despatchId } from './builder';
import { checkDespatch } from './rules';
import { despatchSchema, type DespatchPayload } from './schema';

export { buildDespatchXml } from './builder';
export type { DespatchPayload } from './schema';

export function prepareDespatch(payload: unknown, options: PrepareOptions = {}): PreparedDocument {
  const { value, error } = despatchSchema.validate(resolveAliases(payload));
  if (error) throw new DocumentValidationError(joiIssues(error));
  const guide = value as DespatchPayload;
  const { issues, warnings } = checkDespatch(guide, options);
  if (issues.length > 0) throw new DocumentValidationError(issues);
  const id = despatchId(guide);
  return {
    docType: guide.tipoDoc,
    ruc: guide.emisor.ruc,
    series: guide.serie,
    number: Number(guide.correlativo),
    filename: `${guide.emisor.ruc}-${guide.tipoDoc}-${id}`,
    issueDate: guide.fechaEmision,
    currency: null,
    xml: buildDespatchXml(guide),
    totals: null,
    warnings,
    buyerEmail: guide.destinatario.correo,
  };
}
