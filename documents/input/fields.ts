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
      e.message = text.replace(/\{#(\w+)\}/g, (_, key: string) =>
        key === 'label' ? `'${formatPath(e.path) ?? 'value'}'` : String(e.local?.[key] ?? ''),
      );
    }
    return errors;
  };
}

/** `YYYY-MM-DD` that is a real calendar date; `extra` adds texts for other error codes (e.g. `any.required`). */
export const dateField = (extra: CodeMessages = {}) =>
  Joi.string()
    .pattern(/^\d{4}-\d{2}-\d{2}$/)
    .custom((value: string, helpers) => {
      if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return value; // the pattern reports it: one error per value
      const d = new Date(`${value}T00:00:00Z`);
      return !Number.isNaN(d.getTime()) && d.toISOString().startsWith(value) ? value : helpers.error('any.invalid');
    })
    .error(
      codes({
        'string.pattern.base': '{#label} must be a date YYYY-MM-DD',
        'any.invalid': '{#label} is not a calendar date',
        ...extra,
      }),
    );
export const dateSchema = dateField();

export const timeSchema = Joi.string()
  .pattern(/^([01]\d|2[0-3]):[0-5]\d:[0-5]\d$/)
  .error(codes({ 'string.pattern.base': '{#label} must be a time HH:MM:SS' }));

export const CURRENCIES = ['PEN', 'USD'] as const;
export type Currency = (typeof CURRENCIES)[number];
export const currencySchema = Joi.string()
  .valid(...CURRENCIES)
  .error(codes({ 'any.only': '[SUNAT 3088] {#label} must be PEN or USD' }));

/** Plain decimals and exponent forms (`1e3`, `2.5E-2`), as JSON writes numbers: each is read exactly, never through a float. */
const NUMERIC_TEXT = /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/;
/** SUNAT's decimal formats allow 12 integer digits (amounts n(12,2), quantities and unit values n(12,10)). */
export const MAX_INTEGER_DIGITS = 12;

/**
 * A decimal from a JSON number or numeric string, turned into a Decimal from its text (never through float maths):
 * `1000`, `"1000"`, `1e3` and `"1e3"` are the same value. `maxDecimals` mirrors SUNAT's formats: 2 for amounts, 10
 * for unit values and quantities; at most 12 integer digits, refused with `formatCode`, the SUNAT code of the
 * element's format rule (2025 quantity, 2369 unit value…), when given.
 */
export function decimalSchema(
  options: { min?: number; positive?: boolean; maxDecimals?: number; formatCode?: string } = {},
  extra: CodeMessages = {},
) {
  const { min = 0, positive = false, maxDecimals = 10, formatCode } = options;
  const tag = formatCode ? `[SUNAT ${formatCode}] ` : '';
  return Joi.any()
    .custom((value: unknown, helpers) => {
      if (typeof value !== 'number' && typeof value !== 'string') return helpers.error('decimal.base');
      const text = typeof value === 'number' ? String(value) : value.trim();
      if (!NUMERIC_TEXT.test(text) || (typeof value === 'number' && !Number.isFinite(value)))
        return helpers.error('decimal.base');
      const d = new Decimal(text);
      if (d.decimalPlaces() > maxDecimals) return helpers.error('decimal.precision', { limit: maxDecimals });
      if (d.abs().gte(new Decimal(10).pow(MAX_INTEGER_DIGITS)))
        return helpers.error('decimal.digits', { limit: MAX_INTEGER_DIGITS });
      if (positive ? d.lte(0) : d.lt(min))
        return helpers.error(positive ? 'decimal.positive' : 'decimal.min', { limit: min });
      return d;
    })
    .error(
      codes({
        'decimal.base': `${tag}{#label} must be a number (digits, a decimal point, optionally an exponent: 12.5, "12.5", 1.25e1)`,
        'decimal.precision': `${tag}{#label} must have at most {#limit} decimals`,
        'decimal.digits': `${tag}{#label} must have at most {#limit} integer digits`,
        'decimal.positive': '{#label} must be greater than 0',
        'decimal.min': '{#label} must be at least {#limit}',
        ...extra,
      }),
    );
}

/** Money amounts: two decimals at most, not negative. */
export const amountSchema = decimalSchema({ maxDecimals: 2 });

/**
 * A correlativo as SUNAT defines it: 1 to `digits` digits and not zero, sent as a string of digits or as a JSON
 * integer (`"123"` and `123` alike; `"1e3"`, `"0"`, `-1` and `1.5` refused with one message).
 */
export function correlativoSchema(digits: number, message: string) {
  const max = 10 ** digits - 1;
  const pattern = new RegExp(`^(?!0+$)\\d{1,${digits}}$`);
  return Joi.any()
    .custom((value: unknown, helpers) => {
      const ok =
        typeof value === 'string'
          ? pattern.test(value)
          : typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= max;
      return ok ? value : helpers.error('correlativo.base');
    })
    .error(codes({ 'correlativo.base': message, 'any.required': message }));
}
