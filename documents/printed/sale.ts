/**
 * Invoices, receipts, credit and debit notes (and any other UBL Invoice-shaped type, e.g. the liquidación de compra)
 * read back from their signed XML into what the printed representation shows.
 */
import type { Element } from '@xmldom/xmldom';
import { Decimal, money } from '../decimal';
import { amountInWords } from '../tax/words';
import { all, at, text } from '../xml/read';
import {
  CURRENCY_LABELS,
  digestValue,
  NO_PARTY,
  formatAmount,
  formatDate,
  formatMoney,
  OPERATION_TYPES,
  readParty,
  TITLES,
} from './labels';
import type { AmountRow, Column, Fact, PrintedDocument, Section } from './model';

const ROOTS: Record<string, { docType?: string; line: string; quantity: string; total: string }> = {
  Invoice: { line: 'InvoiceLine', quantity: 'InvoicedQuantity', total: 'LegalMonetaryTotal' },
  CreditNote: { docType: '07', line: 'CreditNoteLine', quantity: 'CreditedQuantity', total: 'LegalMonetaryTotal' },
  DebitNote: { docType: '08', line: 'DebitNoteLine', quantity: 'DebitedQuantity', total: 'RequestedMonetaryTotal' },
};

export const isSaleRoot = (localName: string): boolean => localName in ROOTS;
const ROOT_LINE_OF = (root: Element): string => ROOTS[root.localName ?? '']?.line ?? 'InvoiceLine';

/** Header tax subtotals (catalog 05): the operation bucket their taxable amount is, and the tax their amount is. */
const SCHEMES: Record<string, { base?: string; tax?: string }> = {
  '1000': { base: 'Op. gravadas', tax: 'IGV' },
  '1016': { base: 'Op. gravadas IVAP', tax: 'IVAP' },
  '9995': { base: 'Op. exportación' },
  '9997': { base: 'Op. exoneradas' },
  '9998': { base: 'Op. inafectas' },
  '9996': { base: 'Op. gratuitas' },
  '2000': { tax: 'ISC' },
  '7152': { tax: 'ICBPER' },
  '9999': { tax: 'Otros tributos' },
  // Liquidación de compra: income tax the buyer withholds, deducted (not added) before the total.
  '3000': { tax: 'Renta retenida' },
};
/** Order of the amounts block: operation buckets, then discounts, then taxes. */
const BASE_ORDER = ['1000', '1016', '9995', '9997', '9998', '9996'];
const TAX_ORDER = ['2000', '1000', '1016', '7152', '9999'];
/** Catalog 53 discounts (line 00/01, global 02/03); 04/05 are prepayments, 51–53 percepción. */
const DISCOUNT_CODES = new Set(['00', '01', '02', '03']);
const PERCEPTION_CODES = new Set(['51', '52', '53']);

const COLUMNS: Column[] = [
  { header: 'Cant.', width: 0.07, align: 'right', ticket: 'detail' },
  { header: 'Unid.', width: 0.06, align: 'center', ticket: 'detail' },
  { header: 'Código', width: 0.1, align: 'left', ticket: 'hide' },
  // Unit values keep up to 10 decimals as signed: their columns are wide enough for them on one line.
  { header: 'Descripción', width: 0.37, align: 'left', ticket: 'main' },
  { header: 'V. unitario', width: 0.13, align: 'right', ticket: 'detail' },
  { header: 'P. unitario', width: 0.14, align: 'right', ticket: 'hide' },
  { header: 'Importe', width: 0.13, align: 'right', ticket: 'detail' },
];

const amountOf = (e: Element | null): string | null => text(e);

function addTo(sums: Map<string, Decimal>, key: string, value: string | null): void {
  if (value) sums.set(key, (sums.get(key) ?? new Decimal(0)).plus(value));
}

function lineRows(root: Element, names: (typeof ROOTS)[string]): string[][] {
  return all(root, `cac:${names.line}`).map((line) => {
    const quantity = at(line, `cbc:${names.quantity}`);
    // Price type 02: a free transfer, whose PricingReference holds the referential unit value (Price is 0).
    const free = text(at(line, 'cac:PricingReference', 'cac:AlternativeConditionPrice', 'cbc:PriceTypeCode')) === '02';
    const price = text(at(line, 'cac:PricingReference', 'cac:AlternativeConditionPrice', 'cbc:PriceAmount'));
    const description = all(line, 'cac:Item', 'cbc:Description').map(text).filter(Boolean).join(' ');
    return [
      text(quantity) ?? '',
      quantity?.getAttribute('unitCode') ?? '',
      // The seller's code; else the GTIN, the code the buyer can look up.
      text(at(line, 'cac:Item', 'cac:SellersItemIdentification', 'cbc:ID')) ??
        text(at(line, 'cac:Item', 'cac:StandardItemIdentification', 'cbc:ID')) ??
        '',
      free ? `${description} (transferencia gratuita)` : description,
      formatAmount((free ? price : text(at(line, 'cac:Price', 'cbc:PriceAmount'))) ?? '0.00'),
      price && !free ? formatAmount(price) : '',
      formatAmount(text(at(line, 'cbc:LineExtensionAmount')) ?? '0.00'),
    ];
  });
}

function amountRows(root: Element, totalName: string, currency: string): AmountRow[] {
  const taxTotal = at(root, 'cac:TaxTotal');
  const bases = new Map<string, string>();
  const taxes = new Map<string, string>();
  for (const subtotal of all(taxTotal, 'cac:TaxSubtotal')) {
    const scheme = text(at(subtotal, 'cac:TaxCategory', 'cac:TaxScheme', 'cbc:ID')) ?? '';
    const taxable = text(at(subtotal, 'cbc:TaxableAmount'));
    const tax = text(at(subtotal, 'cbc:TaxAmount'));
    if (SCHEMES[scheme]?.base && taxable) bases.set(scheme, taxable);
    if (SCHEMES[scheme]?.tax && tax) taxes.set(scheme, tax);
  }
  const sums = new Map<string, Decimal>();
  const allowances = [
    ...all(root, 'cac:AllowanceCharge'),
    ...all(root, `cac:${ROOT_LINE_OF(root)}`).flatMap((l) => all(l, 'cac:AllowanceCharge')),
  ];
  for (const ac of allowances) {
    const code = text(at(ac, 'cbc:AllowanceChargeReasonCode')) ?? '';
    if (text(at(ac, 'cbc:ChargeIndicator')) === 'false' && DISCOUNT_CODES.has(code))
      addTo(sums, 'discounts', amountOf(at(ac, 'cbc:Amount')));
  }
  const totals = at(root, `cac:${totalName}`);
  const rows: AmountRow[] = [];
  // Zero amounts are left out, except the IGV, which every printed invoice states.
  const push = (label: string, value: string | null | undefined, always = false) => {
    if (always || (value && !new Decimal(value).isZero()))
      rows.push({ label, value: formatMoney(currency, value ?? '0.00') });
  };
  for (const scheme of BASE_ORDER) push(SCHEMES[scheme].base!, bases.get(scheme));
  if (sums.has('discounts')) push('Descuentos', money(sums.get('discounts')!));
  push('Valor de venta', text(at(totals, 'cbc:LineExtensionAmount')));
  const rate = percentOf(root, '1000');
  for (const scheme of TAX_ORDER) {
    const label = scheme === '1000' && rate ? `IGV ${rate} %` : SCHEMES[scheme].tax!;
    push(label, taxes.get(scheme), scheme === '1000' && !taxes.has('1016'));
  }
  push('Otros cargos', text(at(totals, 'cbc:ChargeTotalAmount')));
  push('Anticipos', text(at(totals, 'cbc:PrepaidAmount')));
  push('Renta retenida', taxes.get('3000'));
  const payable = text(at(totals, 'cbc:PayableAmount')) ?? '0.00';
  rows.push({ label: 'Importe total', value: formatMoney(currency, payable), strong: true });
  return rows;
}

/** The IGV (or other tax) rate the lines carry, `18` from `18.00`, for the label. */
function percentOf(root: Element, scheme: string): string | null {
  for (const line of all(root, `cac:${ROOT_LINE_OF(root)}`)) {
    for (const subtotal of all(line, 'cac:TaxTotal', 'cac:TaxSubtotal')) {
      if (text(at(subtotal, 'cac:TaxCategory', 'cac:TaxScheme', 'cbc:ID')) === scheme) {
        const percent = text(at(subtotal, 'cac:TaxCategory', 'cbc:Percent'));
        if (percent) return new Decimal(percent).toFixed();
      }
    }
  }
  return null;
}

function paymentSections(root: Element, currency: string): Section[] {
  const sections: Section[] = [];
  const terms = all(root, 'cac:PaymentTerms');
  const form = terms.filter((t) => text(at(t, 'cbc:ID')) === 'FormaPago');
  const credit = form.find((t) => text(at(t, 'cbc:PaymentMeansID')) === 'Credito');
  if (credit) {
    const instalments = form.filter((t) => /^Cuota\d+$/.test(text(at(t, 'cbc:PaymentMeansID')) ?? ''));
    sections.push({
      title: 'Forma de pago: Crédito',
      facts: [
        {
          label: 'Monto neto pendiente de pago',
          value: formatMoney(currency, text(at(credit, 'cbc:Amount')) ?? '0.00'),
        },
        { label: 'Total de cuotas', value: String(instalments.length) },
        ...instalments.map((t, i) => ({
          label: `Cuota ${i + 1}`,
          value: `${formatMoney(currency, text(at(t, 'cbc:Amount')) ?? '0.00')}, vence ${formatDate(text(at(t, 'cbc:PaymentDueDate')) ?? '')}`,
        })),
      ],
    });
  }
  const detraction = terms.find((t) => text(at(t, 'cbc:ID')) === 'Detraccion');
  if (detraction) {
    const means = all(root, 'cac:PaymentMeans').find((m) => text(at(m, 'cbc:ID')) === 'Detraccion') ?? null;
    sections.push({
      title: 'Operación sujeta al Sistema de Pago de Obligaciones Tributarias (detracción)',
      facts: [
        { label: 'Bien o servicio (catálogo 54)', value: text(at(detraction, 'cbc:PaymentMeansID')) ?? '' },
        { label: 'Porcentaje', value: `${new Decimal(text(at(detraction, 'cbc:PaymentPercent')) ?? '0').toFixed()} %` },
        { label: 'Monto de la detracción', value: formatMoney('PEN', text(at(detraction, 'cbc:Amount')) ?? '0.00') },
        {
          label: 'Cuenta en el Banco de la Nación',
          value: text(at(means, 'cac:PayeeFinancialAccount', 'cbc:ID')) ?? '',
        },
        { label: 'Medio de pago (catálogo 59)', value: text(at(means, 'cbc:PaymentMeansCode')) ?? '' },
      ],
    });
  }
  const perception = all(root, 'cac:AllowanceCharge').find((ac) =>
    PERCEPTION_CODES.has(text(at(ac, 'cbc:AllowanceChargeReasonCode')) ?? ''),
  );
  if (perception) {
    const withPerception = terms.find((t) => text(at(t, 'cbc:ID')) === 'Percepcion');
    sections.push({
      title: 'Operación sujeta a percepción',
      facts: [
        { label: 'Régimen (catálogo 53)', value: text(at(perception, 'cbc:AllowanceChargeReasonCode')) ?? '' },
        { label: 'Base imponible', value: formatMoney('PEN', text(at(perception, 'cbc:BaseAmount')) ?? '0.00') },
        { label: 'Monto de la percepción', value: formatMoney('PEN', text(at(perception, 'cbc:Amount')) ?? '0.00') },
        ...(withPerception
          ? [
              {
                label: 'Total incluida la percepción',
                value: formatMoney('PEN', text(at(withPerception, 'cbc:Amount')) ?? '0.00'),
              },
            ]
          : []),
      ],
    });
  }
  return sections;
}

function referenceSections(root: Element, currency: string): Section[] {
  const sections: Section[] = [];
  const billing = all(root, 'cac:BillingReference').map((b) => at(b, 'cac:InvoiceDocumentReference'));
  const discrepancy = at(root, 'cac:DiscrepancyResponse');
  if (billing.length || discrepancy) {
    sections.push({
      title: 'Documento que modifica',
      facts: [
        ...billing.map((ref) => ({
          label: TITLES[text(at(ref, 'cbc:DocumentTypeCode')) ?? '']?.title ?? 'Documento',
          value: text(at(ref, 'cbc:ID')) ?? '',
        })),
        ...(discrepancy
          ? [
              {
                label: 'Motivo',
                value:
                  `${text(at(discrepancy, 'cbc:ResponseCode')) ?? ''} ${text(at(discrepancy, 'cbc:Description')) ?? ''}`.trim(),
              },
            ]
          : []),
      ],
    });
  }
  const prepaid = all(root, 'cac:PrepaidPayment');
  if (prepaid.length) {
    const documents = all(root, 'cac:AdditionalDocumentReference');
    sections.push({
      title: 'Anticipos',
      facts: prepaid.map((p) => {
        const id = text(at(p, 'cbc:ID'));
        const doc = documents.find((d) => text(at(d, 'cbc:DocumentStatusCode')) === id);
        return {
          label: doc ? (text(at(doc, 'cbc:ID')) ?? `Anticipo ${id}`) : `Anticipo ${id}`,
          value: formatMoney(currency, text(at(p, 'cbc:PaidAmount')) ?? '0.00'),
        };
      }),
    });
  }
  return sections;
}

function facts(root: Element, currency: string): Fact[] {
  const out: Fact[] = [{ label: 'Fecha de emisión', value: formatDate(text(at(root, 'cbc:IssueDate')) ?? '') }];
  const time = text(at(root, 'cbc:IssueTime'));
  if (time) out.push({ label: 'Hora de emisión', value: time });
  const due = text(at(root, 'cbc:DueDate'));
  if (due) out.push({ label: 'Fecha de vencimiento', value: formatDate(due) });
  out.push({ label: 'Moneda', value: CURRENCY_LABELS[currency] ?? currency });
  const operation = at(root, 'cbc:InvoiceTypeCode')?.getAttribute('listID');
  if (operation)
    out.push({ label: 'Tipo de operación', value: `${operation} ${OPERATION_TYPES[operation] ?? ''}`.trim() });
  const form = all(root, 'cac:PaymentTerms').find((t) => text(at(t, 'cbc:ID')) === 'FormaPago');
  if (form)
    out.push({
      label: 'Forma de pago',
      value: text(at(form, 'cbc:PaymentMeansID')) === 'Credito' ? 'Crédito' : 'Contado',
    });
  const order = text(at(root, 'cac:OrderReference', 'cbc:ID'));
  if (order) out.push({ label: 'Orden de compra', value: order });
  const guides = all(root, 'cac:DespatchDocumentReference')
    .map((g) => text(at(g, 'cbc:ID')))
    .filter(Boolean);
  if (guides.length) out.push({ label: 'Guías de remisión', value: guides.join(', ') });
  return out;
}

/** SUNAT's QR content: `RUC|TIPO|SERIE|NUMERO|IGV|TOTAL|FECHA|TIPO DOC ADQ|NUM DOC ADQ|HASH|`. */
export function saleQrContent(parts: {
  ruc: string;
  docType: string;
  id: string;
  igv: string;
  total: string;
  issueDate: string;
  customerType: string;
  customerNumber: string;
  hash: string;
}): string {
  const [series, number] = parts.id.split('-');
  return [
    parts.ruc,
    parts.docType,
    series,
    number,
    parts.igv,
    parts.total,
    parts.issueDate,
    parts.customerType,
    parts.customerNumber,
    parts.hash,
    '',
  ].join('|');
}

export function readSale(root: Element): PrintedDocument {
  const names = ROOTS[root.localName ?? ''];
  const docType = names.docType ?? text(at(root, 'cbc:InvoiceTypeCode')) ?? '';
  const currency = text(at(root, 'cbc:DocumentCurrencyCode')) ?? 'PEN';
  const id = text(at(root, 'cbc:ID')) ?? '';
  const issueDate = text(at(root, 'cbc:IssueDate')) ?? '';
  // A liquidación de compra (04) is issued by the buyer: the company is its customer party, the seller its supplier.
  const purchase = docType === '04';
  const [issuerParty, otherParty] = purchase
    ? ['cac:AccountingCustomerParty', 'cac:AccountingSupplierParty']
    : ['cac:AccountingSupplierParty', 'cac:AccountingCustomerParty'];
  const issuer = readParty(at(root, issuerParty, 'cac:Party')) ?? NO_PARTY;
  const customer = readParty(at(root, otherParty, 'cac:Party'));
  const notes = all(root, 'cbc:Note');
  const legend = (code: string) => notes.find((n) => n.getAttribute('languageLocaleID') === code);
  const totals = at(root, `cac:${names.total}`);
  const payable = text(at(totals, 'cbc:PayableAmount')) ?? '0.00';
  const igv = all(at(root, 'cac:TaxTotal'), 'cac:TaxSubtotal').find(
    (s) => text(at(s, 'cac:TaxCategory', 'cac:TaxScheme', 'cbc:ID')) === '1000',
  );
  const hash = digestValue(root);
  const customerId = at(root, otherParty, 'cac:Party', 'cac:PartyIdentification', 'cbc:ID');
  return {
    docType,
    ...(TITLES[docType] ?? {
      title: `DOCUMENTO ${docType}`,
      heading: `REPRESENTACIÓN IMPRESA DEL DOCUMENTO ELECTRÓNICO ${docType}`,
    }),
    id,
    issuer,
    counterpart: customer ? { label: purchase ? 'Vendedor' : 'Cliente', party: customer } : null,
    facts: facts(root, currency),
    table: { columns: COLUMNS, rows: lineRows(root, names) },
    amounts: amountRows(root, names.total, currency),
    // Legend 1000 as signed; a document signed elsewhere without it gets the one amount-in-words chasqui writes.
    amountInWords: text(legend('1000') ?? null) ?? amountInWords(new Decimal(payable), currency),
    legends: notes
      .filter((n) => n.getAttribute('languageLocaleID') !== '1000')
      .map((n) => text(n))
      .filter((t): t is string => !!t),
    sections: [...referenceSections(root, currency), ...paymentSections(root, currency)],
    hash,
    qr: {
      kind: 'content',
      text: saleQrContent({
        ruc: issuer.idNumber ?? '',
        docType,
        id,
        igv: text(at(igv ?? null, 'cbc:TaxAmount')) ?? '0.00',
        total: payable,
        issueDate,
        customerType: customerId?.getAttribute('schemeID') ?? '',
        customerNumber: text(customerId) ?? '',
        hash,
      }),
    },
    issueDate,
  };
}
