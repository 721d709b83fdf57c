/** The soap library's view of the simulator, shared by the SOAP client tests: a WSDL client, its faults, CDRs. */
import * as soap from 'soap';
import { readCdrZip } from '../../authority/cdr';
import { zipXml } from '../../authority/zip';
import { RUC } from './support';

export const DS = 'http://www.w3.org/2000/09/xmldsig#';
const SECURITY = {
  hasTimeStamp: false,
  hasTokenCreated: false,
  hasNonce: false,
  passwordType: 'PasswordText',
} as const;

export type Client = soap.Client &
  Record<string, (args: unknown, options?: Record<string, unknown>) => Promise<[Record<string, unknown>, string]>>;

export async function client(
  url: string,
  options: soap.IOptions = {},
  user: string | null = `${RUC}MODDATOS`,
  password = 'moddatos',
): Promise<Client> {
  // Each client loads the WSDL afresh: the library's cache would share one client's options with the next.
  const c = (await soap.createClientAsync(`${url}?wsdl`, { disableCache: true, ...options })) as Client;
  if (user) c.setSecurity(new soap.WSSecurity(user, password, SECURITY));
  return c;
}

/** The SOAP fault a call ends in (the soap library rejects with the parsed envelope). */
export async function faultOf(
  call: Promise<unknown>,
): Promise<{ faultcode: string; faultstring: string; status: number }> {
  try {
    await call;
  } catch (err) {
    const e = err as {
      root?: { Envelope?: { Body?: { Fault?: { faultcode: string; faultstring: string } } } };
      response?: { status: number };
    };
    const f = e.root?.Envelope?.Body?.Fault;
    if (f) return { ...f, status: e.response?.status ?? 0 };
    throw err;
  }
  throw new Error('the call did not fault');
}

export const fileArgs = (doc: { filename: string; xml: string }) => ({
  fileName: `${doc.filename}.zip`,
  contentFile: zipXml(doc.filename, doc.xml).toString('base64'),
});

export function cdrXml(base64: string): string {
  const read = readCdrZip(Buffer.from(base64, 'base64'));
  if (!read.ok) throw new Error(read.reason);
  return read.cdr.xml;
}

export const text = (xml: string, tag: string) =>
  new RegExp(`<${tag}>([^<]*)</${tag}>`).exec(xml)?.[1] ?? (xml.includes(`<${tag}/>`) ? '' : null);
