import { RULES } from '../documents/calendar';
import { sunatCode } from '../documents/sunat-codes';

/**
 * The codes the simulator answers with by itself (its checks, the seed, the portals, every dated rule's); their
 * texts are the catalog's (documents/sunat-codes.ts). Any other code comes from a fault rule, whose text, when the
 * rule gives none, says it is simulated.
 */
const ANSWERS: ReadonlySet<string> = new Set([
  ...['0004', '0005', '0011', '0101', '0102', '0111', '0126', '0127', '0151', '0152', '0154', '0155', '0156'],
  ...['0157', '0158', '0160', '0161', '0302', '0306', '1003', '1032', '1033', '1034', '1035', '1036', '1059'],
  ...['2223', '2335', '3279', '3291'],
  ...RULES.flatMap((rule) => rule.codes),
]);

export function messageFor(code: string): string {
  return (ANSWERS.has(code) && sunatCode(code).answer) || `Error ${code} (simulated)`;
}

/** Names SUNAT uses in a CDR's Description ("La Factura numero F001-1, ha sido aceptada"). */
export const DOCUMENT_NAMES: Record<string, string> = {
  '01': 'Factura',
  '03': 'Boleta de Venta',
  '04': 'Liquidacion de compra',
  '07': 'Nota de Credito',
  '08': 'Nota de Debito',
  '09': 'Guia de Remision Remitente',
  '20': 'Comprobante de Retencion',
  '40': 'Comprobante de Percepcion',
  '31': 'Guia de Remision Transportista',
  RC: 'Resumen diario',
  RA: 'Comunicacion de baja',
  RR: 'Resumen de reversiones',
};
