import Joi from 'joi';
import { isValidRuc } from '../../documents/input/parties';
import { badRequest } from '../errors';
import { formatPath } from '../../documents/input/joi-issues';

/** SUNAT's RUC: 11 digits, a taxpayer-type prefix, and a modulo-11 check digit (weights 5,4,3,2,7,6,5,4,3,2). */
export const ruc = Joi.string()
  .custom((value: string, helpers) => (isValidRuc(value) ? value : helpers.error('ruc.invalid')))
  .messages({
    'ruc.invalid': '{#label} must be 11 digits starting 10, 15, 16, 17 or 20 with a valid SUNAT check digit',
  });

const text = (max: number) => Joi.string().trim().min(1).max(max);
const solUser = Joi.string()
  .pattern(/^[A-Za-z0-9]{3,16}$/)
  .messages({ 'string.pattern.base': '{#label} must be 3 to 16 letters or digits' });
const password = Joi.string().min(1).max(128);

export const PLAN_TYPES = ['01', '02'] as const;
export const ENVIRONMENTS = ['01', '02'] as const;
export const DESTINATIONS = ['tax_authority', 'own_ose', 'provider_ose'] as const;
export const SIGNINGS = ['provider', 'external'] as const;
export const SENDING_MODES = ['automatic', 'manual'] as const;
export const RECEIPTS_MODES = ['individual', 'summary'] as const;
export const RESPONSE_MODES = ['no_wait', 'wait'] as const;

export const createCompanySchema = Joi.object({
  ruc: ruc.required(),
  business_name: text(250).required(),
  plan_type: Joi.string()
    .valid(...PLAN_TYPES)
    .required(),
  environment: Joi.string()
    .valid(...ENVIRONMENTS)
    .required(),
  destination: Joi.string().valid(...DESTINATIONS),
  signing: Joi.string().valid(...SIGNINGS),
  confirm: Joi.boolean(),
  sol_user: solUser,
  sol_password: password,
}).and('sol_user', 'sol_password');

export const planSchema = Joi.object({
  plan_type: Joi.string()
    .valid(...PLAN_TYPES)
    .required(),
});
export const environmentSchema = Joi.object({
  environment: Joi.string()
    .valid(...ENVIRONMENTS)
    .required(),
});
export const sendingSchema = Joi.object({
  mode: Joi.string()
    .valid(...SENDING_MODES)
    .required(),
});
export const receiptsSchema = Joi.object({
  mode: Joi.string()
    .valid(...RECEIPTS_MODES)
    .required(),
});
export const responseSchema = Joi.object({
  mode: Joi.string()
    .valid(...RESPONSE_MODES)
    .required(),
});
export const destinationSchema = Joi.object({
  destination: Joi.string()
    .valid(...DESTINATIONS)
    .required(),
});
export const signingSchema = Joi.object({
  signing: Joi.string()
    .valid(...SIGNINGS)
    .required(),
});
export const solCredentialsSchema = Joi.object({
  sol_user: solUser.required(),
  sol_password: password.required(),
  secondary_user: solUser,
  secondary_password: password,
}).and('secondary_user', 'secondary_password');
export const oseCredentialsSchema = Joi.object({
  url: Joi.string().max(2000).required(),
  user: text(100).required(),
  password: password.required(),
});
/**
 * SUNAT's GRE client id (a UUID in practice) becomes a segment of the token URL's path: `..` or `.` would move the
 * request, with the company's secret and SOL password, to another path of SUNAT's host, as WHATWG URLs resolve them.
 */
const greClientId = Joi.string()
  .pattern(/^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/)
  .messages({
    'string.pattern.base':
      '{#label} must be letters, digits, ".", "_" or "-" (at most 200), starting with a letter or digit',
  });
export const greCredentialsSchema = Joi.object({
  client_id: greClientId.required(),
  client_secret: password.required(),
});
/** SUNAT's registers (padrones) the company declares it is on; each optional, at least one. */
export const registersSchema = Joi.object({
  igv_special_rate: Joi.boolean().strict(),
  product_code_required: Joi.boolean().strict(),
}).or('igv_special_rate', 'product_code_required');
export const webhookSchema = Joi.object({ url: Joi.string().max(2000).allow(null).required() });

/** A signing token's name: what a person reads in the panel, so one line of printable text. */
export const TOKEN_NAME_MAX = 60;
export const tokenNameSchema = Joi.object({
  name: Joi.string()
    .trim()
    .min(1)
    .max(TOKEN_NAME_MAX)
    .pattern(/^[^\p{C}\p{Zl}\p{Zp}]+$/u, 'printable characters')
    .required(),
});
/** How long a rolled token keeps working beside its successor. */
export const ROLL_OVERLAPS = { none: 0, '1h': 3_600, '24h': 86_400, '7d': 604_800 } as const;
export type RollOverlap = keyof typeof ROLL_OVERLAPS;
export const rollSchema = Joi.object({
  expires_in: Joi.string()
    .valid(...Object.keys(ROLL_OVERLAPS))
    .required(),
});

/** Validates a JSON body; every problem becomes a 422 with `errors: {field: [messages]}`. */
export function validate<T>(schema: Joi.ObjectSchema, body: unknown): T {
  const { value, error } = schema.validate(body ?? {}, { abortEarly: false, errors: { wrap: { label: false } } });
  if (!error) return value as T;
  const errors: Record<string, string[]> = {};
  for (const detail of error.details) {
    const field = formatPath(detail.path) ?? 'body';
    (errors[field] ??= []).push(detail.message);
  }
  throw badRequest('The request has invalid fields', errors);
}

/** GET /v1/companies: the pagination of the other lists (`before` = the previous page's `next_before`, a RUC). */
export const companyPageSchema = Joi.object({
  limit: Joi.number().integer().min(1).max(200).default(50),
  before: ruc,
});
