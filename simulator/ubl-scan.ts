import { walkXml } from '../validator/xml-walk';

/** What the simulator reads from an incoming document, in one pass over its tags (validator/xml-walk.ts). */
export interface UblFacts {
  root: string;
  id: string | null;
  /** InvoiceTypeCode (01/03) or DespatchAdviceTypeCode (09/31); null for notes and summaries (implied by the root). */
  typeCode: string | null;
  issueDate: string | null;
  issueTime: string | null;
  /** A summary's or voided-documents communication's ReferenceDate: the issue date of the documents it lists. */
  referenceDate: string | null;
  supplierRuc: string | null;
  /** "<schemeID>-<id>" of the customer or recipient, as SUNAT echoes it in the CDR. */
  recipient: string | null;
  taxTotal: string | null;
  taxSubtotals: { schemeId: string | null; taxable: string | null; tax: string | null }[];
  lineExtension: string | null;
  taxInclusive: string | null;
  /** The documents a voided-documents communication (RA) lists. */
  voided: { type: string | null; series: string | null; number: string | null }[];
}

/** Paths (below the root) whose text is wanted. */
const WANTED = new Set([
  'ID',
  'InvoiceTypeCode',
  'DespatchAdviceTypeCode',
  'IssueDate',
  'IssueTime',
  'ReferenceDate',
  'VoidedDocumentsLine/DocumentTypeCode',
  'VoidedDocumentsLine/DocumentSerialID',
  'VoidedDocumentsLine/DocumentNumberID',
  'AccountingSupplierParty/Party/PartyIdentification/ID',
  'AccountingSupplierParty/CustomerAssignedAccountID',
  'DespatchSupplierParty/Party/PartyIdentification/ID',
  'DespatchSupplierParty/CustomerAssignedAccountID',
  'AgentParty/PartyIdentification/ID',
  'AccountingCustomerParty/Party/PartyIdentification/ID',
  'DeliveryCustomerParty/Party/PartyIdentification/ID',
  'TaxTotal/TaxAmount',
  'TaxTotal/TaxSubtotal/TaxableAmount',
  'TaxTotal/TaxSubtotal/TaxAmount',
  'TaxTotal/TaxSubtotal/TaxCategory/TaxScheme/ID',
  'LegalMonetaryTotal/LineExtensionAmount',
  'LegalMonetaryTotal/TaxInclusiveAmount',
  'RequestedMonetaryTotal/LineExtensionAmount',
  'RequestedMonetaryTotal/TaxInclusiveAmount',
]);

/** Facts of a UBL document; null when its tags do not balance (SUNAT: 0306, the XML cannot be parsed). */
export function scanUbl(xml: string): UblFacts | null {
  const facts: UblFacts = {
    root: '',
    id: null,
    typeCode: null,
    issueDate: null,
    issueTime: null,
    referenceDate: null,
    supplierRuc: null,
    recipient: null,
    taxTotal: null,
    taxSubtotals: [],
    lineExtension: null,
    taxInclusive: null,
    voided: [],
  };
  const balanced = walkXml(xml, {
    root: (local) => (facts.root = local),
    open: (path) => {
      if (path === 'TaxTotal/TaxSubtotal') facts.taxSubtotals.push({ schemeId: null, taxable: null, tax: null });
      if (path === 'VoidedDocumentsLine') facts.voided.push({ type: null, series: null, number: null });
    },
    wants: (path) => WANTED.has(path),
    close: (path, text, attrs) => record(facts, path, text, attrs),
  });
  return balanced ? facts : null;
}

function record(facts: UblFacts, path: string, text: string, attrs: string): void {
  const subtotal = () => facts.taxSubtotals[facts.taxSubtotals.length - 1];
  switch (path) {
    case 'ID':
      facts.id ??= text;
      break;
    case 'InvoiceTypeCode':
    case 'DespatchAdviceTypeCode':
      facts.typeCode = text;
      break;
    case 'IssueDate':
      facts.issueDate = text;
      break;
    case 'IssueTime':
      facts.issueTime = text;
      break;
    case 'ReferenceDate':
      facts.referenceDate = text;
      break;
    case 'VoidedDocumentsLine/DocumentTypeCode':
      facts.voided[facts.voided.length - 1].type = text;
      break;
    case 'VoidedDocumentsLine/DocumentSerialID':
      facts.voided[facts.voided.length - 1].series = text;
      break;
    case 'VoidedDocumentsLine/DocumentNumberID':
      facts.voided[facts.voided.length - 1].number = text;
      break;
    case 'AccountingCustomerParty/Party/PartyIdentification/ID':
    case 'DeliveryCustomerParty/Party/PartyIdentification/ID': {
      const scheme = /schemeID="([^"]*)"/.exec(attrs)?.[1];
      facts.recipient ??= scheme ? `${scheme}-${text}` : text;
      break;
    }
    case 'TaxTotal/TaxAmount':
      facts.taxTotal ??= text;
      break;
    case 'TaxTotal/TaxSubtotal/TaxableAmount':
      subtotal().taxable = text;
      break;
    case 'TaxTotal/TaxSubtotal/TaxAmount':
      subtotal().tax = text;
      break;
    case 'TaxTotal/TaxSubtotal/TaxCategory/TaxScheme/ID':
      subtotal().schemeId = text;
      break;
    case 'LegalMonetaryTotal/LineExtensionAmount':
    case 'RequestedMonetaryTotal/LineExtensionAmount':
      facts.lineExtension = text;
      break;
    case 'LegalMonetaryTotal/TaxInclusiveAmount':
    case 'RequestedMonetaryTotal/TaxInclusiveAmount':
      facts.taxInclusive = text;
      break;
    default:
      facts.supplierRuc ??= text;
  }
}
