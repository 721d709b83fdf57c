/**
 * What a daily summary (rc) or a comunicación de baja (ra) needs to know about a document chasqui already signed,
 * read back from its stored XML: the signed XML is the truth that was reported, so the summary repeats exactly its
 * customer, totals, taxes, currency and, for notes, the referenced document. No I/O: XML text in, payload out; the
 * payloads then go through `prepareDocument` like any integrator's rc or ra.
 */
import type { Element } from '@xmldom/xmldom';
import { all, at, CAC, children, parseRoot, text } from '../xml/read';
import { Decimal, money } from '../decimal';
import { IDENTITY_DOC_TYPES } from '../input/parties';

/** Header tax subtotals (catalog 05) → the rc line bucket their taxable amount and their tax amount go to. */
const SCHEMES: Record<string, { base?: RcBucket; tax?: RcBucket }> = {
  '1000': { base: 'gravadas', tax: 'igv' },
  // IVAP is reported like IGV: the rc line has no bucket of its own for it.
  '1016': { base: 'gravadas', tax: 'igv' },
  '9997': { base: 'exoneradas' },
  '9998': { base: 'inafectas' },
  '9995': { base: 'exportacion' },
  // Free operations (9996) are read per line, by kind (freeBucketOf).
  '2000': { tax: 'isc' },
  '7152': { tax: 'icbper' },
  '9999': { tax: 'otrosTributos' },
};

type RcBucket =
  | 'gravadas'
  | 'exoneradas'
  | 'inafectas'
  | 'exportacion'
  | 'igv'
  | 'isc'
  | 'icbper'
  | 'otrosTributos'
  | 'otrosCargos'
  | 'gratuitasGravadas'
  | 'gratuitasExoneradas'
  | 'gratuitasInafectas'
  | 'gratuitasExportacion'
  | 'igvGratuitas';

/** A free line's kind by its catalog 07 code, as summary-v2 reports it (catalog 11 06–09; the rc folds them into 05 before). */
function freeBucketOf(affectation: string): RcBucket {
  const n = Number(affectation);
  if (n >= 11 && n <= 16) return 'gratuitasGravadas';
  if (n === 21) return 'gratuitasExoneradas';
  return n === 40 ? 'gratuitasExportacion' : 'gratuitasInafectas';
}

const LINE_NAMES = ['InvoiceLine', 'CreditNoteLine', 'DebitNoteLine'];

export interface SignedSale {
  docType: '01' | '03' | '07' | '08';
  /** `B001-12` as signed. */
  serieNumero: string;
  issueDate: string;
  currency: string;
  issuer: { ruc: string; razonSocial: string };
  customer: { tipoDoc: string; numDoc: string; nombre?: string } | null;
  /** The IGV (or IVAP) rate of its taxed lines, `18` from `18.00`; null when no line is taxed. */
  igvRate: number | null;
  /** Notes: the document they modify. */
  reference: { tipoDoc: string; serieNumero: string } | null;
  /** Two-decimal strings per rc bucket, only the non-zero ones. */
  totals: Partial<Record<RcBucket, string>>;
}

function required(e: Element | null, what: string): string {
  const value = text(e);
  if (value === null) throw new Error(`signed document has no ${what}`);
  return value;
}

const DOC_TYPES: Record<string, SignedSale['docType'] | undefined> = { CreditNote: '07', DebitNote: '08' };

/** Reads a signed invoice, receipt or note (UBL 2.1 as chasqui builds it). Throws on anything else: a stored document is trusted input. */
export function readSignedSale(xml: string): SignedSale {
  const root = parseRoot(xml);
  const docType =
    root.localName === 'Invoice'
      ? (text(at(root, 'cbc:InvoiceTypeCode')) as SignedSale['docType'])
      : DOC_TYPES[root.localName ?? ''];
  if (docType !== '01' && docType !== '03' && docType !== '07' && docType !== '08')
    throw new Error(`not an invoice, receipt or note: ${root.localName}`);

  const supplier = at(root, 'cac:AccountingSupplierParty', 'cac:Party');
  const customerId = at(root, 'cac:AccountingCustomerParty', 'cac:Party', 'cac:PartyIdentification', 'cbc:ID');
  const customerType = customerId?.getAttribute('schemeID') ?? '';
  const customerNumber = text(customerId) ?? '';
  const customerName = text(
    at(root, 'cac:AccountingCustomerParty', 'cac:Party', 'cac:PartyLegalEntity', 'cbc:RegistrationName'),
  );
  const reference = at(root, 'cac:BillingReference', 'cac:InvoiceDocumentReference');

  const sums = new Map<RcBucket, Decimal>();
  const add = (bucket: RcBucket | undefined, value: string | null) => {
    if (bucket && value) sums.set(bucket, (sums.get(bucket) ?? new Decimal(0)).plus(value));
  };
  for (const subtotal of children(at(root, 'cac:TaxTotal') ?? root, CAC, 'TaxSubtotal')) {
    const scheme = SCHEMES[text(at(subtotal, 'cac:TaxCategory', 'cac:TaxScheme', 'cbc:ID')) ?? ''];
    add(scheme?.base, text(at(subtotal, 'cbc:TaxableAmount')));
    add(scheme?.tax, text(at(subtotal, 'cbc:TaxAmount')));
  }
  let igvRate: number | null = null;
  for (const line of LINE_NAMES.flatMap((name) => children(root, CAC, name))) {
    for (const subtotal of all(at(line, 'cac:TaxTotal'), 'cac:TaxSubtotal')) {
      const scheme = text(at(subtotal, 'cac:TaxCategory', 'cac:TaxScheme', 'cbc:ID'));
      const percent = text(at(subtotal, 'cac:TaxCategory', 'cbc:Percent'));
      if ((scheme === '1000' || scheme === '1016') && igvRate === null && percent) igvRate = Number(percent);
      if (scheme !== '9996') continue;
      add(
        freeBucketOf(text(at(subtotal, 'cac:TaxCategory', 'cbc:TaxExemptionReasonCode')) ?? ''),
        text(at(subtotal, 'cbc:TaxableAmount')),
      );
      add('igvGratuitas', text(at(subtotal, 'cbc:TaxAmount')));
    }
  }
  // Charges that are not part of the taxable base (catalog 53: 49/50…) are the rc line's "otros cargos".
  add(
    'otrosCargos',
    text(at(root, docType === '08' ? 'cac:RequestedMonetaryTotal' : 'cac:LegalMonetaryTotal', 'cbc:ChargeTotalAmount')),
  );

  const totals: SignedSale['totals'] = {};
  for (const [bucket, value] of sums) if (!value.isZero()) totals[bucket] = money(value);
  return {
    docType,
    serieNumero: required(at(root, 'cbc:ID'), 'cbc:ID'),
    issueDate: required(at(root, 'cbc:IssueDate'), 'cbc:IssueDate'),
    currency: required(at(root, 'cbc:DocumentCurrencyCode'), 'cbc:DocumentCurrencyCode'),
    issuer: {
      ruc: required(at(supplier, 'cac:PartyIdentification', 'cbc:ID'), 'supplier RUC'),
      razonSocial: required(at(supplier, 'cac:PartyLegalEntity', 'cbc:RegistrationName'), 'supplier name'),
    },
    customer:
      (IDENTITY_DOC_TYPES as readonly string[]).includes(customerType) && /^[A-Za-z0-9-]{1,15}$/.test(customerNumber)
        ? { tipoDoc: customerType, numDoc: customerNumber, ...(customerName ? { nombre: customerName } : {}) }
        : null,
    igvRate,
    reference: reference
      ? {
          tipoDoc: required(at(reference, 'cbc:DocumentTypeCode'), 'reference type'),
          serieNumero: required(at(reference, 'cbc:ID'), 'reference id'),
        }
      : null,
    totals,
  };
}

/** Catalog 19 condition codes chasqui generates: 1 add, 3 void. */
export type ConditionCode = '1' | '3';

export interface SummaryHeader {
  correlativo: number;
  /** Generation date (today in Lima). */
  fechaEmision: string;
  /** Issue date of the listed documents. */
  fechaReferencia: string;
  issuer: { ruc: string; razonSocial: string };
}

/** The `POST /v1/cpe` rc payload listing these receipts and notes (all of one issue date and one currency). */
export function receiptSummaryPayload(
  header: SummaryHeader,
  currency: string,
  lines: { sale: SignedSale; condition: ConditionCode }[],
) {
  return {
    tipoDoc: 'rc',
    correlativo: header.correlativo,
    fechaEmision: header.fechaEmision,
    fechaReferencia: header.fechaReferencia,
    emisor: header.issuer,
    tipoMoneda: currency,
    items: lines.map(({ sale, condition }) => ({
      tipoDoc: sale.docType,
      serieNumero: sale.serieNumero,
      estado: condition,
      ...(sale.customer ? { cliente: sale.customer } : {}),
      ...(sale.igvRate !== null ? { porcentajeIgv: sale.igvRate } : {}),
      ...(sale.docType !== '03' && sale.reference ? { documentoAfectado: sale.reference } : {}),
      totales: sale.totals,
    })),
  };
}

/** The `POST /v1/cpe` ra payload voiding these invoices or F-series notes (all of one issue date). */
export function voidedPayload(header: SummaryHeader, lines: { sale: SignedSale; reason: string }[]) {
  return {
    tipoDoc: 'ra',
    correlativo: header.correlativo,
    fechaEmision: header.fechaEmision,
    fechaReferencia: header.fechaReferencia,
    emisor: header.issuer,
    items: lines.map(({ sale, reason }) => ({ tipoDoc: sale.docType, serieNumero: sale.serieNumero, motivo: reason })),
  };
}
