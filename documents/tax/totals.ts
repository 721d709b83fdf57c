/**
 * SUNAT's arithmetic for sales documents (PROTOCOL.md §7, XSL Factura): line values rounded to 2 decimals half-up
 * before summing, ISC first and inside the IGV base, free lines outside the payable total, discounts and charges
 * that do (00/02/47/49) or do not (01/03/48/50) affect the base, prepayments (04) reducing the IGV base.
 * Linear in the number of lines; every amount is a Decimal.
 */
import { Decimal, ZERO } from '../decimal';
import type { Adjustment, SaleInput, SaleItem } from '../sales/types';
import { affectationOf, icbperRate, IGV_RATE, lineTaxRate, type Affectation, type TaxSchemeId } from './rates';

const HUNDRED = new Decimal(100);
/** Rates as factors (18 → 0.18), built once: one multiplication per line instead of a multiply and a divide. */
const FACTORS = new Map<number, Decimal>();
function factor(percent: number): Decimal {
  let f = FACTORS.get(percent);
  if (!f) FACTORS.set(percent, (f = new Decimal(percent).div(HUNDRED)));
  return f;
}

const r2 = (d: Decimal) => d.toDecimalPlaces(2);

const neg = (d: Decimal) => (d.isZero() ? d : d.neg());

/** Σ of the terms, skipping zeros: most documents have no ISC, ICBPER, discounts or prepayments to add. */
function add(...terms: Decimal[]): Decimal {
  let total = terms[0];
  for (let i = 1; i < terms.length; i++)
    if (!terms[i].isZero()) total = total.isZero() ? terms[i] : total.plus(terms[i]);
  return total;
}

function total(adjustments: Adjustment[] | undefined, code: string): Decimal {
  let t = ZERO;
  for (const a of adjustments ?? []) if (a.codigo === code) t = t.plus(a.monto);
  return t;
}

export interface LineAdjustment {
  code: string;
  charge: boolean;
  amount: Decimal;
  base: Decimal;
}

export interface LineTotals {
  item: SaleItem;
  affectation: Affectation;
  /** IGV/IVAP percent of the line (0 for exonerated, unaffected and export lines). */
  rate: number;
  /** cbc:LineExtensionAmount: quantity × unit value − discounts 00 + charges 47 (free lines: × referential value). */
  lineExtension: Decimal;
  adjustments: LineAdjustment[];
  iscBase: Decimal;
  isc: Decimal;
  /** Base of the IGV/IVAP (or of the free-transfer subtotal 9996): line value + ISC. */
  igvBase: Decimal;
  igv: Decimal;
  icbper: Decimal;
  icbperRate: Decimal;
  /** Income tax withheld (tribute 3000, liquidación de compra): percent of the line value; not among the line's taxes. */
  ir: Decimal;
  /** cac:TaxTotal/cbc:TaxAmount of the line: the taxes the customer pays on it (a free line's IGV is not among them). */
  taxAmount: Decimal;
  /** PricingReference: unit price with taxes (01) or, for free lines, the referential unit value (02). */
  referencePrice: Decimal;
  /** cac:Price/cbc:PriceAmount: unit value without taxes (0 on free lines). */
  priceAmount: Decimal;
}

export interface SubtotalTotals {
  scheme: TaxSchemeId;
  taxable: Decimal;
  amount: Decimal;
}

export interface DocumentTotals {
  lines: LineTotals[];
  gravadas: Decimal;
  ivap: Decimal;
  exoneradas: Decimal;
  inafectas: Decimal;
  exportacion: Decimal;
  gratuitas: Decimal;
  /** IGV of the free lines (informative, subtotal 9996). */
  igvGratuitas: Decimal;
  igv: Decimal;
  igvIvap: Decimal;
  isc: Decimal;
  icbper: Decimal;
  /** Income tax withheld on the lines (tribute 3000): deducted from what a 04 pays, not part of totalImpuestos. */
  ir: Decimal;
  /** Header cac:TaxTotal/cbc:TaxAmount. */
  totalImpuestos: Decimal;
  subtotals: SubtotalTotals[];
  /** Global discounts and charges as they go into cac:AllowanceCharge (with the base they apply to). */
  globalAdjustments: LineAdjustment[];
  valorVenta: Decimal;
  precioVenta: Decimal;
  descuentos: Decimal;
  cargos: Decimal;
  anticipos: Decimal;
  importeTotal: Decimal;
  /** The IGV rate of the document's taxed lines (SUNAT checks the whole document against one). */
  igvRate: number;
}

function computeLine(item: SaleItem, bagRate: Decimal): LineTotals {
  const affectation = affectationOf(item.afectacionIgv);
  const rate = lineTaxRate(item.afectacionIgv, item.porcentajeIgv);
  const gross = item.cantidad.times(item.valorUnitario);
  const adjustments: LineAdjustment[] = [];
  let lineExtension = gross;
  let outsideBase = ZERO;
  for (const d of item.descuentos ?? []) {
    adjustments.push({ code: d.codigo, charge: false, amount: d.monto, base: r2(gross) });
    if (d.codigo === '00') lineExtension = lineExtension.minus(d.monto);
    else outsideBase = outsideBase.minus(d.monto);
  }
  for (const c of item.cargos ?? []) {
    adjustments.push({ code: c.codigo, charge: true, amount: c.monto, base: r2(gross) });
    if (c.codigo === '47') lineExtension = lineExtension.plus(c.monto);
    else outsideBase = outsideBase.plus(c.monto);
  }
  lineExtension = r2(lineExtension);

  let iscBase = ZERO;
  let isc = ZERO;
  if (item.isc) {
    iscBase =
      item.isc.sistema === '03' && item.isc.precioSugerido
        ? r2(item.cantidad.times(item.isc.precioSugerido))
        : lineExtension;
    isc = r2(iscBase.times(item.isc.tasa).div(HUNDRED));
  }
  const igvBase = isc.isZero() ? lineExtension : lineExtension.plus(isc);
  const igv = rate ? r2(igvBase.times(factor(rate))) : ZERO;
  const icbper = item.icbper ? r2(bagRate.times(item.cantidad)) : ZERO;
  // SUNAT's 4294 and 2464: the base is the line value, the amount its percent (rounded to the cent).
  const ir = item.retencionRenta ? r2(lineExtension.times(item.retencionRenta.porcentaje).div(HUNDRED)) : ZERO;
  const lineTaxes = isc.isZero() ? igv : igv.plus(isc);
  const taxAmount = affectation.free ? icbper : icbper.isZero() ? lineTaxes : lineTaxes.plus(icbper);
  // SUNAT's 4287: unit price ≈ (line value + its IGV/ISC − discounts 01 + charges 48) / quantity; ICBPER stays out.
  const priceBase = outsideBase.isZero()
    ? lineExtension.plus(lineTaxes)
    : lineExtension.plus(lineTaxes).plus(outsideBase);
  const referencePrice = affectation.free ? item.valorUnitario : priceBase.div(item.cantidad).toDecimalPlaces(10);
  return {
    item,
    affectation,
    rate,
    lineExtension,
    adjustments,
    iscBase,
    isc,
    igvBase,
    igv,
    icbper,
    icbperRate: bagRate,
    ir,
    taxAmount,
    referencePrice,
    priceAmount: affectation.free ? ZERO : item.valorUnitario,
  };
}

export function computeTotals(
  doc: Pick<SaleInput, 'items' | 'descuentos' | 'cargos' | 'anticipos' | 'fechaEmision'>,
): DocumentTotals {
  const bagRate = icbperRate(doc.fechaEmision);
  const lines = doc.items.map((item) => computeLine(item, bagRate));
  const {
    buckets,
    igvLines,
    igvBaseLines,
    ivapBase,
    igvIvap,
    igvGratuitas,
    iscBase,
    isc,
    icbper,
    irBase,
    ir,
    lineAllowances,
    lineCharges,
    igvRate,
  } = sumLines(lines);

  const discountBase = total(doc.descuentos, '02');
  const discountOutside = total(doc.descuentos, '03');
  const chargeBase = total(doc.cargos, '49');
  const chargeOutside = total(doc.cargos, '50');
  const rateFactor = factor(igvRate);
  let anticipos = ZERO;
  let anticiposBase = ZERO;
  for (const a of doc.anticipos ?? []) {
    anticipos = anticipos.plus(a.monto);
    anticiposBase = anticiposBase.plus(a.baseImponible ?? r2(a.monto.div(rateFactor.plus(1))));
  }

  // Header IGV (3291): (Σ base − global discounts 02 − prepayments 04 + global charges 49) × rate. Without global
  // adjustments it is the sum of the line IGVs, so the header equals its lines to the cent.
  const adjustedBase = add(igvBaseLines, neg(discountBase), chargeBase);
  const globalsTouchBase = !discountBase.isZero() || !chargeBase.isZero() || !anticiposBase.isZero();
  const igv = globalsTouchBase ? r2(add(adjustedBase, neg(anticiposBase)).times(rateFactor)) : igvLines;
  // TaxInclusiveAmount (3279) is taken before prepayments: the prepaid part is deducted as PrepaidAmount.
  const igvBeforePrepaid = globalsTouchBase ? r2(adjustedBase.times(rateFactor)) : igvLines;

  // The 1000 subtotal's TaxableAmount is the taxed line values (ISC not included) after the global adjustments.
  const gravadas = add(buckets.gravadas, neg(discountBase), neg(anticiposBase), chargeBase);
  const valorVenta = add(
    buckets.gravadas,
    buckets.ivap,
    buckets.exoneradas,
    buckets.inafectas,
    buckets.exportacion,
    neg(discountBase),
    chargeBase,
  );
  const totalImpuestos = add(igv, igvIvap, isc, icbper);
  const precioVenta = add(valorVenta, igvBeforePrepaid, igvIvap, isc, icbper);
  const descuentos = add(lineAllowances, discountOutside);
  const cargos = add(lineCharges, chargeOutside);
  const importeTotal = add(precioVenta, neg(descuentos), cargos, neg(anticipos));

  const subtotals = headerSubtotals(lines, buckets, {
    gravadas,
    igv,
    igvIvap,
    ivapBase,
    igvGratuitas,
    iscBase,
    isc,
    icbper,
    irBase,
    ir,
  });

  const globalAdjustments = globalAdjustmentsOf(doc, buckets.gravadas, rateFactor);

  return {
    lines,
    ...buckets,
    gravadas,
    igvGratuitas,
    igv,
    igvIvap,
    isc,
    icbper,
    ir,
    totalImpuestos,
    subtotals,
    globalAdjustments,
    valorVenta,
    precioVenta,
    descuentos,
    cargos,
    anticipos,
    importeTotal,
    igvRate,
  };
}

/** The lines' values by bucket and their taxes and line-level adjustments by scheme, in one pass; the IGV rate is
 * the first taxed line's (IGV_RATE when none is taxed). */
function sumLines(lines: LineTotals[]) {
  const buckets = { gravadas: ZERO, ivap: ZERO, exoneradas: ZERO, inafectas: ZERO, exportacion: ZERO, gratuitas: ZERO };
  let igvLines = ZERO;
  let igvBaseLines = ZERO;
  let ivapBase = ZERO;
  let igvIvap = ZERO;
  let igvGratuitas = ZERO;
  let iscBase = ZERO;
  let isc = ZERO;
  let icbper = ZERO;
  let irBase = ZERO;
  let ir = ZERO;
  let lineAllowances = ZERO;
  let lineCharges = ZERO;
  let igvRate = 0;
  for (const l of lines) {
    buckets[l.affectation.bucket] = add(buckets[l.affectation.bucket], l.lineExtension);
    if (l.affectation.free) igvGratuitas = igvGratuitas.plus(l.igv);
    else if (l.affectation.scheme === '1000') {
      igvLines = igvLines.plus(l.igv);
      igvBaseLines = igvBaseLines.plus(l.igvBase);
      igvRate ||= l.rate;
    } else if (l.affectation.scheme === '1016') {
      igvIvap = igvIvap.plus(l.igv);
      ivapBase = ivapBase.plus(l.igvBase);
    }
    // Most lines carry no ISC or ICBPER: adding zeros would only cost decimal operations.
    if (!l.affectation.free && !l.isc.isZero()) {
      iscBase = iscBase.plus(l.iscBase);
      isc = isc.plus(l.isc);
    }
    if (!l.icbper.isZero()) icbper = icbper.plus(l.icbper);
    if (l.item.retencionRenta) {
      irBase = irBase.plus(l.lineExtension);
      ir = ir.plus(l.ir);
    }
    for (const a of l.adjustments) {
      if (a.code === '01') lineAllowances = lineAllowances.plus(a.amount);
      if (a.code === '48') lineCharges = lineCharges.plus(a.amount);
    }
  }
  igvRate ||= IGV_RATE;
  return {
    buckets,
    igvLines,
    igvBaseLines,
    ivapBase,
    igvIvap,
    igvGratuitas,
    iscBase,
    isc,
    icbper,
    irBase,
    ir,
    lineAllowances,
    lineCharges,
    igvRate,
  };
}

/** The header TaxSubtotals, in the order SUNAT's sheet lists them (ISC first: it sits inside the IGV base). */
function headerSubtotals(
  lines: LineTotals[],
  buckets: Record<Affectation['bucket'], Decimal>,
  sums: Record<
    'gravadas' | 'igv' | 'igvIvap' | 'ivapBase' | 'igvGratuitas' | 'iscBase' | 'isc' | 'icbper' | 'irBase' | 'ir',
    Decimal
  >,
): SubtotalTotals[] {
  const { gravadas, igv, igvIvap, ivapBase, igvGratuitas, iscBase, isc, icbper, irBase, ir } = sums;
  const subtotals: SubtotalTotals[] = [];
  if (!isc.isZero()) subtotals.push({ scheme: '2000', taxable: iscBase, amount: isc });
  if (lines.some((l) => !l.affectation.free && l.affectation.scheme === '1000'))
    subtotals.push({ scheme: '1000', taxable: gravadas, amount: igv });
  if (lines.some((l) => l.affectation.scheme === '1016'))
    subtotals.push({ scheme: '1016', taxable: ivapBase, amount: igvIvap });
  if (lines.some((l) => l.affectation.scheme === '9995'))
    subtotals.push({ scheme: '9995', taxable: buckets.exportacion, amount: ZERO });
  if (lines.some((l) => l.affectation.scheme === '9997'))
    subtotals.push({ scheme: '9997', taxable: buckets.exoneradas, amount: ZERO });
  if (lines.some((l) => l.affectation.scheme === '9998'))
    subtotals.push({ scheme: '9998', taxable: buckets.inafectas, amount: ZERO });
  if (lines.some((l) => l.affectation.free))
    subtotals.push({ scheme: '9996', taxable: buckets.gratuitas, amount: igvGratuitas });
  if (!icbper.isZero()) subtotals.push({ scheme: '7152', taxable: ZERO, amount: icbper });
  // 4346: the header 3000 subtotal is the sum of the lines' withholdings.
  if (lines.some((l) => l.item.retencionRenta)) subtotals.push({ scheme: '3000', taxable: irBase, amount: ir });
  return subtotals;
}

/** The document-level AllowanceCharges: global discounts, prepayments (04, on their taxable base), global charges. */
function globalAdjustmentsOf(
  doc: Pick<SaleInput, 'descuentos' | 'cargos' | 'anticipos'>,
  taxedBase: Decimal,
  rateFactor: Decimal,
): LineAdjustment[] {
  const globalAdjustments: LineAdjustment[] = [];
  for (const d of doc.descuentos ?? [])
    globalAdjustments.push({ code: d.codigo, charge: false, amount: d.monto, base: taxedBase });
  for (const a of doc.anticipos ?? []) {
    const base = a.baseImponible ?? r2(a.monto.div(rateFactor.plus(1)));
    globalAdjustments.push({ code: '04', charge: false, amount: base, base });
  }
  for (const c of doc.cargos ?? [])
    globalAdjustments.push({ code: c.codigo, charge: true, amount: c.monto, base: taxedBase });
  return globalAdjustments;
}
