/** Freight (detracción 1004, per line) and rail passengers (operation 0302): their joi pieces and rules. */
import Joi from 'joi';
import { issue, type ValidationIssue } from '../errors';
import { amountSchema, codes } from '../input/fields';
import { rucSchema, textSchema } from '../input/parties';
import { PAYMENT_MEANS } from '../catalogs/detraction';
import type { SaleInput } from './types';

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

export function transportRules(input: SaleInput, out: ValidationIssue[]): void {
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
