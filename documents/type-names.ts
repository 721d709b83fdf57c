/**
 * Catalog 01 (and chasqui's summaries and voids) in the words people read on a screen: the console and /consulta.
 * The printed titles ("FACTURA ELECTRÓNICA") are documents/printed/labels.ts; the texts SUNAT writes in a CDR are
 * the simulator's.
 */
export const DOCUMENT_TYPE_NAMES: Readonly<Record<string, string>> = {
  '01': 'Factura',
  '03': 'Boleta de venta',
  '04': 'Liquidación de compra',
  '07': 'Nota de crédito',
  '08': 'Nota de débito',
  '09': 'Guía de remisión remitente',
  '31': 'Guía de remisión transportista',
  '20': 'Retención',
  '40': 'Percepción',
  rc: 'Resumen diario',
  ra: 'Comunicación de baja',
  rr: 'Resumen de reversión',
};

/** The name of a document type; an unknown code as itself. */
export const documentTypeName = (code: string): string => DOCUMENT_TYPE_NAMES[code] ?? code;
