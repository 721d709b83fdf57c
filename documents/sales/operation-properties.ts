/**
 * Catalog 55 item properties (`cac:AdditionalItemProperty`): how each code carries its value, and the properties
 * the operations with data of their own (fishing, financial and insurance 2100–2105, …) require on their lines.
 */
import Joi from 'joi';
import { issue, type ValidationIssue } from '../errors';
import { codes, dateField, decimalSchema, timeSchema } from '../input/fields';
import { textSchema } from '../input/parties';
import { ITEM_PROPERTIES } from '../catalogs/item-properties';
import type { ItemProperty, SaleInput } from './types';

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

export function propertyRules(input: SaleInput, out: ValidationIssue[]): void {
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
