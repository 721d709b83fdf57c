/**
 * Who issues and who receives: the `emisor` and `cliente` objects of spec 2.3, shared by every document family
 * (sales, summaries and the dispatch guides reuse `issuerSchema`).
 */
import Joi from 'joi';
import { codes, type CodeMessages } from './fields';

/** SUNAT's RUC check digit: modulo 11 over the first ten digits with weights 5,4,3,2,7,6,5,4,3,2. */
export function isValidRuc(ruc: string): boolean {
  if (!/^(10|15|16|17|20)\d{9}$/.test(ruc)) return false;
  const weights = [5, 4, 3, 2, 7, 6, 5, 4, 3, 2];
  let total = 0;
  for (let i = 0; i < 10; i++) total += Number(ruc[i]) * weights[i];
  const check = (11 - (total % 11)) % 10;
  return check === Number(ruc[10]);
}

/** Catalog 06: identity document types SUNAT accepts for a customer. */
export const IDENTITY_DOC_TYPES = ['0', '1', '4', '6', '7', 'A', 'B', 'C', 'D', 'E', 'F', 'G', '-'] as const;
export type IdentityDocType = (typeof IDENTITY_DOC_TYPES)[number];

export const RUC_DOC_TYPE = '6';
export const DNI_DOC_TYPE = '1';

/** A RUC field: 11 digits whose last one is SUNAT's check digit. */
export const rucSchema = Joi.string()
  .trim()
  .custom((value: string, helpers) => (isValidRuc(value) ? value : helpers.error('any.invalid')))
  .error(
    codes({
      'string.empty': '[SUNAT 1005] the RUC is empty; it must have 11 digits',
      'any.invalid':
        '[SUNAT 1005] {#label} is not a valid RUC (11 digits starting 10, 15, 16, 17 or 20, with a correct check digit)',
    }),
  );

/** Text that goes into the XML as is: trimmed, no control characters, bounded like SUNAT's patterns. */
export const textSchema = (max: number, extra: CodeMessages = {}) =>
  Joi.string()
    .trim()
    .min(1)
    .max(max)
    .pattern(/^[^\u0000-\u0008\u000B\u000C\u000E-\u001F]*$/)
    .error(codes({ 'string.pattern.base': '{#label} contains control characters', ...extra }));

const ubigeoSchema = Joi.string()
  .pattern(/^\d{6}$/)
  .error(codes({ 'string.pattern.base': '[SUNAT 4093] {#label} must be a 6-digit INEI ubigeo' }));
const countrySchema = Joi.string()
  .uppercase()
  .pattern(/^[A-Z]{2}$/)
  .default('PE')
  .error(codes({ 'string.pattern.base': '[SUNAT 4041] {#label} must be an ISO 3166 alpha-2 country code' }));

/** The issuer's establishment (`establecimiento`, alias `address`): `codLocal` is SUNAT's annex code, `0000` the head office. */
export const establishmentSchema = Joi.object({
  ubigeo: ubigeoSchema,
  codLocal: Joi.string()
    .pattern(/^\d{4}$/)
    .default('0000')
    .error(
      codes({
        'string.pattern.base':
          '[SUNAT 3030] {#label} must be the 4-digit annex code of the establishment (0000 = head office)',
      }),
    ),
  departamento: textSchema(30),
  provincia: textSchema(30),
  distrito: textSchema(30),
  urbanizacion: textSchema(25),
  direccion: textSchema(200),
  codigoPais: countrySchema,
}).default({ codLocal: '0000', codigoPais: 'PE' });

export interface Establishment {
  ubigeo?: string;
  codLocal: string;
  departamento?: string;
  provincia?: string;
  distrito?: string;
  urbanizacion?: string;
  direccion?: string;
  codigoPais: string;
}

/** `emisor` (alias `company`): the company of the token. */
export const issuerSchema = Joi.object({
  ruc: rucSchema.required(),
  razonSocial: textSchema(1500, {
    'any.required': "[SUNAT 1037] {#label} (the issuer's legal name) is required",
  }).required(),
  nombreComercial: textSchema(1500),
  establecimiento: establishmentSchema,
});

export interface Issuer {
  ruc: string;
  razonSocial: string;
  nombreComercial?: string;
  establecimiento: Establishment;
}

export const customerAddressSchema = Joi.object({
  ubigeo: ubigeoSchema,
  direccion: textSchema(200).required(),
  codigoPais: countrySchema,
});

/**
 * An identity document (catalog 06 type and number), checked together: RUC with its check digit, DNI of 8 digits,
 * `0`/`-` without a number, others 1–15 letters or digits. Which types a document accepts is a rule of each family.
 */
export const identityFields = {
  tipoDoc: Joi.string()
    .valid(...IDENTITY_DOC_TYPES)
    .required()
    .error(
      codes({
        'any.only':
          '[SUNAT 2016] {#label} must be a code of catalog 06 (6 RUC, 1 DNI, 4 carné de extranjería, 7 pasaporte, 0 no domiciliado, …)',
      }),
    ),
  numDoc: Joi.alternatives().conditional('tipoDoc', {
    switch: [
      { is: RUC_DOC_TYPE, then: rucSchema.required() },
      {
        is: DNI_DOC_TYPE,
        then: Joi.string()
          .pattern(/^\d{8}$/)
          .required()
          .error(codes({ 'string.pattern.base': '[SUNAT 2801] {#label} must be a DNI of 8 digits' })),
      },
      {
        is: Joi.valid('0', '-'),
        then: Joi.string()
          .trim()
          .max(15)
          .pattern(/^[A-Za-z0-9-]*$/)
          .allow('')
          .default('-'),
      },
    ],
    otherwise: Joi.string()
      .trim()
      .pattern(/^[A-Za-z0-9-]{1,15}$/)
      .required()
      .error(codes({ 'string.pattern.base': '[SUNAT 2802] {#label} must be 1 to 15 letters or digits' })),
  }),
};

/** `cliente` (alias `client`, `rznSocial` → `nombre`), with an optional address. */
export const customerSchema = Joi.object({
  ...identityFields,
  nombre: textSchema(1500, {
    'any.required': "[SUNAT 2021] {#label} (the customer's name) is required",
    'string.max': '[SUNAT 2022] {#label} must be at most 1500 characters',
  }).required(),
  address: customerAddressSchema,
});

/** Most addresses one document is e-mailed to (issue 27). */
export const MAX_BUYER_EMAILS = 5;

/**
 * One address as an SMTP envelope and a `To:` header take it: an atom-only local part and a dotted host name, so no
 * CR/LF, spaces, quotes, commas or display names can reach a header.
 */
const EMAIL_ADDRESS =
  /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}$/;

export function isEmailAddress(value: string): boolean {
  return value.length <= 254 && EMAIL_ADDRESS.test(value);
}

/**
 * `cliente.correo` / `destinatario.correo`: where chasqui e-mails the accepted document (docs/buyers.md). One address
 * or a list of 1 to 5, read back as a list.
 */
export const buyerEmailSchema = Joi.any()
  .custom((value: unknown, helpers) => {
    const list: unknown[] = typeof value === 'string' ? [value] : Array.isArray(value) ? value : [];
    if (typeof value !== 'string' && !Array.isArray(value)) return helpers.error('correo.type');
    if (list.length < 1 || list.length > MAX_BUYER_EMAILS) return helpers.error('correo.count');
    const addresses: string[] = [];
    for (const [index, item] of list.entries()) {
      const address = typeof item === 'string' ? item.trim() : '';
      if (!isEmailAddress(address)) return helpers.error('correo.address', { index });
      if (!addresses.some((known) => known.toLowerCase() === address.toLowerCase())) addresses.push(address);
    }
    return addresses;
  })
  .error(
    codes({
      'correo.type': '{#label} must be an e-mail address or a list of 1 to 5 of them',
      'correo.count': `{#label} must list 1 to ${MAX_BUYER_EMAILS} e-mail addresses`,
      'correo.address':
        '{#label} item {#index} is not one e-mail address (name@domain, without spaces, line breaks or a display name)',
    }),
  );

export interface Customer {
  tipoDoc: IdentityDocType;
  numDoc: string;
  nombre: string;
  address?: { ubigeo?: string; direccion: string; codigoPais: string };
  /** The buyer's e-mail addresses (`cliente.correo`, `destinatario.correo`), as a list. */
  correo?: string[];
}

/** A customer is identified when SUNAT can tell who it is: any document type but 0/`-`, with a number. */
export function isIdentified(customer: Customer): boolean {
  return customer.tipoDoc !== '0' && customer.tipoDoc !== '-' && customer.numDoc !== '' && customer.numDoc !== '-';
}
