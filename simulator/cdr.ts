import { createHash, randomUUID, sign } from 'node:crypto';
import { zipEntries } from '../authority/zip';
import { el, frag } from '../documents/xml/canonical';
import { createSigner, generateTestCertificate, type Signer } from '../documents/signing';
import { DS_NS, ENVELOPED } from '../documents/signing/signer';
import { DOCUMENT_NAMES } from './codes';

export const SUNAT_RUC = '20131312955';

/** SUNAT's own CDR signature (PROTOCOL.md §3, every SUNAT CDR in sunat/samples/cdr). */
export const CDR_C14N = 'http://www.w3.org/2001/10/xml-exc-c14n#WithComments';
export const CDR_SIGNATURE = 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha512';
export const CDR_DIGEST = 'http://www.w3.org/2001/04/xmlenc#sha512';

/** Where SUNAT's GRE CDR points the printed guide's QR code (samples/cdr/R-20000000001-09-T001-1.xml). */
export const GRE_QR_BASE = 'https://e-factura.sunat.gob.pe/v1/contribuyente/gre/comprobantes/descargaqr?hashqr=';

let identity: Signer | null = null;

/** The simulator's CDR signing key: one self-signed certificate per process (SUNAT's RUC as subject). */
export function simulatorSigner(): Signer {
  identity ??= createSigner(generateTestCertificate({ ruc: SUNAT_RUC, commonName: 'SUNAT simulator (chasqui)' }));
  return identity;
}

let lastNumber = 0;

/**
 * SUNAT's numbers for tickets and CDR ids: 13 digits, the reception time in milliseconds (samples: ticket
 * 1703154974517, CDR ID 1703151265372); unique within the process.
 */
export function sunatNumber(): string {
  lastNumber = Math.max(lastNumber + 1, Date.now());
  return String(lastNumber);
}

export interface CdrContent {
  /** Base name of the document file (`20123456789-01-F001-1`). */
  name: string;
  issuerRuc: string;
  docType: string;
  /** Series-number (`F001-1`) or summary id (`RC-20240101-1`). */
  referenceId: string;
  issueDate: string | null;
  issueTime: string | null;
  recipient: string | null;
  code: string;
  description: string;
  /** Observation notes, each "<code> - <text>". */
  notes: string[];
  /** GRE: the hash of the QR link SUNAT puts in the CDR for the printed guide. */
  qrHash?: string;
  /** The received document's hash, written as OSE CDRs carry it (DocumentReference/Attachment); SUNAT's CDRs carry none. */
  documentHash?: string | null;
}

export type CdrVariant = 'signed' | 'unsigned' | 'malformed';

const SUMMARIES = new Set(['RC', 'RA', 'RR']);
const GUIDES = new Set(['09', '31']);

function limaNow(): { date: string; time: string; millis: string } {
  const iso = new Date(Date.now() - 5 * 3600_000).toISOString();
  return { date: iso.slice(0, 10), time: iso.slice(11, 19), millis: iso.slice(11, 23) };
}

/**
 * SUNAT's acceptance wording: "La Factura numero F001-1, ha sido aceptada" (samples), "La Comunicacion de baja
 * RA-20200328-1, ha sido aceptada" (sample, no "numero"), "El Comprobante  numero T001-1, ha sido aceptado" (GRE
 * sample, two spaces). Daily summaries and reversals are written by analogy with RA (no sample).
 */
export function acceptanceText(docType: string, referenceId: string): string {
  if (GUIDES.has(docType)) return `El Comprobante  numero ${referenceId}, ha sido aceptado`;
  if (docType === 'RA') return `La Comunicacion de baja ${referenceId}, ha sido aceptada`;
  if (docType === 'RC' || docType === 'RR') return `El ${DOCUMENT_NAMES[docType]} ${referenceId}, ha sido aceptado`;
  return `La ${DOCUMENT_NAMES[docType] ?? 'Comprobante'} numero ${referenceId}, ha sido aceptada`;
}

/** The CDR's own ID, IssueDate and IssueTime as SUNAT writes them for this kind of document (see the samples). */
function heading(
  content: CdrContent,
  now: ReturnType<typeof limaNow>,
): { id: string; issueDate: string; issueTime: string } {
  // GRE CDRs: a UUID, the reception date and a time with milliseconds (R-20000000001-09-T001-1.xml).
  if (GUIDES.has(content.docType)) return { id: randomUUID(), issueDate: now.date, issueTime: now.millis };
  // Summaries: an empty IssueDate (R-12345678912-RA-20200328-1.xml).
  if (SUMMARIES.has(content.docType)) return { id: sunatNumber(), issueDate: '', issueTime: '00:00:00' };
  // Invoices and notes: the document's date and time, IssueTime 00:00:00 (R-12345678901-01-F001-00000587.xml).
  const date = content.issueDate ?? now.date;
  return { id: sunatNumber(), issueDate: `${date}T${content.issueTime ?? '00:00:00'}`, issueTime: '00:00:00' };
}

/**
 * Exclusive canonical XML of a CDR this module built (`el()` output: already canonical text, every namespace declared
 * on the root, no other attributes, no comments): each element declares the namespace of its prefix unless an
 * ancestor's output already did. Cheaper than a DOM (≈ 5 ms per CDR with xml-crypto, most of a sendBill).
 */
function exclusiveC14n(xml: string): string {
  const uris = new Map<string, string>();
  const rendered: ReadonlySet<string>[] = [new Set()];
  return xml.replace(
    /<(\/?)([\w.-]+):([\w.-]+)([^>]*)>/g,
    (_tag, closing: string, prefix: string, local: string, attrs: string) => {
      if (closing) {
        rendered.pop();
        return `</${prefix}:${local}>`;
      }
      for (const [, p, uri] of attrs.matchAll(/\sxmlns:([\w.-]+)="([^"]*)"/g)) uris.set(p, uri);
      if (attrs.replace(/\sxmlns:[\w.-]+="[^"]*"/g, '').trim())
        throw new Error('exclusiveC14n: only namespace declarations are expected as attributes');
      const inherited = rendered[rendered.length - 1];
      if (inherited.has(prefix)) {
        rendered.push(inherited);
        return `<${prefix}:${local}>`;
      }
      rendered.push(new Set(inherited).add(prefix));
      return `<${prefix}:${local} xmlns:${prefix}="${uris.get(prefix)}">`;
    },
  );
}

const EMPTY_EXTENSION = '<ext:ExtensionContent></ext:ExtensionContent>';

/**
 * Signs a CDR the way SUNAT does: enveloped, exc-c14n#WithComments, RSA-SHA512, SHA-512 digest, a default-namespace
 * `Signature` in the (empty) ExtensionContent, KeyInfo with the certificate. Tests verify it with xml-crypto.
 */
export function signCdr(xml: string, signer: Signer = simulatorSigner()): string {
  const at = xml.indexOf(EMPTY_EXTENSION);
  if (at < 0) throw new Error('signCdr: the CDR has no empty ExtensionContent');
  const digest = createHash('sha512').update(exclusiveC14n(xml), 'utf8').digest('base64');
  const signedInfo =
    `<CanonicalizationMethod Algorithm="${CDR_C14N}"></CanonicalizationMethod><SignatureMethod Algorithm="${CDR_SIGNATURE}"></SignatureMethod>` +
    `<Reference URI=""><Transforms><Transform Algorithm="${ENVELOPED}"></Transform><Transform Algorithm="${CDR_C14N}"></Transform></Transforms>` +
    `<DigestMethod Algorithm="${CDR_DIGEST}"></DigestMethod><DigestValue>${digest}</DigestValue></Reference>`;
  // SignedInfo's exclusive canonical form: only the default namespace it uses is declared on it.
  const value = sign(
    'sha512',
    Buffer.from(`<SignedInfo xmlns="${DS_NS}">${signedInfo}</SignedInfo>`, 'utf8'),
    signer.key,
  ).toString('base64');
  const signature =
    `<Signature xmlns="${DS_NS}"><SignedInfo>${signedInfo}</SignedInfo><SignatureValue>${value}</SignatureValue>` +
    `<KeyInfo><X509Data><X509Certificate>${signer.certificateBase64}</X509Certificate></X509Data></KeyInfo></Signature>`;
  const insertAt = at + '<ext:ExtensionContent>'.length;
  return xml.slice(0, insertAt) + signature + xml.slice(insertAt);
}

/** An ApplicationResponse with SUNAT's structure (UBL 2.0 CDR, signed like SignSUNAT) in a zip `R-<name>.zip`. */
export function buildCdrZip(content: CdrContent, variant: CdrVariant = 'signed'): string {
  const now = limaNow();
  const head = heading(content, now);
  // Summaries have no recipient: SUNAT writes the scheme alone ("6-", R-12345678912-RA-20200328-1.xml).
  const recipient = SUMMARIES.has(content.docType) ? '6-' : (content.recipient ?? '-');
  const xml = el(
    'ar:ApplicationResponse',
    {
      'xmlns:ar': 'urn:oasis:names:specification:ubl:schema:xsd:ApplicationResponse-2',
      'xmlns:cac': 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2',
      'xmlns:cbc': 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2',
      'xmlns:ext': 'urn:oasis:names:specification:ubl:schema:xsd:CommonExtensionComponents-2',
    },
    el('ext:UBLExtensions', el('ext:UBLExtension', el('ext:ExtensionContent'))),
    el('cbc:UBLVersionID', '2.0'),
    el('cbc:CustomizationID', '1.0'),
    el('cbc:ID', head.id),
    el('cbc:IssueDate', head.issueDate),
    el('cbc:IssueTime', head.issueTime),
    el('cbc:ResponseDate', now.date),
    el('cbc:ResponseTime', now.time),
    el(
      'cac:Signature',
      el('cbc:ID', 'SignSUNAT'),
      el(
        'cac:SignatoryParty',
        el('cac:PartyIdentification', el('cbc:ID', SUNAT_RUC)),
        el('cac:PartyName', el('cbc:Name', 'SUNAT')),
      ),
      el('cac:DigitalSignatureAttachment', el('cac:ExternalReference', el('cbc:URI', '#SignSUNAT'))),
    ),
    frag(content.notes.map((note) => el('cbc:Note', note))),
    el('cac:SenderParty', el('cac:PartyIdentification', el('cbc:ID', SUNAT_RUC))),
    el('cac:ReceiverParty', el('cac:PartyIdentification', el('cbc:ID', content.issuerRuc))),
    el(
      'cac:DocumentResponse',
      el(
        'cac:Response',
        el('cbc:ReferenceID', content.referenceId),
        el('cbc:ResponseCode', content.code),
        el('cbc:Description', content.description),
      ),
      el(
        'cac:DocumentReference',
        el('cbc:ID', content.referenceId),
        content.qrHash ? el('cbc:DocumentDescription', `${GRE_QR_BASE}${content.qrHash}`) : frag([]),
        content.documentHash
          ? el('cac:Attachment', el('cac:ExternalReference', el('cbc:DocumentHash', content.documentHash)))
          : frag([]),
      ),
      el('cac:RecipientParty', el('cac:PartyIdentification', el('cbc:ID', recipient))),
    ),
  ).s;
  let text = variant === 'unsigned' ? xml : signCdr(xml);
  if (variant === 'malformed') text = text.slice(0, Math.floor(text.length / 2));
  return zipEntries([{ name: 'dummy/' }, { name: `R-${content.name}.xml`, data: Buffer.from(text, 'utf8') }]).toString(
    'base64',
  );
}
