import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { SoapServiceContract } from './soap';

/**
 * SUNAT's published WSDLs (sunat/wsdl/greenter, as SUNAT serves them), served by the simulator at each SOAP
 * endpoint the way SUNAT serves them, with the endpoint's own address in `soap:address` so that a client built from
 * `…?wsdl` talks to the simulator. billService's imports are sibling files (`billService.ns1.wsdl`,
 * `billService.xsd2.xsd`, the names SUNAT's production WSDL imports); billConsultService is JAX-WS, whose imports
 * are `?wsdl=1` and `?xsd=1`.
 */
const WSDL_DIR = path.resolve(__dirname, '../sunat/wsdl/greenter');

export interface WsdlDocument {
  /** How the document is asked for: a query (`wsdl`, `wsdl=1`) or a path suffix after the service name (`.ns1.wsdl`). */
  query?: string;
  suffix?: string;
  file: string;
  /** Rewrites the document for an endpoint URL (address and absolute imports). */
  rewrite(text: string, endpoint: string): string;
}

export interface SoapServiceDefinition {
  /** The last path segment of the endpoint (`billService`). */
  name: string;
  contract: SoapServiceContract;
  documents: WsdlDocument[];
}

const FILE_PARTS = ['fileName', 'contentFile', 'partyType'] as const;
const DOCUMENT_PARTS = ['rucComprobante', 'tipoComprobante', 'serieComprobante', 'numeroComprobante'] as const;

const address = (text: string, endpoint: string) =>
  text.replace(/(<(?:soap11|soap):address location=")[^"]*(")/g, `$1${endpoint}$2`);
const same = (text: string) => text;

export const BILL_SERVICE: SoapServiceDefinition = {
  name: 'billService',
  contract: { sendBill: FILE_PARTS, sendSummary: FILE_PARTS, sendPack: FILE_PARTS, getStatus: ['ticket'] },
  documents: [
    { query: 'wsdl', file: 'billService.wsdl', rewrite: address },
    { suffix: '.ns1.wsdl', file: 'billService.ns1.wsdl', rewrite: same },
    { suffix: '.xsd2.xsd', file: 'billService.xsd2.xsd', rewrite: same },
  ],
};

export const BILL_CONSULT_SERVICE: SoapServiceDefinition = {
  name: 'billConsultService',
  contract: { getStatus: DOCUMENT_PARTS, getStatusCdr: DOCUMENT_PARTS },
  documents: [
    {
      query: 'wsdl',
      file: 'billConsultService.wsdl',
      rewrite: (text, endpoint) =>
        address(text, endpoint).replace('location="billConsultService.ns1.wsdl"', `location="${endpoint}?wsdl=1"`),
    },
    {
      query: 'wsdl=1',
      file: 'billConsultService.ns1.wsdl',
      rewrite: (text, endpoint) =>
        text.replace('schemaLocation="billConsultService.xsd"', `schemaLocation="${endpoint}?xsd=1"`),
    },
    { query: 'xsd=1', file: 'billConsultService.xsd', rewrite: same },
  ],
};

const cache = new Map<string, string>();

function load(file: string): string {
  let text = cache.get(file);
  if (text === undefined) {
    text = readFileSync(path.join(WSDL_DIR, file), 'utf8');
    cache.set(file, text);
  }
  return text;
}

/**
 * The WSDL or schema a GET asks for, or null: `suffix` is what follows the service name in the path (`.ns1.wsdl`),
 * `query` the raw query string (`wsdl`), `endpoint` the service's URL as the client reached it.
 */
export function wsdlDocument(
  service: SoapServiceDefinition,
  suffix: string,
  query: string,
  endpoint: string,
): string | null {
  const doc = service.documents.find((d) =>
    d.suffix ? d.suffix === suffix && !query : !suffix && d.query?.toLowerCase() === query.toLowerCase(),
  );
  return doc ? doc.rewrite(load(doc.file), endpoint) : null;
}
