/** Resumen diario (RC): UBL 2.0 SummaryDocuments 1.1 as in SUNAT's guide; one line per boleta or note with its totals. */
import { el, type Xml } from './canonical';
import { amount, documentHead, rootNamespaces, signatureBlock } from './ubl';
import { Decimal } from '../decimal';
import type { RcInput, RcLine } from '../summaries/schema';
import type { Issuer } from '../input/parties';

const SUMMARY_NS = 'urn:sunat:names:specification:ubl:peru:schema:xsd:SummaryDocuments-1';

/** Catalog 11 instruction codes of sac:BillingPayment, one per sales bucket. */
const PAYMENT_BUCKETS = [
  ['gravadas', '01'],
  ['exoneradas', '02'],
  ['inafectas', '03'],
  ['exportacion', '04'],
  ['gratuitas', '05'],
] as const;

const LINE_TAXES = [
  ['igv', '1000', 'IGV', 'VAT'],
  ['isc', '2000', 'ISC', 'EXC'],
  ['otrosTributos', '9999', 'OTROS', 'OTH'],
  ['icbper', '7152', 'ICBPER', 'OTH'],
] as const;

/** SUNAT's 4027: TotalAmount = Σ sales buckets (not free ones) + taxes + other charges. */
export function rcLineTotal(line: RcLine): Decimal {
  const t = line.totales;
  let total = new Decimal(0);
  for (const key of ['gravadas', 'exoneradas', 'inafectas', 'exportacion', 'igv', 'isc', 'icbper', 'otrosTributos', 'otrosCargos'] as const) {
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

function summaryLine(line: RcLine, index: number, currency: string): Xml {
  const t = line.totales;
  const c = line.cliente;
  return el(
    'sac:SummaryDocumentsLine',
    el('cbc:LineID', String(index + 1)),
    el('cbc:DocumentTypeCode', line.tipoDoc),
    el('cbc:ID', line.serieNumero),
    c ? el('cac:AccountingCustomerParty', el('cbc:CustomerAssignedAccountID', c.numDoc), el('cbc:AdditionalAccountID', c.tipoDoc)) : null,
    line.documentoAfectado
      ? el('cac:BillingReference', el('cac:InvoiceDocumentReference', el('cbc:ID', line.documentoAfectado.serieNumero), el('cbc:DocumentTypeCode', line.documentoAfectado.tipoDoc)))
      : null,
    el('cac:Status', el('cbc:ConditionCode', line.estado)),
    amount('sac:TotalAmount', rcLineTotal(line), currency),
    PAYMENT_BUCKETS.map(([key, code]) =>
      t[key] && !t[key].isZero() ? el('sac:BillingPayment', amount('cbc:PaidAmount', t[key], currency), el('cbc:InstructionID', code)) : null,
    ),
    t.otrosCargos && !t.otrosCargos.isZero()
      ? el('cac:AllowanceCharge', el('cbc:ChargeIndicator', 'true'), amount('cbc:Amount', t.otrosCargos, currency))
      : null,
    LINE_TAXES.map(([key, id, name, typeCode]) => {
      const value = t[key] ?? new Decimal(0);
      // IGV is always declared (0.00 when the boleta has none); the other taxes only when present.
      if (key !== 'igv' && value.isZero()) return null;
      return el(
        'cac:TaxTotal',
        amount('cbc:TaxAmount', value, currency),
        el('cac:TaxSubtotal', amount('cbc:TaxAmount', value, currency), el('cac:TaxCategory', el('cac:TaxScheme', el('cbc:ID', id), el('cbc:Name', name), el('cbc:TaxTypeCode', typeCode)))),
      );
    }),
  );
}

export function summaryId(prefix: string, generationDate: string, sequence: string | number): string {
  return `${prefix}-${generationDate.replace(/-/g, '')}-${Number(sequence)}`;
}

export function buildSummaryXml(doc: RcInput): string {
  return el(
    'SummaryDocuments',
    rootNamespaces(SUMMARY_NS),
    documentHead('2.0', '1.1', summaryId('RC', doc.fechaEmision, doc.correlativo)),
    el('cbc:ReferenceDate', doc.fechaReferencia),
    el('cbc:IssueDate', doc.fechaEmision),
    signatureBlock(doc.emisor),
    summarySupplier(doc.emisor),
    doc.items.map((line, i) => summaryLine(line, i, doc.tipoMoneda)),
  ).s;
}
