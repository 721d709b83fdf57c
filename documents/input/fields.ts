/** Joi pieces every document family uses: error codes, dates, times, currencies and decimal amounts. */
import Joi from 'joi';
import { Decimal } from '../decimal';
import { formatPath } from './joi-issues';

export type CodeMessages = Record<string, string>;

/**
 * Error texts by joi error code, as a schema's `.error()` override: `{#label}` is the field's path and other `{#key}`s
 * come from the error's context. A text may start with `[SUNAT 1234] ` to carry the code (see joi-issues.ts).
 * Unlike `.messages()`, which joi merges into its preferences at every validation of every such node, an error
 * override costs nothing until a value fails: validation stays fast on the hot path.
 */
export function codes(messages: CodeMessages) {
  return (errors: Joi.ErrorReport[]): Joi.ErrorReport[] => {
    for (const e of errors) {
      const text = messages[e.code];
      if (!text) continue;
      e.message = text.replace(/\{#(\w+)\}/g, (_, key: string) => (key === 'label' ? `'${formatPath(e.path) ?? 'value'}'` : String(e.local?.[key] ?? '')));
    }
    return errors;
  };
}

/** `YYYY-MM-DD` that is a real calendar date; `extra` adds texts for other error codes (e.g. `any.required`). */
export const dateField = (extra: CodeMessages = {}) => Joi.string()
  .pattern(/^\d{4}-\d{2}-\d{2}$/)
  .custom((value: string, helpers) => {
    const d = new Date(`${value}T00:00:00Z`);
    return !Number.isNaN(d.getTime()) && d.toISOString().startsWith(value) ? value : helpers.error('any.invalid');
  })
  .error(codes({
    'string.pattern.base': '{#label} must be a date YYYY-MM-DD',
    'any.invalid': '{#label} is not a calendar date',
    ...extra,
  }));
export const dateSchema = dateField();

export const timeSchema = Joi.string()
  .pattern(/^([01]\d|2[0-3]):[0-5]\d:[0-5]\d$/)
  .error(codes({ 'string.pattern.base': '{#label} must be a time HH:MM:SS' }));

export const CURRENCIES = ['PEN', 'USD'] as const;
export type Currency = (typeof CURRENCIES)[number];
export const currencySchema = Joi.string()
  .valid(...CURRENCIES)
  .error(codes({ 'any.only': '[SUNAT 3088] {#label} must be PEN or USD' }));

const NUMERIC_TEXT = /^-?\d+(\.\d+)?$/;

/**
 * A decimal from a JSON number or numeric string, turned into a Decimal from its text (never through float maths).
 * `maxDecimals` mirrors SUNAT's formats: 2 for amounts, 10 for unit values and quantities.
 */
export function decimalSchema(options: { min?: number; positive?: boolean; maxDecimals?: number } = {}, extra: CodeMessages = {}) {
  const { min = 0, positive = false, maxDecimals = 10 } = options;
  return Joi.any()
    .custom((value: unknown, helpers) => {
      if (typeof value !== 'number' && typeof value !== 'string') return helpers.error('decimal.base');
      const text = typeof value === 'number' ? String(value) : value.trim();
      if (!NUMERIC_TEXT.test(text) || (typeof value === 'number' && !Number.isFinite(value))) return helpers.error('decimal.base');
      const d = new Decimal(text);
      if (d.decimalPlaces() > maxDecimals) return helpers.error('decimal.precision', { limit: maxDecimals });
      if (positive ? d.lte(0) : d.lt(min)) return helpers.error(positive ? 'decimal.positive' : 'decimal.min', { limit: min });
      return d;
    })
    .error(codes({
      'decimal.base': '{#label} must be a number',
      'decimal.precision': '{#label} must have at most {#limit} decimals',
      'decimal.positive': '{#label} must be greater than 0',
      'decimal.min': '{#label} must be at least {#limit}',
      ...extra,
    }));
}

/** Money amounts: two decimals at most, not negative. */
export const amountSchema = decimalSchema({ maxDecimals: 2 });
