import type Joi from 'joi';
import { issue, type ValidationIssue } from '../errors';

/** `['items', 2, 'valorUnitario']` → `items[2].valorUnitario`. */
export function formatPath(path: readonly (string | number)[]): string | null {
  if (path.length === 0) return null;
  let out = '';
  for (const part of path) out += typeof part === 'number' ? `[${part}]` : out ? `.${part}` : part;
  return out;
}

/**
 * Turns joi's report into chasqui issues. A schema attaches a SUNAT code to a field with
 * `.messages({...})` text starting "[SUNAT 1234] ", or through `.prefs({ context })`; the bare joi case gets no code.
 */
export function joiIssues(error: Joi.ValidationError): ValidationIssue[] {
  return error.details.map((d) => {
    const match = /^\[(SUNAT|chasqui) ([^\]]+)\] (.*)$/s.exec(d.message);
    const path = formatPath(d.path);
    if (match) return issue(match[1] as 'SUNAT' | 'chasqui', match[2], match[3], path);
    return issue('chasqui', null, d.message.replace(/"/g, "'"), path);
  });
}
