import { parseArgs } from 'node:util';
import { parseDuration } from '../../core/durations';
import { DOCUMENT_STATUSES, type DocStatus } from '../../lifecycle/transitions';

/** The options of `chasqui support` and how their values are read; a wrong one is a usage error (exit 2). */

export class UsageError extends Error {}

/** Every option of `chasqui support` (docs/operations.md is checked against this list). */
export const OPTIONS = {
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  'older-than': { type: 'string' },
  status: { type: 'string', multiple: true },
  ruc: { type: 'string' },
  limit: { type: 'string' },
  'dry-run': { type: 'boolean' },
  yes: { type: 'boolean', short: 'y' },
  rate: { type: 'string' },
  operator: { type: 'string' },
  'failed-since': { type: 'string' },
  run: { type: 'boolean' },
  'fail-if-any': { type: 'boolean' },
} as const;

export type Values = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>['values'];

export function statusesOf(values: Values): DocStatus[] | undefined {
  if (!values.status) return undefined;
  const list = values.status
    .flatMap((s) => s.split(','))
    .map((s) => s.trim())
    .filter(Boolean);
  const wrong = list.filter((s) => !DOCUMENT_STATUSES.includes(s as DocStatus));
  if (wrong.length) throw new UsageError(`unknown status ${wrong.join(', ')}; one of ${DOCUMENT_STATUSES.join(', ')}`);
  return list as DocStatus[];
}

export function durationOf(text: string | undefined, fallback: string, name: string): number {
  const seconds = parseDuration(text ?? fallback);
  if (seconds === null) throw new UsageError(`${name} must be a duration like 90s, 30m, 2h or 1d, got '${text}'`);
  return seconds;
}

export function positiveInt(text: string | undefined, fallback: number, name: string): number {
  if (text === undefined) return fallback;
  const n = Number(text.replace(/\/s$/, ''));
  if (!(n > 0) || !Number.isFinite(n)) throw new UsageError(`${name} must be a positive number, got '${text}'`);
  return n;
}
