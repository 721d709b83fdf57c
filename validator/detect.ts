/**
 * What a document is, as SUNAT's validator sees it: the type (root element + type code), the schema, and the name of
 * the file as it would be sent (SUNAT's XSL compares RUC, type, series and number of `nombreArchivoEnviado` with the
 * XML, by position).
 */
import { DOMParser, type Element as XmlElement } from '@xmldom/xmldom';
import { declaresDtd, DTD_REFUSED } from '../documents/xml/dtd';
import { STORED_BOUNDS, xmlBoundsProblem } from '../documents/xml/bounds';
import path from 'node:path';

export const NS = {
  cbc: 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2',
  cac: 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2',
  ext: 'urn:oasis:names:specification:ubl:schema:xsd:CommonExtensionComponents-2',
  ds: 'http://www.w3.org/2000/09/xmldsig#',
} as const;

/** (root element, UBL version) → schema under sunat/xsd; `*` = any version. */
const SCHEMAS: Record<string, string> = {
  'Invoice 2.1': '2.1/maindoc/UBL-Invoice-2.1.xsd',
  'Invoice 2.0': '2.0/maindoc/UBLPE-Invoice-1.0.xsd',
  'CreditNote 2.1': '2.1/maindoc/UBL-CreditNote-2.1.xsd',
  'CreditNote 2.0': '2.0/maindoc/UBLPE-CreditNote-1.0.xsd',
  'DebitNote 2.1': '2.1/maindoc/UBL-DebitNote-2.1.xsd',
  'DebitNote 2.0': '2.0/maindoc/UBLPE-DebitNote-1.0.xsd',
  'DespatchAdvice 2.1': '2.1/maindoc/UBL-DespatchAdvice-2.1.xsd',
  'ApplicationResponse 2.1': '2.1/maindoc/UBL-ApplicationResponse-2.1.xsd',
  'ApplicationResponse 2.0': '2.0/maindoc/UBLPE-ApplicationResponse-1.0.xsd',
  'SummaryDocuments *': '2.0/maindoc/UBLPE-SummaryDocuments-1.0.xsd',
  'VoidedDocuments *': '2.0/maindoc/UBLPE-VoidedDocuments-1.0.xsd',
  'Retention *': '2.0/maindoc/UBLPE-Retention-1.0.xsd',
  'Perception *': '2.0/maindoc/UBLPE-Perception-1.0.xsd',
};

/** Where the issuer's RUC sits, by document family, first match wins. */
const RUC_PATHS = [
  ['AccountingSupplierParty', 'Party', 'PartyIdentification', 'ID'],
  ['AccountingSupplierParty', 'CustomerAssignedAccountID'],
  ['DespatchSupplierParty', 'Party', 'PartyIdentification', 'ID'],
  ['DespatchSupplierParty', 'CustomerAssignedAccountID'],
  ['AccountingSupplierParty', 'Party', 'PartyTaxScheme', 'CompanyID'],
  ['AccountingSupplierParty', 'Party', 'PartyLegalEntity', 'CompanyID'],
  ['AgentParty', 'PartyIdentification', 'ID'],
];

/** A name SUNAT accepts for a file it receives: RUC-TT-SERIE-NUMERO.xml or RUC-RC|RA|RR-YYYYMMDD-N.xml. */
const SENDABLE_NAME = /^\d{11}-(?:\d{2}-[A-Z0-9]{4}-\d{1,8}|(?:RC|RA|RR)-\d{8}-\d{1,5})\.xml$/;

export interface DocumentFacts {
  /** 01, 03, 04, 07, 08, 09, 20, 31, 40, RC, RA, RR, CDR; null when the root element is not a SUNAT document. */
  type: string | null;
  root: string;
  /** Schema under sunat/xsd, or null. */
  schema: string | null;
  /** The name SUNAT's XSL is given, and where it came from. */
  fileName: string;
  nameSource: 'file name' | 'content';
  hasSignature: boolean;
  /** The unsigned placeholder `<ext:ExtensionContent/>` is there (UBL 2.1 refuses it empty). */
  emptyExtension: boolean;
}

type El = XmlElement;

function childrenNamed(parent: El, ns: string, local: string): El[] {
  const out: El[] = [];
  for (let n = parent.firstChild; n; n = n.nextSibling) {
    if (n.nodeType === 1 && (n as El).localName === local && (n as El).namespaceURI === ns) out.push(n as El);
  }
  return out;
}

/** Text of the first element at root/cac:…/cbc:last, trimmed; '' when absent. */
function textAt(root: El, steps: string[]): string {
  let current: El[] = [root];
  steps.forEach((step, i) => {
    const ns = i === steps.length - 1 ? NS.cbc : NS.cac;
    current = current.flatMap((el) => childrenNamed(el, ns, step));
  });
  return current[0]?.textContent?.trim() ?? '';
}

function typeOf(root: El): string | null {
  switch (root.localName) {
    case 'Invoice':
      return textAt(root, ['InvoiceTypeCode']);
    case 'CreditNote':
      return '07';
    case 'DebitNote':
      return '08';
    case 'DespatchAdvice':
      return textAt(root, ['DespatchAdviceTypeCode']);
    case 'SummaryDocuments':
      return 'RC';
    case 'VoidedDocuments': {
      const prefix = textAt(root, ['ID']).split('-')[0];
      return prefix === 'RA' || prefix === 'RR' ? prefix : 'RA?';
    }
    case 'Retention':
      return '20';
    case 'Perception':
      return '40';
    case 'ApplicationResponse':
      return 'CDR';
    default:
      return null;
  }
}

export class NotXmlError extends Error {}

/** Parse a document (throws NotXmlError when it is not well-formed) and describe it. */
export function describeDocument(
  xml: string,
  fileName: string,
  options: { nameFromContent?: boolean } = {},
): DocumentFacts {
  if (declaresDtd(xml)) throw new NotXmlError(DTD_REFUSED);
  const beyond = xmlBoundsProblem(xml, STORED_BOUNDS);
  if (beyond) throw new NotXmlError(beyond);
  const problems: string[] = [];
  let doc;
  try {
    doc = new DOMParser({
      onError: (level, message) => {
        if (level !== 'warning') problems.push(message);
      },
    }).parseFromString(xml, 'text/xml');
  } catch (err) {
    // xmldom throws on fatal errors (an undeclared prefix, …) after reporting them.
    throw new NotXmlError(`not well-formed XML: ${problems[0] ?? (err as Error).message}`);
  }
  const root = doc.documentElement;
  if (problems.length || !root) throw new NotXmlError(`not well-formed XML: ${problems[0] ?? 'no root element'}`);
  const type = typeOf(root);
  const version = textAt(root, ['UBLVersionID']);
  const schema =
    SCHEMAS[`${root.localName} ${version === '2.0' ? '2.0' : '2.1'}`] ?? SCHEMAS[`${root.localName} *`] ?? null;
  const base = path.basename(fileName);
  let name = base;
  let nameSource: DocumentFacts['nameSource'] = 'file name';
  if (options.nameFromContent || !SENDABLE_NAME.test(base)) {
    const ruc = RUC_PATHS.map((p) => textAt(root, p)).find(Boolean) ?? '';
    const id = textAt(root, ['ID']);
    name = type === 'RC' || type === 'RA' || type === 'RR' ? `${ruc}-${id}.xml` : `${ruc}-${type}-${id}.xml`;
    nameSource = 'content';
  }
  const hasSignature = doc.getElementsByTagNameNS(NS.ds, 'Signature').length > 0;
  const emptyExtension = Array.from(doc.getElementsByTagNameNS(NS.ext, 'ExtensionContent')).some(
    (el) => !Array.from(el.childNodes).some((n) => n.nodeType === 1),
  );
  return {
    type: type || null,
    root: root.localName ?? '',
    schema,
    fileName: name,
    nameSource,
    hasSignature,
    emptyExtension,
  };
}
