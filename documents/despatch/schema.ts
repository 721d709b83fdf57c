/**
 * The payload of a dispatch guide (GRE): 09 issued by the sender (remitente), 31 issued by the carrier
 * (transportista). Field names follow the spec's Spanish style; SUNAT codes come from the GRE XSLs 2.0.1.
 * Rules that relate several fields live in `rules.ts`; the catalogs in `catalogs.ts`, the validated payload's types
 * in `types.ts`.
 */
import Joi from 'joi';
import { GRE_LOADING_DATE } from '../calendar';
import { dateField, decimalSchema, dateSchema, timeSchema } from '../input/fields';
import { buyerEmailSchema, customerSchema, issuerSchema, rucSchema, textSchema } from '../input/parties';
import { PORT_KINDS, RELATED_DOCUMENTS, TRANSFER_REASONS, TRANSPORT_MODES } from './catalogs';

/** How a wrong date of handing the goods to the carrier starts its message (gre-loading-date). */
const LOADING_DATE_FORMAT = `[SUNAT ${GRE_LOADING_DATE.answers.format.code}] {#label} (date the goods are handed to the carrier)`;

const mtcSchema = Joi.string()
  .trim()
  .pattern(/^(?!0+$)[0-9A-Z]{1,20}$/)
  .messages({
    'string.pattern.base': '[SUNAT 4392] {#label} must be the MTC registration: 1 to 20 capital letters or digits',
  });

const addressSchema = Joi.object({
  ubigeo: Joi.string()
    .pattern(/^\d{6}$/)
    .required()
    .messages({
      'string.pattern.base': '[SUNAT 2776] {#label} must be a 6-digit INEI ubigeo',
      'any.required': '[SUNAT 2775] {#label} is required',
    }),
  direccion: textSchema(500).min(3).required().messages({ 'any.required': '[SUNAT 2577] {#label} is required' }),
  codLocal: Joi.string()
    .pattern(/^\d{4}$/)
    .messages({ 'string.pattern.base': '[SUNAT 3364] {#label} must be the 4-digit annex code of the establishment' }),
  ruc: rucSchema,
})
  .and('codLocal', 'ruc')
  .messages({ 'object.and': '[SUNAT 3410] {#label} needs both codLocal and the ruc that owns the establishment' });

const driverSchema = Joi.object({
  tipoDoc: Joi.string().valid('1', '4', '7', 'A', 'B', 'C', 'D', 'E', 'F', 'G').required().messages({
    'any.only':
      '[SUNAT 2571] {#label} must be an identity document of catalog 06 (1 DNI, 4 carné de extranjería, 7 pasaporte, …)',
    'any.required': '[SUNAT 2570] {#label} is required',
  }),
  numDoc: Joi.when('tipoDoc', {
    is: '1',
    then: Joi.string()
      .pattern(/^\d{8}$/)
      .messages({ 'string.pattern.base': '[SUNAT 2569] {#label} must be a DNI of 8 digits' }),
    otherwise: Joi.string()
      .pattern(/^\S{1,15}$/)
      .messages({ 'string.pattern.base': '[SUNAT 2569] {#label} must be 1 to 15 characters without spaces' }),
  })
    .required()
    .messages({ 'any.required': '[SUNAT 2568] {#label} is required' }),
  nombres: textSchema(250).required().messages({ 'any.required': '[SUNAT 3360] {#label} is required' }),
  apellidos: textSchema(250).required().messages({ 'any.required': '[SUNAT 3361] {#label} is required' }),
  licencia: Joi.string()
    .pattern(/^(?!0+$)[0-9A-Z]{9,10}$/)
    .required()
    .messages({
      'string.pattern.base': '[SUNAT 2573] {#label} must be a driving licence of 9 or 10 capital letters or digits',
      'any.required': '[SUNAT 2572] {#label} is required',
    }),
});

const vehicleSchema = Joi.object({
  placa: Joi.string()
    .uppercase()
    .pattern(/^(?!0+$)[0-9A-Z]{6,8}$/)
    .required()
    .messages({
      'string.pattern.base': '[SUNAT 2567] {#label} must be a plate of 6 to 8 letters or digits without hyphens',
      'any.required': '[SUNAT 2566] {#label} is required',
    }),
  tuce: Joi.string()
    .pattern(/^(?!0+$)[0-9A-Z]{10,15}$/)
    .messages({ 'string.pattern.base': '[SUNAT 3355] {#label} must be 10 to 15 capital letters or digits' }),
});

const CONTAINER = /^[A-Z0-9\-/]{1,17}$/;
const SEALS = /^(?!0+$)[A-Z0-9]{1,100}(,(?!0+$)[A-Z0-9]{1,100})*$/;

const manifestLineSchema = Joi.object({
  documentoTransporte: Joi.string()
    .pattern(/^[A-Z0-9/\\-]{1,25}$/)
    .messages({ 'string.pattern.base': '[SUNAT 3466] {#label} must be 1 to 25 capital letters, digits, / \\ or -' }),
  detalle: Joi.number()
    .integer()
    .min(1)
    .max(99999)
    .messages(
      Object.fromEntries(
        ['number.base', 'number.integer', 'number.min', 'number.max'].map((k) => [
          k,
          '[SUNAT 3468] {#label} must be a whole number from 1 to 99999',
        ]),
      ),
    ),
  contenedor: Joi.string()
    .pattern(CONTAINER)
    .messages({ 'string.pattern.base': '[SUNAT 3470] {#label} must be 1 to 17 capital letters, digits, - or /' }),
  precinto: Joi.string().pattern(SEALS).messages({
    'string.pattern.base':
      '[SUNAT 3474] {#label} must be seal numbers of capital letters and digits, separated by commas',
  }),
  contenedorVacio: Joi.boolean(),
});

const itemSchema = Joi.object({
  descripcion: textSchema(500).min(3).required().messages({
    'any.required': '[SUNAT 2781] {#label} is required',
    'string.min': '[SUNAT 4084] {#label} must have 3 to 500 characters',
  }),
  cantidad: decimalSchema({ positive: true, maxDecimals: 10 }).required().messages({
    'any.required': '[SUNAT 2580] {#label} is required',
    'decimal.positive': '[SUNAT 2580] {#label} must be greater than 0',
  }),
  unidad: Joi.string()
    .pattern(/^[A-Z0-9]{1,3}$/)
    .default('NIU')
    .messages({ 'string.pattern.base': '[SUNAT 4320] {#label} must be a unit code of catalog 03 (NIU, KGM, ZZ, …)' }),
  codigo: textSchema(30).messages({ 'string.max': '[SUNAT 4085] {#label} must have at most 30 characters' }),
  codigoSunat: Joi.string()
    .pattern(/^(?!0+$)\d{1,8}$/)
    .messages({ 'string.pattern.base': '[SUNAT 3002] {#label} must be a UNSPSC product code of up to 8 digits' }),
  manifiesto: manifestLineSchema,
});

const portSchema = Joi.object({
  tipo: Joi.string()
    .valid(...Object.keys(PORT_KINDS))
    .required()
    .messages({
      'any.only': '[SUNAT 4416] {#label} must be 1 (port) or 2 (airport)',
      'any.required': '[SUNAT 3483] {#label} is required',
    }),
  codigo: Joi.string()
    .pattern(/^[A-Z0-9]{3,4}$/)
    .required()
    .messages({
      'string.pattern.base': '[SUNAT 3459] {#label} must be a code of catalog 63 (ports) or 64 (airports)',
      'any.required': '[SUNAT 3484] {#label} is required',
    }),
  nombre: textSchema(100).required().messages({ 'any.required': '[SUNAT 4418] {#label} is required' }),
});

const containerSchema = Joi.object({
  numero: Joi.string()
    .pattern(CONTAINER)
    .required()
    .messages({ 'string.pattern.base': '[SUNAT 4071] {#label} must be 1 to 17 capital letters, digits, - or /' }),
  precinto: Joi.string().pattern(SEALS).messages({
    'string.pattern.base':
      '[SUNAT 4074] {#label} must be seal numbers of capital letters and digits, separated by commas',
  }),
});

const shipmentSchema = Joi.object({
  motivo: Joi.string()
    .valid(...Object.keys(TRANSFER_REASONS))
    .messages({
      'any.only': `[SUNAT 3405] {#label} must be a transfer reason of catalog 20 chasqui issues (${Object.keys(TRANSFER_REASONS).join(', ')}); 08 import and 09 export are not supported`,
    }),
  descripcionMotivo: textSchema(100)
    .min(3)
    .messages({ 'string.min': '[SUNAT 4190] {#label} must have 3 to 100 characters' }),
  modalidad: Joi.string()
    .valid(TRANSPORT_MODES.public, TRANSPORT_MODES.private)
    .messages({ 'any.only': '[SUNAT 2773] {#label} must be 01 (public transport) or 02 (private transport)' }),
  fechaInicio: dateSchema
    .required()
    .messages({ 'any.required': '[SUNAT 3406] {#label} (start of the transfer) is required' }),
  fechaEntregaTransportista: dateField({
    'string.base': `${LOADING_DATE_FORMAT} must be a date YYYY-MM-DD`,
    'string.pattern.base': `${LOADING_DATE_FORMAT} must be a date YYYY-MM-DD`,
    'any.invalid': `${LOADING_DATE_FORMAT} is not a calendar date`,
  }),
  // Required but for an appointment (92): rules.ts says which.
  pesoBruto: decimalSchema({ positive: true, maxDecimals: 10 }).messages({
    'decimal.positive': '[SUNAT 2523] {#label} must be greater than 0',
  }),
  unidadPeso: Joi.string()
    .valid('KGM', 'TNE')
    .default('KGM')
    .messages({ 'any.only': '[SUNAT 2523] {#label} must be KGM or TNE' }),
  bultos: Joi.number().integer().min(1).max(999999).messages({
    'number.base': '[SUNAT 4384] {#label} must be a whole number of packages from 1 to 999999',
    'number.integer': '[SUNAT 4384] {#label} must be a whole number of packages from 1 to 999999',
    'number.min': '[SUNAT 4384] {#label} must be a whole number of packages from 1 to 999999',
    'number.max': '[SUNAT 4384] {#label} must be a whole number of packages from 1 to 999999',
  }),
  partida: addressSchema.required().messages({ 'any.required': '[SUNAT 2775] {#label} (origin address) is required' }),
  llegada: addressSchema
    .required()
    .messages({ 'any.required': '[SUNAT 2775] {#label} (destination address) is required' }),
  transportista: Joi.object({
    ruc: rucSchema.required().messages({ 'any.required': '[SUNAT 2558] {#label} is required' }),
    razonSocial: textSchema(250).min(2).required().messages({ 'any.required': '[SUNAT 2563] {#label} is required' }),
    registroMTC: mtcSchema,
  }),
  conductores: Joi.array()
    .items(driverSchema)
    .max(3)
    .default([])
    .messages({ 'array.max': '[SUNAT 4376] {#label} may hold the main driver and at most two secondary drivers' }),
  vehiculos: Joi.array()
    .items(vehicleSchema)
    .max(3)
    .default([])
    .messages({ 'array.max': '[SUNAT 4389] {#label} may hold the main vehicle and at most two secondary vehicles' }),
  vehiculoM1L: Joi.boolean().default(false),
  transbordoProgramado: Joi.boolean().default(false),
  retornoVehiculoVacio: Joi.boolean().default(false),
  retornoEnvasesVacios: Joi.boolean().default(false),
  puerto: portSchema,
  contenedores: Joi.array()
    .items(containerSchema)
    .max(2)
    .default([])
    .messages({ 'array.max': '[SUNAT 3420] {#label} may hold at most two containers' }),
  trasladoTotalDAMoDS: Joi.boolean().default(false),
  contenedorManifiestoCarga: Joi.boolean().default(false),
});

const relatedSchema = Joi.object({
  tipo: Joi.string()
    .valid(...Object.keys(RELATED_DOCUMENTS))
    .required()
    .messages({
      'any.only': `[SUNAT 2692] {#label} must be a code of catalog 61 (${Object.keys(RELATED_DOCUMENTS).join(', ')})`,
      'any.required': '[SUNAT 3376] {#label} is required',
    }),
  numero: Joi.string().trim().max(40).required().messages({ 'any.required': '[SUNAT 3403] {#label} is required' }),
  emisor: rucSchema,
});

/** The most lines a guide carries (DespatchLine), JSON or signed XML alike. */
export const MAX_DESPATCH_LINES = 9999;

export const despatchSchema = Joi.object({
  tipoDoc: Joi.string().valid('09', '31').required(),
  serie: Joi.string()
    .required()
    .when('tipoDoc', {
      is: '09',
      then: Joi.string()
        .pattern(/^T[A-Z0-9]{3}$/)
        .messages({
          'string.pattern.base':
            '[SUNAT 1001] {#label} of a GRE remitente (09) must be T followed by 3 capital letters or digits',
        }),
      otherwise: Joi.string()
        .pattern(/^V[A-Z0-9]{3}$/)
        .messages({
          'string.pattern.base':
            '[SUNAT 1001] {#label} of a GRE transportista (31) must be V followed by 3 capital letters or digits',
        }),
    }),
  correlativo: Joi.string()
    .pattern(/^(?!0+$)\d{1,8}$/)
    .required()
    .messages({ 'string.pattern.base': '[SUNAT 1001] {#label} must be a number of 1 to 8 digits, not zero' }),
  fechaEmision: dateSchema
    .required()
    .messages({ 'string.pattern.base': '[SUNAT 3436] {#label} must be a date YYYY-MM-DD' }),
  horaEmision: timeSchema.required().messages({
    'any.required': '[SUNAT 3437] {#label} is required for dispatch guides',
    'string.pattern.base': '[SUNAT 3438] {#label} must be a time HH:MM:SS',
  }),
  observaciones: textSchema(250),
  emisor: issuerSchema.keys({ registroMTC: mtcSchema }).required(),
  destinatario: customerSchema
    .keys({ correo: buyerEmailSchema })
    .required()
    .messages({ 'any.required': '[SUNAT 2757] {#label} (who receives the goods) is required' }),
  remitente: customerSchema,
  proveedor: customerSchema,
  comprador: customerSchema,
  pagadorFlete: Joi.alternatives().conditional('.tipo', {
    is: 'tercero',
    then: customerSchema.keys({ tipo: Joi.string().valid('tercero').required() }),
    otherwise: Joi.object({
      tipo: Joi.string()
        .valid('remitente', 'subcontratador')
        .required()
        .messages({ 'any.only': '{#label} must be remitente, subcontratador or tercero' }),
    }),
  }),
  documentosRelacionados: Joi.array().items(relatedSchema).default([]),
  envio: shipmentSchema.required(),
  // At least one line but for an appointment (92), which lists none: rules.ts says which.
  items: Joi.array().items(itemSchema).max(MAX_DESPATCH_LINES).default([]),
}).prefs({ abortEarly: false, convert: true, errors: { wrap: { label: "'" } } });
