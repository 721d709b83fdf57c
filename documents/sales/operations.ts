/**
 * Catalog 51 operations that carry data of their own: percepción (2001), the detracciones with transport or fishing
 * data (1002–1004), the air waybill (0301), rail passengers (0302) and the financial and insurance operations
 * (2100–2105). Their joi pieces, their model and their rules live here, apart from the general sales rules, so each
 * operation is read in one place (SUNAT's Factura and Boleta XSL, ValidaExprRegFactura-2.0.1.xsl).
 */
import Joi from 'joi';
import { Decimal } from '../decimal';
import { issue, type ValidationIssue } from '../errors';
import { amountSchema, codes, dateField, decimalSchema, timeSchema } from '../input/fields';
import { rucSchema, textSchema } from '../input/parties';
import { ITEM_PROPERTIES } from '../catalogs/item-properties';
import { PAYMENT_MEANS } from '../catalogs/detraction';
import type { DocumentTotals } from '../tax/totals';
import type { FreightPlace, ItemProperty, SaleInput } from './types';

// ---------------------------------------------------------------- percepción (2001)

/** Catalog 53 codes of the percepción and the rate (percent) of each regime. */
export const PERCEPTION_RATES: Readonly<Record<string, string>> = { '51': '2', '52': '1', '53': '0.5' };
export const PERCEPTION_LEGEND = 'COMPROBANTE DE PERCEPCIÓN';

export const perceptionSchema = Joi.object({
  codigo: Joi.string()
    .valid(...Object.keys(PERCEPTION_RATES))
    .required()
    .error(
      codes({
        'any.only':
          '[SUNAT 3071] {#label} must be a percepción regime of catalog 53: 51 venta interna (2 %), 52 combustible (1 %), 53 agente con tasa especial (0.5 %)',
      }),
    ),
  /** Percent; by default the regime's rate. */
  porcentaje: decimalSchema({ positive: true, maxDecimals: 3 }),
  /** What the rate applies to, in soles; by default the payable total. */
  baseImponible: decimalSchema(
    { positive: true, maxDecimals: 2 },
    { 'decimal.positive': '[SUNAT 3233] {#label} (the percepción base) must be greater than 0.00' },
  ),
});

/** The percepción as the XML states it: a charge of catalog 53 and the total the customer pays with it, in soles. */
export interface Perception {
  code: string;
  percent: Decimal;
  base: Decimal;
  amount: Decimal;
  /** Payable total plus the percepción (`PaymentTerms` Percepcion). */
  total: Decimal;
}

export function computePerception(input: SaleInput, totals: DocumentTotals): Perception | null {
  const p = input.percepcion;
  if (!p) return null;
  const percent = p.porcentaje ?? new Decimal(PERCEPTION_RATES[p.codigo]);
  const base = p.baseImponible ?? totals.importeTotal;
  const amount = base.times(percent).div(100).toDecimalPlaces(2);
  return { code: p.codigo, percent, base, amount, total: totals.importeTotal.plus(amount) };
}

function perceptionRules(input: SaleInput, totals: DocumentTotals, out: ValidationIssue[]): void {
  const p = input.percepcion;
  const op = input.tipoOperacion;
  const credit = paymentKind(input) === 'Credito';
  if (op === '2001' && !p && !credit) {
    out.push(
      issue(
        'SUNAT',
        '3093',
        'operation 2001 (sujeta a percepción) paid Contado needs percepcion {codigo}',
        'percepcion',
      ),
    );
  }
  if (!p) return;
  if (input.tipoDoc !== '01' && input.tipoDoc !== '03')
    out.push(
      issue(
        'chasqui',
        'BR_PERCEPTION_DOC',
        'the percepción is stated on facturas and boletas, not on notes',
        'percepcion',
      ),
    );
  if (op !== '2001')
    out.push(
      issue('SUNAT', '3308', `percepcion belongs to operation 2001 (sujeta a percepción), not ${op}`, 'percepcion'),
    );
  if (credit)
    out.push(issue('SUNAT', '3330', 'the percepción is stated only on sales paid Contado, not Credito', 'percepcion'));
  if (input.tipoMoneda !== 'PEN')
    out.push(issue('SUNAT', '2788', 'the percepción is stated in soles: issue the document in PEN', 'tipoMoneda'));
  if (p.baseImponible && p.baseImponible.gt(totals.importeTotal)) {
    out.push(
      issue(
        'SUNAT',
        '2797',
        `percepcion.baseImponible ${p.baseImponible.toFixed(2)} is more than the payable total ${totals.importeTotal.toFixed(2)}`,
        'percepcion.baseImponible',
      ),
    );
  }
}

function paymentKind(input: SaleInput): 'Contado' | 'Credito' | null {
  const p = input.formaPago;
  if (p === undefined) return null;
  return typeof p === 'string' ? p : p.tipo;
}

// ---------------------------------------------------------------- item properties (catalog 55)

/** How each property carries its value in `cac:AdditionalItemProperty` (SUNAT's XSL, one template per code). */
const START_DATE = new Set(['3005', '3059', '4002', '4003', '4004', '4006', '4048', '4062', '7014']);
const END_DATE = new Set(['4063', '7014']);
const START_TIME = new Set(['3060', '4047']);
const DAYS = new Set(['4005']);
/** Properties stated as a quantity: 3006 tonnes of the species sold, 7019 the AFP's interest amount. */
const QUANTITY = new Set(['3006', '7019']);

export const itemPropertySchema = Joi.object({
  codigo: Joi.string()
    .valid(...Object.keys(ITEM_PROPERTIES))
    .required()
    .error(
      codes({
        'any.only':
          '[SUNAT 4280] {#label} must be a property code of catalog 55 (e.g. 3001 matrícula de la embarcación)',
      }),
    ),
  valor: textSchema(500),
  fecha: dateField(),
  fechaFin: dateField(),
  hora: timeSchema,
  dias: Joi.number().integer().min(0).max(9999),
  /** A quantity: tonnes for 3006 (cantidad de especie vendida), the amount for 7019 (interés moratorio AFP). */
  cantidad: decimalSchema({ maxDecimals: 2 }),
});

/** Which field a property's code needs, and the SUNAT code when it is missing. */
function propertyValueRules(props: ItemProperty[], path: string, out: ValidationIssue[]): void {
  props.forEach((p, j) => {
    const at = `${path}.propiedades[${j}]`;
    const missing = (field: string, code: string, what: string) =>
      out.push(
        issue('SUNAT', code, `property ${p.codigo} (${ITEM_PROPERTIES[p.codigo]}) needs ${what}`, `${at}.${field}`),
      );
    if (START_DATE.has(p.codigo) && !p.fecha)
      missing('fecha', p.codigo === '7014' ? '3243' : '3065', 'fecha (YYYY-MM-DD)');
    if (END_DATE.has(p.codigo) && !p.fechaFin)
      missing('fechaFin', p.codigo === '7014' ? '4366' : '3065', 'fechaFin (YYYY-MM-DD)');
    if (START_TIME.has(p.codigo) && !p.hora) missing('hora', '3172', 'hora (HH:MM:SS)');
    if (DAYS.has(p.codigo) && p.dias === undefined) missing('dias', '3135', 'dias (number of days)');
    if (QUANTITY.has(p.codigo) && !p.cantidad) missing('cantidad', p.codigo === '3006' ? '3135' : '3064', 'cantidad');
    const valued =
      !START_DATE.has(p.codigo) &&
      !END_DATE.has(p.codigo) &&
      !START_TIME.has(p.codigo) &&
      !DAYS.has(p.codigo) &&
      !QUANTITY.has(p.codigo);
    if (valued && !p.valor) missing('valor', '3064', 'valor');
  });
}

/** Properties every line of an operation must carry, with the SUNAT code for each missing one. */
const LINE_PROPERTIES: Readonly<Record<string, readonly [string, string][]>> = {
  '1002': [
    ['3001', '3063'],
    ['3002', '3130'],
    ['3003', '3131'],
    ['3004', '3132'],
    ['3005', '3134'],
    ['3006', '3133'],
  ],
  '0301': [
    ['4030', '3168'],
    ['4031', '3169'],
    ['4032', '3170'],
    ['4033', '3171'],
  ],
  '0302': [
    ['4040', '3159'],
    ['4041', '3160'],
    ['4042', '3161'],
    ['4043', '3162'],
    ['4044', '3163'],
    ['4045', '3164'],
    ['4046', '3165'],
    ['4047', '3166'],
    ['4048', '3167'],
    ['4049', '3204'],
  ],
  '2105': [
    ['7017', '2595'],
    ['7018', '2596'],
    ['7019', '2597'],
  ],
  // Hospedaje to a non-domiciled guest (0202) and tourist packages (0205): the guest and the stay.
  '0202': [
    ['4000', '3138'],
    ['4001', '3140'],
    ['4002', '3141'],
    ['4003', '3142'],
    ['4004', '3143'],
    ['4005', '3145'],
    ['4006', '3144'],
    ['4007', '3139'],
    ['4008', '3137'],
    ['4009', '3136'],
  ],
  '0205': [
    ['4000', '3138'],
    ['4007', '3139'],
    ['4008', '3137'],
    ['4009', '3136'],
  ],
};

/** Operations where at least one line must carry a set of properties (the credit or the policy it bills). */
const SOME_LINE_PROPERTIES: Readonly<Record<string, { props: string[]; code: string; what: string }>> = {
  '2100': {
    props: ['7004', '7005', '7012'],
    code: '3241',
    what: 'the credit: 7004 contract number, 7005 date granted, 7012 capital',
  },
  '2101': {
    props: ['7004', '7005', '7012'],
    code: '3241',
    what: 'the credit: 7004 contract number, 7005 date granted, 7012 capital',
  },
  '2102': {
    props: ['7004', '7005', '7012'],
    code: '3241',
    what: 'the credit: 7004 contract number, 7005 date granted, 7012 capital',
  },
  '2104': { props: ['7015'], code: '3242', what: 'the insurance: 7015 tipo de seguro' },
};

function propertyRules(input: SaleInput, out: ValidationIssue[]): void {
  const op = input.tipoOperacion;
  const perLine = LINE_PROPERTIES[op] ?? [];
  input.items.forEach((item, i) => {
    const props = item.propiedades ?? [];
    propertyValueRules(props, `items[${i}]`, out);
    const have = new Set(props.map((p) => p.codigo));
    for (const [code, sunat] of perLine) {
      if (!have.has(code))
        out.push(
          issue(
            'SUNAT',
            sunat,
            `operation ${op} needs property ${code} (${ITEM_PROPERTIES[code]}) on every line`,
            `items[${i}].propiedades`,
          ),
        );
    }
    if (op === '2104' && have.has('7015')) insuranceRules(props, i, out);
  });
  const some = SOME_LINE_PROPERTIES[op];
  if (some && !input.items.some((item) => some.props.every((c) => item.propiedades?.some((p) => p.codigo === c)))) {
    out.push(issue('SUNAT', some.code, `operation ${op} needs a line with the properties of ${some.what}`, 'items'));
  }
}

/** Insurance types 1 and 2 state the policy, its term and the sum insured; type 3 the policy. */
function insuranceRules(props: ItemProperty[], i: number, out: ValidationIssue[]): void {
  const kind = props.find((p) => p.codigo === '7015')?.valor;
  const have = new Set(props.map((p) => p.codigo));
  const needed = kind === '1' || kind === '2' ? ['7013', '7014', '7016'] : kind === '3' ? ['7013'] : [];
  for (const code of needed) {
    if (!have.has(code))
      out.push(
        issue(
          'SUNAT',
          kind === '3' ? '2899' : '2898',
          `tipo de seguro ${kind} needs property ${code} (${ITEM_PROPERTIES[code]})`,
          `items[${i}].propiedades`,
        ),
      );
  }
}

// ---------------------------------------------------------------- freight (1004) and rail passengers (0302)

const placeSchema = Joi.object({
  ubigeo: Joi.string()
    .pattern(/^\d{6}$/)
    .required()
    .error(codes({ 'string.pattern.base': '[SUNAT 4200] {#label} must be a 6-digit INEI ubigeo (catalog 13)' })),
  direccion: textSchema(200)
    .min(3)
    .required()
    .error(codes({ 'string.min': '[SUNAT 4236] {#label} must have 3 to 200 characters' })),
});

/** Detracción 1004, per line: the trip and SUNAT's reference values (DeliveryTerms 01 service, 02 effective load, 03 nominal load). */
export const freightSchema = Joi.object({
  origen: placeSchema
    .required()
    .error(codes({ 'any.required': '[SUNAT 3116] {#label} (where the trip starts) is required' })),
  destino: placeSchema
    .required()
    .error(codes({ 'any.required': '[SUNAT 3118] {#label} (where the trip ends) is required' })),
  detalle: textSchema(500)
    .min(3)
    .required()
    .error(
      codes({
        'any.required': '[SUNAT 3120] {#label} (the trip in words) is required',
        'string.min': '[SUNAT 4270] {#label} must have 3 to 500 characters',
      }),
    ),
  valorReferencialServicio: amountSchema
    .required()
    .error(codes({ 'any.required': '[SUNAT 3124] {#label} (reference value of the service) is required' })),
  valorReferencialCargaEfectiva: amountSchema
    .required()
    .error(codes({ 'any.required': '[SUNAT 3125] {#label} (reference value of the effective load) is required' })),
  valorReferencialCargaUtil: amountSchema
    .required()
    .error(codes({ 'any.required': '[SUNAT 3126] {#label} (reference value of the nominal load) is required' })),
});

/** Operation 0302: the travel agent who sold the ticket and how the service was paid. */
export const railSchema = Joi.object({
  agenteRuc: rucSchema
    .required()
    .error(codes({ 'any.required': '[SUNAT 3156] {#label} (RUC of the travel agent) is required' })),
  medioPago: Joi.string()
    .valid(...PAYMENT_MEANS)
    .required()
    .error(
      codes({
        'any.only': '[SUNAT 3174] {#label} must be a means of payment of catalog 59',
        'any.required': '[SUNAT 3173] {#label} (how the service was paid) is required',
      }),
    ),
  /** The payment's reference (voucher or operation number). */
  idPago: textSchema(100)
    .required()
    .error(codes({ 'any.required': '[SUNAT 3175] {#label} (reference of the payment) is required' })),
});

function transportRules(input: SaleInput, out: ValidationIssue[]): void {
  const op = input.tipoOperacion;
  input.items.forEach((item, i) => {
    if (op === '1004' && !item.transporte)
      out.push(
        issue(
          'SUNAT',
          '3116',
          'operation 1004 (transporte de carga) needs transporte {origen, destino, detalle, valores referenciales} on every line',
          `items[${i}].transporte`,
        ),
      );
    if (op !== '1004' && item.transporte)
      out.push(
        issue(
          'chasqui',
          'BR_FREIGHT_OPERATION',
          `transporte (reference values of freight) belongs to operation 1004, not ${op}`,
          `items[${i}].transporte`,
        ),
      );
  });
  if (op === '0302' && !input.transporteFerroviario) {
    out.push(
      issue(
        'SUNAT',
        '3156',
        'operation 0302 (transporte ferroviario de pasajeros) needs transporteFerroviario {agenteRuc, medioPago, idPago}',
        'transporteFerroviario',
      ),
    );
  }
  if (op !== '0302' && input.transporteFerroviario) {
    out.push(
      issue(
        'chasqui',
        'BR_RAIL_OPERATION',
        `transporteFerroviario belongs to operation 0302, not ${op}`,
        'transporteFerroviario',
      ),
    );
  }
}

// ---------------------------------------------------------------- detracción operations

/** The detracción operations and the catalog 54 code each one requires (1001 takes any other). */
export const DETRACTION_OPERATIONS: Readonly<Record<string, string | null>> = {
  '1001': null,
  '1002': '004',
  '1003': '028',
  '1004': '027',
};

/** Operations 1001–1004 and their detracción come together, on facturas and boletas in soles, with the code each one covers. */
function detractionRules(input: SaleInput, out: ValidationIssue[]): void {
  const d = input.detraccion;
  const op = input.tipoOperacion;
  const isDetraction = op in DETRACTION_OPERATIONS;
  if (isDetraction && !d)
    out.push(
      issue('SUNAT', '3127', `operation ${op} (sujeta a detracción) needs detraccion {codigo, cuenta}`, 'detraccion'),
    );
  if (!d) return;
  if (!isDetraction) {
    const why = op === '2001' ? ': a sale is subject to percepción or to detracción, not both' : '';
    out.push(issue('SUNAT', '3128', `detraccion belongs to operations 1001–1004, not ${op}${why}`, 'detraccion'));
  }
  if (input.tipoDoc !== '01' && input.tipoDoc !== '03')
    out.push(
      issue(
        'chasqui',
        'BR_DETRACTION_DOC',
        'the detracción is written on facturas and boletas, not on notes',
        'detraccion',
      ),
    );
  if (input.tipoMoneda !== 'PEN')
    out.push(issue('SUNAT', '3208', 'the detracción is stated in soles: issue the factura in PEN', 'tipoMoneda'));
  const required = DETRACTION_OPERATIONS[op];
  const own = Object.entries(DETRACTION_OPERATIONS).find(([, code]) => code === d.codigo)?.[0];
  if (required && d.codigo !== required) {
    out.push(
      issue(
        'SUNAT',
        '3129',
        `operation ${op} is the detracción of good or service ${required}, not ${d.codigo}`,
        'detraccion.codigo',
      ),
    );
  } else if (op === '1001' && own) {
    out.push(
      issue(
        'SUNAT',
        '3129',
        `detraccion.codigo ${d.codigo} is declared with operation ${own}, not 1001`,
        'detraccion.codigo',
      ),
    );
  }
}

/** Every rule of the operations above; each reports all it finds. */
export function operationRules(input: SaleInput, totals: DocumentTotals, out: ValidationIssue[]): void {
  perceptionRules(input, totals, out);
  detractionRules(input, out);
  propertyRules(input, out);
  transportRules(input, out);
}
