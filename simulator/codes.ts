/** SUNAT's texts for the codes the simulator answers with (codes/return-codes.csv). */
const MESSAGES: Record<string, string> = {
  '0004': 'La constancia existe',
  '0005': 'Código de comprobante no permitido o no valido',
  '0011': 'Comprobante no encontrado o no existe',
  '0101': 'El encabezado de seguridad es incorrecto',
  '0102': 'Usuario o contraseña incorrectos',
  '0111': 'No tiene el perfil para enviar comprobantes electronicos',
  '0126': 'El ticket no le pertenece al usuario',
  '0127': 'El ticket no existe',
  '0151': 'El nombre del archivo ZIP es incorrecto',
  '0152': 'No se puede enviar por este método un archivo de resumen',
  '0154':
    'El RUC del archivo no corresponde al RUC del usuario o el proveedor no esta autorizado a enviar comprobantes del contribuyente',
  '0155': 'El archivo ZIP esta vacio',
  '0156': 'El archivo ZIP esta corrupto',
  '0157': 'El archivo ZIP no contiene comprobantes',
  '0158': 'El archivo ZIP contiene demasiados comprobantes para este tipo de envío',
  '0160': 'El archivo XML esta vacio',
  '0161': 'El nombre del archivo XML no coincide con el nombre del archivo ZIP',
  '0302': 'Codigo del tipo de comprobante no registrado',
  '0306': 'No se puede leer (parsear) el archivo XML',
  '1003': 'InvoiceTypeCode - El valor del tipo de documento es invalido o no coincide con el nombre del archivo',
  '1032': 'El comprobante ya esta informado y se encuentra con estado anulado o rechazado',
  '1033': 'El comprobante fue registrado previamente con otros datos',
  '1034': 'Número de RUC del nombre del archivo no coincide con el consignado en el contenido del archivo XML',
  '1035': 'Numero de Serie del nombre del archivo no coincide con el consignado en el contenido del archivo XML',
  '1036': 'Número de documento en el nombre del archivo no coincide con el consignado en el contenido del XML',
  '1059': 'El XML no contiene firma digital.',
  '2223': 'El archivo ya fue presentado anteriormente',
  '2335': 'El documento electrónico ingresado ha sido alterado',
  // Codes of SUNAT's rules dated after return-codes.csv (documents/calendar/rules.ts): texts in SUNAT's words, not its catalog's.
  '3496': 'El Código producto de SUNAT no es válido',
  // 3507 (debit notes of reason 13, reported from SUNAT's 2026 revisions): no SUNAT file found carries its text yet.
  '3507': 'El tipo de nota de débito 13 solo corresponde a operaciones inafectas',
  '3279': 'La sumatoria del Total del valor de venta más los impuestos no concuerda con la base imponible',
  '3291': 'El cálculo del IGV es Incorrecto',
};

export function messageFor(code: string): string {
  return MESSAGES[code] ?? `Error ${code} (simulated)`;
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
