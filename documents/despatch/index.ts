/**
 * Dispatch guides (GRE 09 remitente, 31 transportista): payload → validated guide → unsigned UBL DespatchAdvice.
 * Guides carry no amounts, so `totals` is null and `currency` too.
 */
import { daysBetween } from '../calendar';
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

/**
 * SUNAT refuses a guide received too long after its issue date with 2108 ("La diferencia entre la fecha de recepción
 * del XML y el valor del Tag UBL es mayor al límite del listado", a comment of the 2018 ValidaExprRegGuiaRemitente
 * XSL), and an integrator's log shows it for a guide sent four days late; no sheet or XSL found gives the limit. So a
 * guide older than the sales documents' window (`sendingWindowDays`) is warned, never refused.
 */
function lateGuide(guide: DespatchPayload, options: PrepareOptions): string | null {
  const days = options.sendingWindowDays ?? 0;
  if (!options.today || days <= 0) return null;
  const age = daysBetween(guide.fechaEmision, options.today);
  if (age <= days) return null;
  return `[SUNAT 2108] fechaEmision ${guide.fechaEmision} is ${age} days before today (${options.today}): SUNAT may refuse a guide received that long after its issue date (2108, "Presentacion fuera de fecha"); issue it with today's date`;
}

export function prepareDespatch(payload: unknown, options: PrepareOptions = {}): PreparedDocument {
  const { value, error } = despatchSchema.validate(resolveAliases(payload));
  if (error) throw new DocumentValidationError(joiIssues(error));
  const guide = value as DespatchPayload;
  const { issues, warnings } = checkDespatch(guide, options);
  if (issues.length > 0) throw new DocumentValidationError(issues);
  const late = lateGuide(guide, options);
  return preparedDocument(
    guide,
    { number: Number(guide.correlativo), id: despatchId(guide) },
    {
      currency: null,
      xml: buildDespatchXml(guide),
      totals: null,
      warnings: late ? [...warnings, late] : warnings,
      buyerEmail: guide.destinatario.correo,
    },
  );
}
