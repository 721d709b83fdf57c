/**
 * Small canonical UBL documents for exercising the simulator and the connectors (tests and bench:simulator).
 * Realistic enough for SUNAT's file checks: issuer RUC, type, series-number, IGV arithmetic, signature placeholder.
 */
import { dec, money } from '../../documents/decimal';
import { el, type Xml } from '../../documents/xml/canonical';

const NS = {
  'xmlns:cac': 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2',
  'xmlns:cbc': 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2',
  'xmlns:ext': 'urn:oasis:names:specification:ubl:schema:xsd:CommonExtensionComponents-2',
};

const extensions = () => el('ext:UBLExtensions', el('ext:UBLExtension', el('ext:ExtensionContent')));

function signatureBlock(ruc: string): Xml {
  return el(
    'cac:Signature',
    el('cbc:ID', 'SignatureSP'),
    el(
      'cac:SignatoryParty',
      el('cac:PartyIdentification', el('cbc:ID', ruc)),
      el('cac:PartyName', el('cbc:Name', 'EMPRESA DE PRUEBA SAC')),
    ),
    el('cac:DigitalSignatureAttachment', el('cac:ExternalReference', el('cbc:URI', '#SignatureSP'))),
  );
}

function party(ruc: string, name: string): Xml {
  return el(
    'cac:Party',
    el('cac:PartyIdentification', el('cbc:ID', { schemeID: '6' }, ruc)),
    el('cac:PartyLegalEntity', el('cbc:RegistrationName', name)),
  );
}

export interface InvoiceOptions {
  ruc: string;
  series: string;
  number: number;
  type?: '01' | '03';
  /** Taxable value; IGV is 18 % of it unless `igv` overrides it (to provoke 3291). */
  base?: string;
  igv?: string;
  /** cbc:IssueDate (default 2026-11-21). */
  issueDate?: string;
  /** The line's IGV rate (cbc:Percent, e.g. '10.50'), the IGV computed with it; absent: no line tax, IGV at 18 %. */
  rate?: string;
  /** The line's SUNAT product code (cac:CommodityClassification); absent: none. */
  productCode?: string;
}

/** `{filename, xml}` of an unsigned canonical invoice. */
export function invoice(o: InvoiceOptions): { filename: string; xml: string } {
  const type = o.type ?? '01';
  const base = dec(o.base ?? '100.00');
  const igv = o.igv ? dec(o.igv) : base.times(dec(o.rate ?? '18').div(100)).toDecimalPlaces(2);
  const total = base.plus(igv);
  const pen = { currencyID: 'PEN' };
  const id = `${o.series}-${o.number}`;
  /** The IGV total of the header, or of the line with its rate and affectation. */
  const igvTotal = (...category: Xml[]) =>
    el(
      'cac:TaxTotal',
      el('cbc:TaxAmount', pen, money(igv)),
      el(
        'cac:TaxSubtotal',
        el('cbc:TaxableAmount', pen, money(base)),
        el('cbc:TaxAmount', pen, money(igv)),
        el(
          'cac:TaxCategory',
          ...category,
          el('cac:TaxScheme', el('cbc:ID', '1000'), el('cbc:Name', 'IGV'), el('cbc:TaxTypeCode', 'VAT')),
        ),
      ),
    );
  const xml = el(
    'Invoice',
    { xmlns: 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2', ...NS },
    extensions(),
    el('cbc:UBLVersionID', '2.1'),
    el('cbc:CustomizationID', '2.0'),
    el('cbc:ID', id),
    el('cbc:IssueDate', o.issueDate ?? '2026-11-21'),
    el('cbc:InvoiceTypeCode', { listID: '0101' }, type),
    el('cbc:DocumentCurrencyCode', 'PEN'),
    signatureBlock(o.ruc),
    el('cac:AccountingSupplierParty', party(o.ruc, 'EMPRESA DE PRUEBA SAC')),
    el('cac:AccountingCustomerParty', party('20100070970', 'CLIENTE SA')),
    igvTotal(),
    el(
      'cac:LegalMonetaryTotal',
      el('cbc:LineExtensionAmount', pen, money(base)),
      el('cbc:TaxInclusiveAmount', pen, money(total)),
      el('cbc:PayableAmount', pen, money(total)),
    ),
    el(
      'cac:InvoiceLine',
      el('cbc:ID', '1'),
      el('cbc:InvoicedQuantity', { unitCode: 'NIU' }, '1'),
      el('cbc:LineExtensionAmount', pen, money(base)),
      o.rate ? igvTotal(el('cbc:Percent', o.rate), el('cbc:TaxExemptionReasonCode', '10')) : null,
      el(
        'cac:Item',
        el('cbc:Description', 'Servicio de prueba'),
        o.productCode ? el('cac:CommodityClassification', el('cbc:ItemClassificationCode', o.productCode)) : null,
      ),
      el('cac:Price', el('cbc:PriceAmount', pen, money(base))),
    ),
  ).s;
  return { filename: `${o.ruc}-${type}-${id}`, xml };
}

/** A summary-family document (RC, RA): SUNAT's UBL 2.0 header, then its lines. */
function summaryFamily(
  kind: 'RC' | 'RA',
  ruc: string,
  date: string,
  seq: number,
  lines: Xml[],
): { filename: string; xml: string } {
  const id = `${kind}-${date.replace(/-/g, '')}-${seq}`;
  const root = kind === 'RC' ? 'SummaryDocuments' : 'VoidedDocuments';
  const xml = el(
    root,
    {
      xmlns: `urn:sunat:names:specification:ubl:peru:schema:xsd:${root}-1`,
      ...NS,
      'xmlns:sac': 'urn:sunat:names:specification:ubl:peru:schema:xsd:SunatAggregateComponents-1',
    },
    extensions(),
    el('cbc:UBLVersionID', '2.0'),
    el('cbc:CustomizationID', kind === 'RC' ? '1.1' : '1.0'),
    el('cbc:ID', id),
    el('cbc:ReferenceDate', date),
    el('cbc:IssueDate', date),
    signatureBlock(ruc),
    el('cac:AccountingSupplierParty', el('cbc:CustomerAssignedAccountID', ruc), el('cbc:AdditionalAccountID', '6')),
    ...lines,
  ).s;
  return { filename: `${ruc}-${id}`, xml };
}

/** A daily summary (RC) of one receipt, UBL 2.0 as SUNAT wants it. */
export function summary(ruc: string, date: string, seq: number): { filename: string; xml: string } {
  return summaryFamily('RC', ruc, date, seq, [
    el('sac:SummaryDocumentsLine', el('cbc:LineID', '1'), el('cbc:DocumentTypeCode', '03'), el('cbc:ID', 'B001-1')),
  ]);
}

/** A voided-documents communication (RA) listing documents of type 01/07/08 by series and number. */
export function voided(
  ruc: string,
  date: string,
  seq: number,
  docs: { type: string; series: string; number: number }[],
): { filename: string; xml: string } {
  return summaryFamily(
    'RA',
    ruc,
    date,
    seq,
    docs.map((d, i) =>
      el(
        'sac:VoidedDocumentsLine',
        el('cbc:LineID', String(i + 1)),
        el('cbc:DocumentTypeCode', d.type),
        el('sac:DocumentSerialID', d.series),
        el('sac:DocumentNumberID', String(d.number)),
        el('sac:VoidReasonDescription', 'ERROR EN DATOS'),
      ),
    ),
  );
}

/** A sender's dispatch guide (09), reduced to what SUNAT's file checks read. */
export function despatch(ruc: string, series: string, number: number): { filename: string; xml: string } {
  const id = `${series}-${number}`;
  const xml = el(
    'DespatchAdvice',
    { xmlns: 'urn:oasis:names:specification:ubl:schema:xsd:DespatchAdvice-2', ...NS },
    extensions(),
    el('cbc:UBLVersionID', '2.1'),
    el('cbc:CustomizationID', '2.0'),
    el('cbc:ID', id),
    el('cbc:IssueDate', '2026-11-21'),
    el('cbc:IssueTime', '10:00:00'),
    el('cbc:DespatchAdviceTypeCode', '09'),
    signatureBlock(ruc),
    el('cac:DespatchSupplierParty', party(ruc, 'EMPRESA DE PRUEBA SAC')),
    el('cac:DeliveryCustomerParty', party('20100070970', 'CLIENTE SA')),
  ).s;
  return { filename: `${ruc}-09-${id}`, xml };
}
