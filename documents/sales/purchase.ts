/**
 * Liquidación de compra (04): the buyer, a company with RUC, issues it for what it buys from a person without RUC.
 * The lines, totals and taxes are those of a factura; the parties are the other way round (the seller is the
 * `cac:AccountingSupplierParty`, the issuer the `cac:AccountingCustomerParty`) and the place of the operation is
 * stated. SUNAT's rules: ValidaExprRegLiquidacion-2.0.1.xsl (its SFS copy, commons/xsl/ValidaExprLiq, is empty).
 */
import Joi from 'joi';
import { issue, type ValidationIssue } from '../errors';
import { codes } from '../input/fields';
import { identityFields, textSchema } from '../input/parties';
import { saleSchema } from './schema';
import { PLACE_TYPES, type SaleInput } from './types';
import type { DocumentTotals } from '../tax/totals';
import { affectationOf } from '../tax/rates';

/** Catalog 51 operations of the liquidación de compra. */
export const PURCHASE_OPERATIONS = ['0501', '0502', '0503'] as const;
/** Identity documents a seller of a liquidación de compra may have (SUNAT 2800): DNI, carné de extranjería, pasaporte. */
const SELLER_DOC_TYPES = ['1', '4', '7'];

const placeFields = {
  tipo: Joi.string()
    .valid(...PLACE_TYPES)
    .required()
    .error(
      codes({
        'any.only':
          '[SUNAT 2457] {#label} must be a place type of catalog 60 (01 punto de venta, 02 producción, 03 extracción, 04 explotación, 05 ninguno)',
      }),
    ),
  ubigeo: Joi.string()
    .pattern(/^\d{6}$/)
    .required()
    .error(
      codes({
        'string.pattern.base': '[SUNAT 4339] {#label} must be a 6-digit INEI ubigeo',
        'any.required': '[SUNAT 2453] {#label} (ubigeo) is required',
      }),
    ),
  direccion: textSchema(200)
    .min(3)
    .required()
    .error(
      codes({
        'any.required': '[SUNAT 2452] {#label} is required',
        'string.min': '[SUNAT 2593] {#label} must have 3 to 200 characters',
      }),
    ),
  departamento: textSchema(30),
  provincia: textSchema(30),
  distrito: textSchema(30),
};

const sellerSchema = Joi.object({
  ...identityFields,
  nombre: textSchema(1500, { 'any.required': "[SUNAT 2021] {#label} (the seller's name) is required" }).required(),
  direccion: Joi.object(placeFields)
    .required()
    .error(codes({ 'any.required': "[SUNAT 2452] {#label} (the seller's address) is required" })),
});

/** The payload of a 04: a sale's fields without customer, payment terms or detracción, plus the seller and the place. */
export const purchaseSchema = saleSchema.keys({
  tipoDoc: Joi.string().valid('04').required(),
  tipoOperacion: Joi.string()
    .valid(...PURCHASE_OPERATIONS)
    .default('0501')
    .error(
      codes({
        'any.only':
          '[SUNAT 3206] {#label} of a liquidación de compra must be 0501 (compra interna), 0502 (anticipos) or 0503 (compra de oro)',
      }),
    ),
  cliente: Joi.forbidden(),
  vendedor: sellerSchema.required(),
  lugarOperacion: Joi.object(placeFields)
    .required()
    .error(codes({ 'any.required': '[SUNAT 2458] {#label} (where the purchase took place) is required' })),
  formaPago: Joi.forbidden(),
  detraccion: Joi.forbidden(),
  percepcion: Joi.forbidden(),
  transporteFerroviario: Joi.forbidden(),
  documentoAfectado: Joi.forbidden(),
  motivo: Joi.forbidden(),
  anticipos: Joi.forbidden(),
});

/**
 * What the buyer pays the seller: the buyer withholds the IGV (it pays it to SUNAT for the seller), so the payable
 * total of a 04 is the total with taxes less the IGV (SUNAT's 4312: PayableAmount = TaxInclusiveAmount − IGV − IR −
 * prepaid), the income tax withheld (retencionRenta) too. Other documents keep their totals.
 */
export function purchaseTotals(input: Pick<SaleInput, 'tipoDoc'>, totals: DocumentTotals): DocumentTotals {
  return input.tipoDoc === '04'
    ? { ...totals, importeTotal: totals.importeTotal.minus(totals.igv).minus(totals.ir) }
    : totals;
}

/** Series, seller and the gold data of 0503; the lines, totals and client totals follow the sales rules. */
export function purchaseRules(input: SaleInput, out: ValidationIssue[], warnings: string[]): void {
  if (input.serie[0] !== 'L')
    out.push(issue('SUNAT', '1001', `serie '${input.serie}' of a liquidación de compra must start with L`, 'serie'));
  const seller = input.vendedor!;
  if (!SELLER_DOC_TYPES.includes(seller.tipoDoc)) {
    out.push(
      issue(
        'SUNAT',
        '2800',
        'the seller of a liquidación de compra has no RUC: tipoDoc 1 (DNI), 4 (carné de extranjería) or 7 (pasaporte)',
        'vendedor.tipoDoc',
      ),
    );
  }
  input.items.forEach((item, i) => {
    const rate = item.retencionRenta?.porcentaje;
    if (rate && !rate.eq(1.5) && !rate.eq(4)) {
      warnings.push(
        `[SUNAT 4237] items[${i}].retencionRenta.porcentaje ${rate.toString()}: SUNAT expects 1.5 or 4 and observes any other rate`,
      );
    }
    if (item.retencionRenta && affectationOf(item.afectacionIgv).free) {
      // SUNAT's sums of the withholding (4312, 4346) leave free lines out.
      out.push(
        issue(
          'chasqui',
          'BR_IR_FREE_LINE',
          'a free line (transferencia gratuita) has no value to withhold income tax from',
          `items[${i}].retencionRenta`,
        ),
      );
    }
  });
  if (input.tipoOperacion !== '0503') return;
  input.items.forEach((item, i) => {
    const have = new Set((item.propiedades ?? []).map((p) => p.codigo));
    for (const [code, sunat, what] of GOLD_PROPERTIES) {
      if (!have.has(code))
        out.push(
          issue(
            'SUNAT',
            sunat,
            `operation 0503 (compra de oro) needs property ${code} (${what}) on every line`,
            `items[${i}].propiedades`,
          ),
        );
    }
  });
}

const GOLD_PROPERTIES: readonly [string, string, string][] = [
  ['6000', '2466', 'código único de la concesión minera'],
  ['6004', '2467', 'ley del mineral'],
  ['6005', '2468', 'naturaleza del mineral'],
  ['6006', '2469', 'nombre del derecho minero'],
];
