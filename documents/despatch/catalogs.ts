/** The SUNAT catalogs a dispatch guide draws on (18, 20, 55, 61, 63/64), with what chasqui does with each code. */

/** Catalog 20 reasons chasqui issues. 08 import / 09 export (their DAM series and customs rules) are not supported yet. */
export const TRANSFER_REASONS: Record<string, string> = {
  '01': 'Venta',
  '02': 'Compra',
  '03': 'Venta con entrega a terceros',
  '04': 'Traslado entre establecimientos de la misma empresa',
  '05': 'Consignacion',
  '06': 'Devolucion',
  '07': 'Recojo de bienes transformados',
  '13': 'Otros',
  '14': 'Venta sujeta a confirmacion del comprador',
  '17': 'Traslado de bienes para transformacion',
  '18': 'Traslado emisor itinerante CP',
  '19': 'Traslado de mercancia extranjera',
};

/** Catalog 55 properties of a line carried under a cargo manifest (motivo 19 with document 91), SUNAT's names. */
export const MANIFEST_PROPERTIES = {
  documentoTransporte: { code: '7024', name: 'Documento de transporte del Manifiesto de Carga (MC)' },
  detalle: { code: '7025', name: 'Numero de detalle del MC' },
  contenedor: { code: '7026', name: 'Contenedor del MC' },
  precinto: { code: '7027', name: 'Precinto' },
  contenedorVacio: { code: '7028', name: 'Indicador de contenedor vacio' },
} as const;

/** Where foreign goods cross (`cac:FirstArrivalPortLocation`): a port (catalog 63) or an airport (catalog 64). */
export const PORT_KINDS = {
  '1': { name: 'Puertos', catalog: '63' },
  '2': { name: 'Aeropuertos', catalog: '64' },
} as const;

/** Catalog 18. */
export const TRANSPORT_MODES = { public: '01', private: '02' } as const;

/** Catalog 61 (documents related to the transport) with the guides each may accompany. */
/** `issuer`: SUNAT needs the RUC of who issued it (3380); in a 09 it defaults to the guide's issuer. */
/** `customs`: the documents of foreign goods (motivo 19); `ownIssuerNotDefault`: the RUC is never the guide's issuer. */
export const RELATED_DOCUMENTS: Record<
  string,
  {
    name: string;
    gre09: boolean;
    gre31: boolean;
    issuer: boolean;
    pattern?: RegExp;
    customs?: boolean;
    ownIssuerNotDefault?: boolean;
  }
> = {
  '01': {
    name: 'Factura',
    gre09: true,
    gre31: true,
    issuer: true,
    pattern: /^([F][A-Z0-9]{3}|\d{1,4}|E001)-(?!0+$)\d{1,8}$/,
  },
  '03': {
    name: 'Boleta de Venta',
    gre09: true,
    gre31: true,
    issuer: true,
    pattern: /^([B][A-Z0-9]{3}|\d{1,4}|EB01)-(?!0+$)\d{1,8}$/,
  },
  '04': {
    name: 'Liquidacion de Compra',
    gre09: true,
    gre31: true,
    issuer: true,
    pattern: /^([L][A-Z0-9]{3}|\d{1,4}|E001)-(?!0+$)\d{1,8}$/,
  },
  '09': {
    name: 'Guia de Remision Remitente',
    gre09: true,
    gre31: true,
    issuer: true,
    pattern: /^([T][A-Z0-9]{3}|\d{1,4}|EG07|EG02)-(?!0+$)\d{1,8}$/,
  },
  '12': {
    name: 'Ticket o cinta emitido por maquina registradora',
    gre09: true,
    gre31: true,
    issuer: true,
    pattern: /^[a-zA-Z0-9-]{1,20}-[a-zA-Z0-9-]{1,20}$/,
  },
  '31': {
    name: 'Guia de Remision Transportista',
    gre09: false,
    gre31: true,
    issuer: false,
    pattern: /^([V][A-Z0-9]{3}|\d{1,4}|EG03)-(?!0+$)\d{1,8}$/,
  },
  '48': {
    name: 'Comprobante de Operaciones - Ley N 29972',
    gre09: true,
    gre31: true,
    issuer: true,
    pattern: /^\d{1,4}-(?!0+$)\d{1,7}$/,
  },
  '80': {
    name: 'Constancia de Deposito - Detraccion',
    gre09: true,
    gre31: true,
    issuer: false,
    pattern: /^(?!0+$)\d{1,15}$/,
  },
  // Foreign goods (motivo 19): the customs declaration (DAM) or simplified declaration (DS), the cargo manifest,
  // or the port terminal's appointment, whose RUC is the terminal's, never the guide's (3380).
  '50': {
    name: 'Declaracion Aduanera de Mercancias',
    gre09: true,
    gre31: true,
    issuer: false,
    pattern: /^\d{3}-\d{4}-\d{2}-[1-9]\d{0,5}$/,
    customs: true,
  },
  '52': {
    name: 'Declaracion Simplificada (DS)',
    gre09: true,
    gre31: false,
    issuer: false,
    pattern: /^\d{3}-\d{4}-\d{2}-[1-9]\d{0,5}$/,
    customs: true,
  },
  '91': {
    name: 'Manifiesto de carga (MC)',
    gre09: true,
    gre31: false,
    issuer: false,
    pattern: /^01-\d{3}-\d-\d{4}-[1-9]\d{0,5}$/,
    customs: true,
  },
  '92': {
    name: 'Cita/Orden Entrega Mercancias del Terminal Portuario',
    gre09: true,
    gre31: false,
    issuer: true,
    ownIssuerNotDefault: true,
    pattern: /^\d{1,50}$/,
    customs: true,
  },
};
