/**
 * XML of the catalog 51 operations with data of their own (documents/sales/operations.ts): percepción, catalog 55 item
 * properties, the freight of detracción 1004 and the payment of a rail ticket (0302). Written as SUNAT's guides and
 * XSL expect them; only canonical.ts is imported so ubl.ts can use these pieces without an import cycle.
 */
import { el, frag, preAttrs, type Xml } from './canonical';
import { money, unitValue } from '../decimal';
import { ITEM_PROPERTIES } from '../catalogs/item-properties';
import type { Perception } from '../sales/operations';
import type { ItemProperty, Freight, FreightPlace, RailService } from '../sales/types';

const PEN = preAttrs({ currencyID: 'PEN' });
const PROPERTY_ATTRS = preAttrs({
  listAgencyName: 'PE:SUNAT',
  listName: 'Propiedad del item',
  listURI: 'urn:pe:gob:sunat:cpe:see:gem:catalogos:catalogo55',
});
const TONNES = preAttrs({ unitCode: 'TNE' });
const DAYS = preAttrs({ unitCode: 'DAY' });
const UBIGEO_ATTRS = preAttrs({ schemeAgencyName: 'PE:INEI', schemeName: 'Ubigeos' });
const REASON_ATTRS = preAttrs({
  listAgencyName: 'PE:SUNAT',
  listName: 'Cargo/descuento',
  listURI: 'urn:pe:gob:sunat:cpe:see:gem:catalogos:catalogo53',
});
const MEANS_ATTRS = preAttrs({
  listAgencyName: 'PE:SUNAT',
  listName: 'Medio de pago',
  listURI: 'urn:pe:gob:sunat:cpe:see:gem:catalogos:catalogo59',
});

const soles = (name: string, value: Parameters<typeof money>[0]) => el(name, PEN, money(value));

/** `cac:AdditionalItemProperty` per property: the value as text, tonnes, or dates/time/days in a UsabilityPeriod. */
export function itemProperties(props: readonly ItemProperty[] | undefined): Xml | null {
  if (!props?.length) return null;
  return frag(
    props.map((p) => {
      const period = p.fecha || p.fechaFin || p.hora || p.dias !== undefined;
      return el(
        'cac:AdditionalItemProperty',
        el('cbc:Name', ITEM_PROPERTIES[p.codigo]),
        el('cbc:NameCode', PROPERTY_ATTRS, p.codigo),
        p.valor ? el('cbc:Value', p.valor) : null,
        p.cantidad ? el('cbc:ValueQuantity', p.codigo === '3006' ? TONNES : null, unitValue(p.cantidad, 2)) : null,
        period
          ? el(
              'cac:UsabilityPeriod',
              p.fecha ? el('cbc:StartDate', p.fecha) : null,
              p.hora ? el('cbc:StartTime', p.hora) : null,
              p.fechaFin ? el('cbc:EndDate', p.fechaFin) : null,
              p.dias !== undefined ? el('cbc:DurationMeasure', DAYS, String(p.dias)) : null,
            )
          : null,
      );
    }),
  );
}

function address(p: FreightPlace): Xml {
  return el('cac:Address', el('cbc:ID', UBIGEO_ATTRS, p.ubigeo), el('cac:AddressLine', el('cbc:Line', p.direccion)));
}

/** Detracción 1004, per line: destination, origin and trip, and the three reference values (in soles). */
export function freightDelivery(f: Freight | undefined): Xml | null {
  if (!f) return null;
  const terms = (id: string, value: Freight['valorReferencialServicio']) =>
    el('cac:DeliveryTerms', el('cbc:ID', id), soles('cbc:Amount', value));
  return el(
    'cac:Delivery',
    el('cac:DeliveryLocation', address(f.destino)),
    el(
      'cac:Despatch',
      el('cbc:Instructions', f.detalle),
      el(
        'cac:DespatchAddress',
        el('cbc:ID', UBIGEO_ATTRS, f.origen.ubigeo),
        el('cac:AddressLine', el('cbc:Line', f.origen.direccion)),
      ),
    ),
    terms('01', f.valorReferencialServicio),
    terms('02', f.valorReferencialCargaEfectiva),
    terms('03', f.valorReferencialCargaUtil),
  );
}

/**
 * Percepción: the total with it (`cac:PaymentTerms` Percepcion) and the charge of catalog 53. The rate goes as a factor
 * (0.02): the Factura and Boleta XSL check Amount = BaseAmount × MultiplierFactorNumeric.
 */
export function perceptionTerms(p: Perception | null): Xml | null {
  return p ? el('cac:PaymentTerms', el('cbc:ID', 'Percepcion'), soles('cbc:Amount', p.total)) : null;
}

export function perceptionCharge(p: Perception | null): Xml | null {
  if (!p) return null;
  return el(
    'cac:AllowanceCharge',
    el('cbc:ChargeIndicator', 'true'),
    el('cbc:AllowanceChargeReasonCode', REASON_ATTRS, p.code),
    el('cbc:MultiplierFactorNumeric', unitValue(p.percent.div(100), 5)),
    soles('cbc:Amount', p.amount),
    soles('cbc:BaseAmount', p.base),
  );
}

/** Operation 0302: how the rail service was paid. */
export function railPaymentMeans(r: RailService | undefined): Xml | null {
  return r
    ? el('cac:PaymentMeans', el('cbc:PaymentMeansCode', MEANS_ATTRS, r.medioPago), el('cbc:PaymentID', r.idPago))
    : null;
}
