/** Joi pieces every document family uses: dates, times, currencies and decimal amounts. */
import Joi from 'joi';
import { Decimal } from '../decimal';

/** `YYYY-MM-DD` that is a real calendar date. */
export const dateSchema = Joi.string()
  .pattern(/^\d{4}-\d{2}-\d{2}$/)
  .custom((value: string, helpers) => {
    const d = new Date(`${value}T00:00:00Z`);
    return !Number.isNaN(d.getTime()) && d.toISOString().startsWith(value) ? value : helpers.error('date.calendar');
  })
  .messages({
    'string.pattern.base': '{#label} must be a date YYYY-MM-DD',
    'date.calendar': '{#label} is not a calendar date',
  });

export const timeSchema = Joi.string()
  .pattern(/^([01]\d|2[0-3]):[0-5]\d:[0-5]\d$/)
  .messages({ 'string.pattern.base': '{#label} must be a time HH:MM:SS' });

export const CURRENCIES = ['PEN', 'USD'] as const;
export type Currency = (typeof CURRENCIES)[number];
export const currencySchema = Joi.string()
  .valid(...CURRENCIES)
  .messages({ 'any.only': '[SUNAT 3088] {#label} must be PEN or USD' });

const NUMERIC_TEXT = /^-?\d+(\.\d+)?$/;

/**
 * A decimal from a JSON number or numeric string, turned into a Decimal from its text (never through float maths).
 * `maxDecimals` mirrors SUNAT's formats: 2 for amounts, 10 for unit values and quantities.
 */
export function decimalSchema(options: { min?: number; positive?: boolean; maxDecimals?: number } = {}) {
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
    .messages({
      'decimal.base': '{#label} must be a number',
      'decimal.precision': '{#label} must have at most {#limit} decimals',
      'decimal.positive': '{#label} must be greater than 0',
      'decimal.min': '{#label} must be at least {#limit}',
    });
}

/** Money amounts: two decimals at most, not negative. */
export const amountSchema = decimalSchema({ maxDecimals: 2 });
