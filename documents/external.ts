/**
 * Documents an issuer signs itself (company signing `external`): chasqui never re-signs them, it only reads what it
 * must store and route (type, series, number, file name, the total `/consulta` compares) and refuses what it cannot
 * send: XML past the bounds, malformed or without a valid signature, another issuer's RUC, more lines than the same
 * document in JSON may have, an issue date that is no calendar date. Pure and synchronous: no database, no network.
 */
import { DOMParser } from '@xmldom/xmldom';
import { Decimal, money } from './decimal';
import { DocumentValidationError, issue } from './errors';
import { verifyXmlSignature } from './signing/verify';
import { declaresDtd, DTD_REFUSED } from './xml/dtd';
import { parseRoot } from './xml/read';
import { UPLOAD_BOUNDS, xmlBoundsProblem } from './xml/bounds';
import { isCalendarDate } from './calendar';
import { linesProblem } from './line-bounds';
import type { DocType, PreparedDocument } from './types';

const CBC = 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2';

/** What the service stores of any document (as `prepareDocument` gives it) plus the signature's digest, the `hash` of spec 2.4. */
export type ExternalDocument = PreparedDocument & { hash: string };

const SALE_ID = /^([A-Z0-9]{4})-(\d{1,8})$/;
const SUMMARY_ID = /^(R[CAR]-\d{8})-(\d{1,5})$/;

function childText(parent: Element, localName: string): string | null {
  for (let node = parent.firstChild; node; node = node.nextSibling) {
    if (node.nodeType === 1 && (node as Element).localName === localName && (node as Element).namespaceURI === CBC) {
      return (node.textContent ?? '').trim();
    }
  }
  return null;
}

function childElement(parent: Element, localName: string): Element | null {
  for (let node = parent.firstChild; node; node = node.nextSibling) {
    if (node.nodeType === 1 && (node as Element).localName === localName) return node as Element;
  }
  return null;
}

/**
 * The issuer RUC: `PartyIdentification/ID` (UBL 2.1) or `CustomerAssignedAccountID` (UBL 2.0 summaries) of the
 * supplier; of the customer in a liquidación de compra (04), whose issuer buys; of the AgentParty in a 20 or 40.
 */
function issuerRuc(root: Element, docType: DocType): string | null {
  const issuerParty =
    docType === '04' ? 'AccountingCustomerParty' : docType === '20' || docType === '40' ? 'AgentParty' : null;
  const supplier = issuerParty
    ? childElement(root, issuerParty)
    : (childElement(root, 'AccountingSupplierParty') ?? childElement(root, 'DespatchSupplierParty'));
  if (!supplier) return null;
  const assigned = childText(supplier, 'CustomerAssignedAccountID');
  if (assigned) return assigned;
  const identification = supplier.getElementsByTagNameNS('*', 'PartyIdentification')[0];
  return identification ? childText(identification, 'ID') : null;
}

function docTypeOf(root: Element, id: string): DocType | null {
  switch (root.localName) {
    case 'Invoice': {
      const code = childText(root, 'InvoiceTypeCode');
      return code === '01' || code === '03' || code === '04' ? code : null;
    }
    case 'CreditNote':
      return '07';
    case 'DebitNote':
      return '08';
    case 'DespatchAdvice': {
      const code = childText(root, 'DespatchAdviceTypeCode');
      return code === '09' || code === '31' ? code : null;
    }
    case 'Retention':
      return '20';
    case 'Perception':
      return '40';
    case 'SummaryDocuments':
      return 'rc';
    case 'VoidedDocuments':
      return id.startsWith('RR-') ? 'rr' : 'ra';
    default:
      return null;
  }
}

/**
 * Where a sale's total is (SUNAT's UBL 2.1: an invoice's, boleta's, liquidación's and credit note's
 * LegalMonetaryTotal, a debit note's RequestedMonetaryTotal): what a JSON document keeps as `PayableAmount`.
 */
const TOTAL_HOLDERS: Partial<Record<DocType, string>> = {
  '01': 'LegalMonetaryTotal',
  '03': 'LegalMonetaryTotal',
  '04': 'LegalMonetaryTotal',
  '07': 'LegalMonetaryTotal',
  '08': 'RequestedMonetaryTotal',
};
/** The types whose total is read from the XML. */
export const EXTERNAL_TOTAL_TYPES = Object.keys(TOTAL_HOLDERS) as DocType[];
/** An amount as UBL writes it (SUNAT: up to 12 digits and 2 decimals). */
const AMOUNT = /^\d{1,12}(\.\d{1,2})?$/;

/** The sale's totals as a JSON document of its type stores them (`PayableAmount`); null for the types without one. */
function totalsOf(root: Element, docType: DocType): Record<string, string> | null {
  const holder = TOTAL_HOLDERS[docType];
  if (!holder) return null;
  const monetary = childElement(root, holder);
  const payable = monetary ? childText(monetary, 'PayableAmount') : null;
  if (payable === null || !AMOUNT.test(payable))
    throw reject(
      null,
      `cac:${holder}/cbc:PayableAmount ${payable === null ? 'is missing' : `"${payable.slice(0, 20)}" is not an amount`}: the document's total, up to 12 digits and 2 decimals`,
    );
  return { PayableAmount: money(new Decimal(payable)) };
}

const reject = (code: string | null, message: string, path: string | null = 'xml') =>
  new DocumentValidationError([issue('chasqui', code, message, path)]);

/** Reads and checks an externally signed document; throws DocumentValidationError (a 422) when it cannot be sent. */
export function readSignedDocument(xml: string, options: { issuerRuc: string }): ExternalDocument {
  if (declaresDtd(xml)) throw reject('BR_XML_DTD', DTD_REFUSED);
  const beyond = xmlBoundsProblem(xml, UPLOAD_BOUNDS);
  if (beyond) throw reject('BR_XML_LIMIT', beyond);
  let root: Element | null = null;
  let doc: Document;
  try {
    doc = new DOMParser({
      onError: (level: string, message: string) => {
        if (level !== 'warning') throw new Error(message);
      },
    }).parseFromString(xml, 'text/xml') as unknown as Document;
    root = doc.documentElement as unknown as Element | null;
  } catch (err) {
    throw reject('BR_XML_MALFORMED', `the XML is not well formed: ${(err as Error).message}`);
  }
  if (!root) throw reject('BR_XML_MALFORMED', 'the XML has no root element');
  const id = childText(root, 'ID') ?? '';
  const docType = docTypeOf(root, id);
  if (!docType)
    throw reject(
      'BR_XML_TYPE',
      `a ${root.localName} document with these type codes is not an electronic tax document chasqui sends`,
    );
  const ruc = issuerRuc(root, docType);
  if (!ruc)
    throw reject('BR_XML_ISSUER', 'the XML names no issuer RUC (AccountingSupplierParty or DespatchSupplierParty)');
  if (ruc !== options.issuerRuc)
    throw reject('BR_ISSUER_MISMATCH', `the issuer RUC ${ruc} is not the company of the token (${options.issuerRuc})`);
  const summary = docType === 'rc' || docType === 'ra' || docType === 'rr';
  const parts = (summary ? SUMMARY_ID : SALE_ID).exec(id);
  if (!parts)
    throw reject(
      '1001',
      `cbc:ID "${id}" is not a valid ${summary ? 'RC/RA/RR-YYYYMMDD-N' : 'SERIE-NUMERO'} identifier`,
    );
  const issueDate = childText(root, 'IssueDate') ?? '';
  if (!isCalendarDate(issueDate))
    throw reject(null, `cbc:IssueDate "${issueDate.slice(0, 20)}" is not a calendar date written YYYY-MM-DD`);
  const lines = linesProblem(root);
  if (lines) throw reject(lines.code, lines.message);
  const totals = totalsOf(root, docType);
  const signature = verifyXmlSignature(xml, doc!);
  if (!signature.ok || !signature.digest)
    throw reject('BR_XML_SIGNATURE', `the XML is not validly signed: ${signature.reason ?? 'no digest'}`);
  return {
    docType,
    ruc,
    series: parts[1],
    number: Number(parts[2]),
    filename: summary ? `${ruc}-${id}` : `${ruc}-${docType}-${id}`,
    issueDate,
    currency: childText(root, 'DocumentCurrencyCode'),
    hash: signature.digest,
    xml,
    totals,
    warnings: [],
  };
}

/**
 * The totals of an externally signed document stored before they were read at issue (db/migrations
 * 20261207100000): what `readSignedDocument` would keep now, or null when the XML holds none it can read.
 */
export function storedExternalTotals(xml: string, docType: DocType): Record<string, string> | null {
  try {
    return totalsOf(parseRoot(xml) as unknown as Element, docType);
  } catch {
    return null;
  }
}
