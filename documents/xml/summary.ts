/** Resumen diario (RC): UBL 2.0 SummaryDocuments 1.1 as in SUNAT's guide; one line per boleta or note with its totals. */
import { el, type Xml } from './canonical';
import { amount, documentHead, rootNamespaces, signatureBlock } from './ubl';
import { Decimal } from '../decimal';
import type { RcInput, RcLine, RcTotals } from '../summaries/schema';
import { IGV_RATE } from '../tax/rates';
import type { Issuer } from '../input/parties';

const SUMMARY_NS = 'urn:sunat:names:specification:ubl:peru:schema:xsd:SummaryDocuments-1';

/** Catalog 11 instruction codes of sac:BillingPayment, one per paid sales bucket. */
const PAYMENT_BUCKETS = [
  ['gravadas', '01'],
  ['exoneradas', '02'],
  ['inafectas', '03'],
  ['exportacion', '04'],
] as const;

/** Free operations as summary-v2 splits them (catalog 11 06–09); before it they are one amount, 05. */
export const FREE_BUCKETS = [
  ['gratuitasGravadas', '06'],
  ['gratuitasExoneradas', '07'],
  ['gratuitasInafectas', '08'],
  ['gratuitasExportacion', '09'],
] as const;

const LINE_TAXES = [
  ['igv', '1000', 'IGV', 'VAT'],
  ['isc', '2000', 'ISC', 'EXC'],
  ['otrosTributos', '9999', 'OTROS', 'OTH'],
  ['icbper', '7152', 'ICBPER', 'OTH'],
] as const;

/** How an rc is written: `v2` from `summary-v2` (judged by the listed documents' date, fechaReferencia). */
export interface SummaryShape {
  v2: boolean;
}

/** The free operations of a line in one amount (05): `gratuitas` and any split amounts. */
export function freeTotal(t: RcTotals): Decimal {
  let total = t.gratuitas ?? new Decimal(0);
  for (const [key] of FREE_BUCKETS) if (t[key]) total = total.plus(t[key]);
  return total;
}

/** SUNAT's 4027: TotalAmount = Σ sales buckets (not free ones) + taxes + other charges. */
export function rcLineTotal(line: RcLine): Decimal {
  const t = line.totales;
  let total = new Decimal(0);
  for (const key of [
    'gravadas',
    'exoneradas',
    'inafectas',
    'exportacion',
    'igv',
    'isc',
    'icbper',
    'otrosTributos',
    'otrosCargos',
  ] as const) {
    if (t[key]) total = total.plus(t[key]);
  }
  return total;
}

/** The supplier as summaries carry it (UBL 2.0): RUC and type as account ids, then the legal name. */
export function summarySupplier(issuer: Issuer): Xml {
  return el(
    'cac:AccountingSupplierParty',
    el('cbc:CustomerAssignedAccountID', issuer.ruc),
    el('cbc:AdditionalAccountID', '6'),
    el('cac:Party', el('cac:PartyLegalEntity', el('cbc:RegistrationName', issuer.razonSocial))),
  );
}

function payment(value: Decimal | undefined, code: string, currency: string): Xml | null {
  return value && !value.isZero()
    ? el('sac:BillingPayment', amount('cbc:PaidAmount', value, currency), el('cbc:InstructionID', code))
    : null;
}

function taxTotal(
  value: Decimal,
  id: string,
  name: string,
  typeCode: string,
  currency: string,
  percent: string | null,
): Xml {
  return el(
    'cac:TaxTotal',
    amount('cbc:TaxAmount', value, currency),
    el(
      'cac:TaxSubtotal',
      amount('cbc:TaxAmount', value, currency),
      el(
        'cac:TaxCategory',
        percent ? el('cbc:Percent', percent) : null,
        el('cac:TaxScheme', el('cbc:ID', id), el('cbc:Name', name), el('cbc:TaxTypeCode', typeCode)),
      ),
    ),
  );
}

function summaryLine(line: RcLine, index: number, currency: string, shape: SummaryShape): Xml {
  const t = line.totales;
  const c = line.cliente;
  const free = freeTotal(t);
  return el(
    'sac:SummaryDocumentsLine',
    el('cbc:LineID', String(index + 1)),
    el('cbc:DocumentTypeCode', line.tipoDoc),
    el('cbc:ID', line.serieNumero),
    c
      ? el(
          'cac:AccountingCustomerParty',
          el('cbc:CustomerAssignedAccountID', c.numDoc),
          el('cbc:AdditionalAccountID', c.tipoDoc),
          shape.v2 && c.nombre
            ? el('cac:Party', el('cac:PartyLegalEntity', el('cbc:RegistrationName', c.nombre)))
            : null,
        )
      : null,
    line.documentoAfectado
      ? el(
          'cac:BillingReference',
          el(
            'cac:InvoiceDocumentReference',
            el('cbc:ID', line.documentoAfectado.serieNumero),
            el('cbc:DocumentTypeCode', line.documentoAfectado.tipoDoc),
          ),
        )
      : null,
    el('cac:Status', el('cbc:ConditionCode', line.estado)),
    amount('sac:TotalAmount', rcLineTotal(line), currency),
    PAYMENT_BUCKETS.map(([key, code]) => payment(t[key], code, currency)),
    shape.v2 ? FREE_BUCKETS.map(([key, code]) => payment(t[key], code, currency)) : payment(free, '05', currency),
    t.otrosCargos && !t.otrosCargos.isZero()
      ? el('cac:AllowanceCharge', el('cbc:ChargeIndicator', 'true'), amount('cbc:Amount', t.otrosCargos, currency))
      : null,
    LINE_TAXES.map(([key, id, name, typeCode]) => {
      const value = t[key] ?? new Decimal(0);
      // IGV is always declared (0.00 when the boleta has none), with its rate (2992, safe under every rule set);
      // the other taxes only when present.
      if (key !== 'igv' && value.isZero()) return null;
      return taxTotal(
        value,
        id,
        name,
        typeCode,
        currency,
        key === 'igv' ? (line.porcentajeIgv ?? IGV_RATE).toFixed(2) : null,
      );
    }),
    // summary-v2: the IGV of the free operations as its own tax (9996), on every line with free operations.
    shape.v2 && (!free.isZero() || t.igvGratuitas)
      ? taxTotal(t.igvGratuitas ?? new Decimal(0), '9996', 'GRA', 'FRE', currency, null)
      : null,
  );
}

export function summaryId(prefix: string, generationDate: string, sequence: string | number): string {
  return `${prefix}-${generationDate.replace(/-/g, '')}-${Number(sequence)}`;
}

export function buildSummaryXml(doc: RcInput, shape: SummaryShape): string {
  return el(
    'SummaryDocuments',
    rootNamespaces(SUMMARY_NS),
    documentHead('2.0', '1.1', summaryId('RC', doc.fechaEmision, doc.correlativo)),
    el('cbc:ReferenceDate', doc.fechaReferencia),
    el('cbc:IssueDate', doc.fechaEmision),
    signatureBlock(doc.emisor),
    summarySupplier(doc.emisor),
    doc.items.map((line, i) => summaryLine(line, i, doc.tipoMoneda, shape)),
  ).s;
}
