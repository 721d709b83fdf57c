import { zipEntries } from '../authority/zip';
import { el, frag } from '../documents/xml/canonical';
import { createSigner, generateTestCertificate, signXml, type Signer } from '../documents/signing';
import { DOCUMENT_NAMES } from './codes';

export const SUNAT_RUC = '20131312955';

let identity: Signer | null = null;

/** The simulator's CDR signing key: one self-signed certificate per process (SUNAT's RUC as subject). */
export function simulatorSigner(): Signer {
  identity ??= createSigner(generateTestCertificate({ ruc: SUNAT_RUC, commonName: 'SUNAT simulator (chasqui)' }));
  return identity;
}

export interface CdrContent {
  /** Base name of the document file (`20123456789-01-F001-1`). */
  name: string;
  issuerRuc: string;
  docType: string;
  /** Series-number (`F001-1`) or summary id (`RC-20240101-1`). */
  referenceId: string;
  issueDate: string | null;
  recipient: string | null;
  code: string;
  description: string;
  /** Observation notes, each "<code> - <text>". */
  notes: string[];
  /** The received document's hash, written as OSE CDRs carry it (DocumentReference/Attachment); SUNAT's CDRs carry none. */
  documentHash?: string | null;
}

export type CdrVariant = 'signed' | 'unsigned' | 'malformed';

let sequence = 0;

function limaNow(): { date: string; time: string } {
  const iso = new Date(Date.now() - 5 * 3600_000).toISOString();
  return { date: iso.slice(0, 10), time: iso.slice(11, 19) };
}

export function acceptanceText(docType: string, referenceId: string): string {
  return `La ${DOCUMENT_NAMES[docType] ?? 'Comprobante'} numero ${referenceId}, ha sido aceptada`;
}

/** An ApplicationResponse with SUNAT's structure (UBL 2.0 CDR, signed like SignSUNAT) in a zip `R-<name>.zip`. */
export function buildCdrZip(content: CdrContent, variant: CdrVariant = 'signed'): string {
  const now = limaNow();
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
    el('cbc:ID', `${Date.now()}${String(sequence++ % 1000).padStart(3, '0')}`),
    el('cbc:IssueDate', content.issueDate ?? now.date),
    el('cbc:IssueTime', '00:00:00'),
    el('cbc:ResponseDate', now.date),
    el('cbc:ResponseTime', now.time),
    frag(content.notes.map((note) => el('cbc:Note', note))),
    el(
      'cac:Signature',
      el('cbc:ID', 'SignSUNAT'),
      el('cac:SignatoryParty', el('cac:PartyIdentification', el('cbc:ID', SUNAT_RUC)), el('cac:PartyName', el('cbc:Name', 'SUNAT'))),
      el('cac:DigitalSignatureAttachment', el('cac:ExternalReference', el('cbc:URI', '#SignSUNAT'))),
    ),
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
        content.documentHash ? el('cac:Attachment', el('cac:ExternalReference', el('cbc:DocumentHash', content.documentHash))) : frag([]),
      ),
      el('cac:RecipientParty', el('cac:PartyIdentification', el('cbc:ID', content.recipient ?? '-'))),
    ),
  ).s;
  let text = variant === 'unsigned' ? xml : signXml(xml, simulatorSigner()).xml;
  if (variant === 'malformed') text = text.slice(0, Math.floor(text.length / 2));
  return zipEntries([{ name: 'dummy/' }, { name: `R-${content.name}.xml`, data: Buffer.from(text, 'utf8') }]).toString('base64');
}
