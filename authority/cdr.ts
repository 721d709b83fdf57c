import type { Document, Element } from '@xmldom/xmldom';
import { publicKeyOf } from '../documents/signing/public-keys';
import { verifyXmlSignature } from '../documents/signing';
import { childElements, childPath, firstChild, firstDescendant, NS, parseXml, textOf } from './xml';
import { decodeXml, unzipFiles } from './zip';
import { declaresDtd, DTD_REFUSED } from '../documents/xml/dtd';

/** What the CDR's XMLDSig signature says, checked with whatever algorithms it names (SUNAT: rsa-sha512, exc-c14n#WithComments). */
export interface CdrSignature {
  signatureMethod: string | null;
  canonicalization: string | null;
  digestMethod: string | null;
  /**
   * true: digest and signature value hold for the certificate in KeyInfo; false: they do not (changed after
   * signing); null: nothing to check against (SUNAT beta signs with a dummy key and puts no certificate).
   */
  verified: boolean | null;
  reason: string | null;
}

export interface CdrNote {
  code: string | null;
  text: string;
}

/** A SUNAT or OSE constancia de recepción (UBL ApplicationResponse), read by namespace URI. */
export interface Cdr {
  /** Identifier the authority gave the CDR (SUNAT: a number; OSEs: often a UUID). */
  id: string | null;
  issueDate: string | null;
  issueTime: string | null;
  responseDate: string | null;
  responseTime: string | null;
  /** ID (or CompanyID) of the sender: SUNAT 20131312955, or the OSE's RUC. */
  senderId: string | null;
  /** The issuer the CDR answers (our company's RUC). */
  receiverId: string | null;
  /** Document the verdict is about, e.g. "F001-1" (Response/ReferenceID, else DocumentReference/ID). */
  referenceId: string | null;
  responseCode: string | null;
  description: string | null;
  /**
   * The hash of the document the verdict is about (DocumentReference/Attachment/ExternalReference/DocumentHash), as
   * OSE and GRE CDRs carry it; SUNAT's invoice CDRs carry none. It tells whose document a number's CDR belongs to.
   */
  documentHash: string | null;
  notes: CdrNote[];
  /** DocumentReference/DocumentDescription: for a despatch guide, the link SUNAT's QR must carry (printed guides). */
  documentLink: string | null;
  /** True when the CDR carries an XMLDSig signature with a signature value (whether it verifies: `signature`). */
  signed: boolean;
  /** The signature's algorithms and its verification; null when the CDR carries none. */
  signature: CdrSignature | null;
  /** Name of the XML inside the zip, when read from one. */
  fileName: string | null;
  xml: string;
}

export type CdrReadResult = { ok: true; cdr: Cdr } | { ok: false; reason: string };

const NOTE_CODE = /^\s*(\d{1,4})\s*-\s*([\s\S]*)$/;

function partyId(party: Element | null): string | null {
  if (!party) return null;
  return (
    textOf(childPath(party, [NS.cac, 'PartyIdentification'], [NS.cbc, 'ID'])) ??
    textOf(firstDescendant(party, NS.cbc, 'CompanyID'))
  );
}

function algorithm(signature: Element, name: string): string | null {
  return firstDescendant(signature, NS.ds, name)?.getAttribute('Algorithm') ?? null;
}

/** Verifies the signature whatever its algorithms; a certificate that is not one (SUNAT beta) makes it uncheckable. */
function checkCdrSignature(signature: Element, xml: string, doc: Document): CdrSignature {
  const described = {
    signatureMethod: algorithm(signature, 'SignatureMethod'),
    canonicalization: algorithm(signature, 'CanonicalizationMethod'),
    digestMethod: algorithm(signature, 'DigestMethod'),
  };
  const certificate = textOf(firstDescendant(signature, NS.ds, 'X509Certificate'))?.replace(/\s+/g, '') ?? '';
  try {
    publicKeyOf(certificate);
  } catch {
    return {
      ...described,
      verified: null,
      reason: 'no usable certificate in KeyInfo (SUNAT beta signs with a dummy key)',
    };
  }
  const verification = verifyXmlSignature(xml, doc as unknown as globalThis.Document);
  return {
    ...described,
    verified: verification.ok,
    reason: verification.ok ? null : (verification.reason ?? 'the signature does not verify'),
  };
}

export function readCdrXml(xml: string, fileName: string | null = null): CdrReadResult {
  if (declaresDtd(xml)) return { ok: false, reason: `the CDR is refused: ${DTD_REFUSED}` };
  const doc = parseXml(xml);
  const root = doc?.documentElement;
  if (!root) return { ok: false, reason: 'the CDR is not well-formed XML' };
  if (root.namespaceURI !== NS.ar || root.localName !== 'ApplicationResponse') {
    return { ok: false, reason: `the CDR root is ${root.localName}, not an ApplicationResponse` };
  }
  const documentResponse = firstChild(root, NS.cac, 'DocumentResponse');
  const response = documentResponse && firstChild(documentResponse, NS.cac, 'Response');
  if (!response) return { ok: false, reason: 'the CDR has no DocumentResponse/Response' };
  const responseCode = textOf(firstChild(response, NS.cbc, 'ResponseCode'));
  if (responseCode === null || !/^\d+$/.test(responseCode))
    return { ok: false, reason: 'the CDR has no numeric ResponseCode' };
  const signature = firstDescendant(root, NS.ds, 'Signature');
  const signed = !!signature && !!textOf(firstChild(signature, NS.ds, 'SignatureValue'));
  const basic = (name: string) => textOf(firstChild(root, NS.cbc, name));
  return {
    ok: true,
    cdr: {
      id: basic('ID'),
      issueDate: basic('IssueDate'),
      issueTime: basic('IssueTime'),
      responseDate: basic('ResponseDate'),
      responseTime: basic('ResponseTime'),
      senderId: partyId(firstChild(root, NS.cac, 'SenderParty')),
      receiverId: partyId(firstChild(root, NS.cac, 'ReceiverParty')),
      referenceId:
        textOf(firstChild(response, NS.cbc, 'ReferenceID')) ??
        textOf(childPath(documentResponse, [NS.cac, 'DocumentReference'], [NS.cbc, 'ID'])),
      responseCode,
      description: textOf(firstChild(response, NS.cbc, 'Description')),
      documentHash: documentResponse ? textOf(firstDescendant(documentResponse, NS.cbc, 'DocumentHash')) : null,
      notes: childElements(root, NS.cbc, 'Note').map((note) => {
        const text = textOf(note) ?? '';
        const m = NOTE_CODE.exec(text);
        return m ? { code: m[1].padStart(4, '0'), text: m[2].trim() } : { code: null, text };
      }),
      documentLink: textOf(childPath(documentResponse, [NS.cac, 'DocumentReference'], [NS.cbc, 'DocumentDescription'])),
      signed,
      signature: signed ? checkCdrSignature(signature!, xml, doc) : null,
      fileName,
      xml,
    },
  };
}

/** Reads the CDR out of the zip the authority returned (SUNAT adds an empty `dummy/` folder entry). */
export function readCdrZip(zip: Uint8Array): CdrReadResult {
  const files = unzipFiles(zip);
  if (!files.ok) return { ok: false, reason: `the CDR zip is ${files.reason.replace('_', ' ')}` };
  const xmlEntries = files.entries.filter((e) => e.name.toLowerCase().endsWith('.xml'));
  if (xmlEntries.length !== 1)
    return { ok: false, reason: `the CDR zip holds ${xmlEntries.length} XML files, expected 1` };
  const [entry] = xmlEntries;
  return readCdrXml(decodeXml(entry.data), entry.name.split('/').pop() ?? entry.name);
}
