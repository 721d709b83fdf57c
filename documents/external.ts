/**
 * Documents an issuer signs itself (company signing `external`): chasqui never re-signs them, it only reads what it
 * must store and route (type, series, number, file name) and refuses what it cannot send: malformed XML, no valid
 * signature, or another issuer's RUC.
 */
import { DOMParser } from '@xmldom/xmldom';
import { DocumentValidationError, issue } from './errors';
import { verifyXmlSignature } from './signing/verify';
import { declaresDtd, DTD_REFUSED } from './xml/dtd';
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

const reject = (code: string | null, message: string, path: string | null = 'xml') =>
  new DocumentValidationError([issue('chasqui', code, message, path)]);

/** Reads and checks an externally signed document; throws DocumentValidationError (a 422) when it cannot be sent. */
export function readSignedDocument(xml: string, options: { issuerRuc: string }): ExternalDocument {
  if (declaresDtd(xml)) throw reject('BR_XML_DTD', DTD_REFUSED);
  let root: Element | null = null;
  try {
    const doc = new DOMParser({
      onError: (level: string, message: string) => {
        if (level !== 'warning') throw new Error(message);
      },
    }).parseFromString(xml, 'text/xml');
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
  if (!/^\d{4}-\d{2}-\d{2}$/.test(issueDate)) throw reject(null, 'the XML has no valid cbc:IssueDate');
  const signature = verifyXmlSignature(xml);
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
    totals: null,
    warnings: [],
  };
}
