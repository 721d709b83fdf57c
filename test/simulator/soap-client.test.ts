/**
 * The simulator as a third-party client sees SUNAT: every call here goes through the `soap` npm library, built from
 * the WSDL the simulator serves at its own `?wsdl` (never through chasqui's connector). Requests a WSDL client cannot
 * produce (an unknown operation, a qualified part, an XOP include) are posted as plain HTTP. Each `it` is a row of
 * the table in docs/authority.md.
 */
import { expect } from 'chai';
import got from 'got';
import * as soap from 'soap';
import { DOMParser } from '@xmldom/xmldom';
import { SignedXml } from 'xml-crypto';
import { zipSync, strToU8 } from 'fflate';
import { readCdrZip } from '../../authority/cdr';
import { zipXml } from '../../authority/zip';
import { type SimulatorHandle } from '../../simulator/server';
import { startTestSimulator } from '../support/simulator';
import { startSimulator } from '../../simulator/server';
import { addDays, DEFAULT_CALENDAR, RuleCalendar } from '../../documents/calendar';
import { limaDate } from '../../core/lima';
import { loadConfig } from '../../core/config';
import { invoice, summary, voided } from '../support/ubl-fixtures';
import { prepareDocument } from '../../documents';
import { fixture } from '../support/documents';
import { createSigner, generateTestCertificate, signXml } from '../../documents/signing';
import { RUC, sign, urls } from './support';

const DS = 'http://www.w3.org/2000/09/xmldsig#';
const SECURITY = {
  hasTimeStamp: false,
  hasTokenCreated: false,
  hasNonce: false,
  passwordType: 'PasswordText',
} as const;

type Client = soap.Client &
  Record<string, (args: unknown, options?: Record<string, unknown>) => Promise<[Record<string, unknown>, string]>>;

async function client(
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
async function faultOf(call: Promise<unknown>): Promise<{ faultcode: string; faultstring: string; status: number }> {
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

const fileArgs = (doc: { filename: string; xml: string }) => ({
  fileName: `${doc.filename}.zip`,
  contentFile: zipXml(doc.filename, doc.xml).toString('base64'),
});

function cdrXml(base64: string): string {
  const read = readCdrZip(Buffer.from(base64, 'base64'));
  if (!read.ok) throw new Error(read.reason);
  return read.cdr.xml;
}

const text = (xml: string, tag: string) =>
  new RegExp(`<${tag}>([^<]*)</${tag}>`).exec(xml)?.[1] ?? (xml.includes(`<${tag}/>`) ? '' : null);

describe('simulator through an independent SOAP client (the soap library, WSDL from ?wsdl)', () => {
  let sim: SimulatorHandle;
  let bill: Client;
  let consult: Client;
  before(async () => {
    sim = await startTestSimulator({ ticketPolls: 0 });
    bill = await client(urls(sim).bill);
    consult = await client(urls(sim).consult);
  });
  after(async () => {
    await sim.close();
  });

  it("serves SUNAT's WSDL at ?wsdl for billService (beta and production paths) and billConsultService, addressed to itself", async () => {
    expect(Object.keys(bill.describe().billService.BillServicePort).sort()).to.deep.equal([
      'getStatus',
      'sendBill',
      'sendPack',
      'sendSummary',
    ]);
    expect(Object.keys(consult.describe().billConsultService.BillConsultServicePort).sort()).to.deep.equal([
      'getStatus',
      'getStatusCdr',
    ]);
    for (const url of [urls(sim).bill, urls(sim).billProd, urls(sim).consult]) {
      const wsdl = await got(`${url}?wsdl`).text();
      expect(wsdl).to.match(/^<\?xml/);
      const addresses = [...wsdl.matchAll(/address location="([^"]+)"/g)].map((m) => m[1]);
      expect(addresses.length, url).to.be.greaterThan(0);
      for (const a of addresses) expect(a).to.equal(url);
    }
    const prod = await client(urls(sim).billProd);
    const [answer] = await prod.sendBillAsync(fileArgs(sign(invoice({ ruc: RUC, series: 'F001', number: 900 }))));
    expect(answer.applicationResponse).to.be.a('string');
  });

  it("sendBill: an accepted CDR shaped like SUNAT's, signed rsa-sha512 with exc-c14n#WithComments, verifiable by xml-crypto", async () => {
    const doc = sign(invoice({ ruc: RUC, series: 'F001', number: 1 }));
    const [answer] = await bill.sendBillAsync(fileArgs(doc));
    const xml = cdrXml(answer.applicationResponse as string);
    expect(text(xml, 'cbc:ID')).to.match(/^\d{13}$/);
    expect(text(xml, 'cbc:IssueDate')).to.equal('2026-11-21T00:00:00');
    expect(text(xml, 'cbc:IssueTime')).to.equal('00:00:00');
    expect(text(xml, 'cbc:Description')).to.equal('La Factura numero F001-1, ha sido aceptada');
    expect(xml).to.contain('<cac:RecipientParty><cac:PartyIdentification><cbc:ID>6-20100070970</cbc:ID>');
    const dom = new DOMParser().parseFromString(xml, 'text/xml');
    const signature = dom.getElementsByTagNameNS(DS, 'Signature')[0];
    const algorithms = ['CanonicalizationMethod', 'SignatureMethod', 'DigestMethod'].map((n) =>
      dom.getElementsByTagNameNS(DS, n)[0].getAttribute('Algorithm'),
    );
    expect(algorithms).to.deep.equal([
      'http://www.w3.org/2001/10/xml-exc-c14n#WithComments',
      'http://www.w3.org/2001/04/xmldsig-more#rsa-sha512',
      'http://www.w3.org/2001/04/xmlenc#sha512',
    ]);
    expect(signature.parentNode?.localName).to.equal('ExtensionContent');
    const certificate = dom.getElementsByTagNameNS(DS, 'X509Certificate')[0].textContent!;
    const verifier = new SignedXml({
      publicCert: `-----BEGIN CERTIFICATE-----\n${certificate}\n-----END CERTIFICATE-----`,
    });
    verifier.loadSignature(signature as unknown as Node);
    expect(verifier.checkSignature(xml)).to.equal(true);
    expect(verifier.checkSignature(xml.replace('6-20100070970', '6-20100070971'))).to.equal(false);
  });

  it('strict: a SOAP 1.2 envelope gets a VersionMismatch fault and nothing is received', async () => {
    const soap12 = await client(urls(sim).bill, { forceSoap12Headers: true });
    const doc = sign(invoice({ ruc: RUC, series: 'F001', number: 2 }));
    const f = await faultOf(soap12.sendBillAsync(fileArgs(doc)));
    expect(f).to.deep.include({ faultcode: 'soap-env:VersionMismatch', status: 500 });
    const stored = await got(`${sim.url}/__admin/documents`).json<{ name: string }[]>();
    expect(stored.map((d) => d.name)).to.not.include(doc.filename);
  });

  it('strict: an operation element in another namespace is refused (soap-env:Client), not accepted', async () => {
    const wrong = await client(urls(sim).bill, {
      overrideRootElement: {
        namespace: 'x',
        xmlnsAttributes: [{ name: 'xmlns:x', value: 'http://service.example.pe' }],
      },
    });
    const doc = sign(invoice({ ruc: RUC, series: 'F001', number: 3 }));
    const f = await faultOf(wrong.sendBillAsync(fileArgs(doc)));
    expect(f.faultcode).to.equal('soap-env:Client');
    expect(f.faultstring).to.contain('{http://service.example.pe}sendBill');
    expect(sim.log().at(-1)).to.deep.include({ operation: 'unknown', httpStatus: 500 });
    const [accepted] = await bill.sendBillAsync(fileArgs(doc));
    expect(readCdrZip(Buffer.from(accepted.applicationResponse as string, 'base64'))).to.deep.nested.include({
      'cdr.responseCode': '0',
    });
  });

  it('strict: an unknown operation, a body that is not SOAP and a namespace-qualified part are refused with soap-env:Client faults', async () => {
    const envelope = (body: string) =>
      `<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/" xmlns:ser="http://service.sunat.gob.pe"><soapenv:Header/><soapenv:Body>${body}</soapenv:Body></soapenv:Envelope>`;
    const post = (body: string) =>
      got.post(urls(sim).bill, {
        body: envelope(body),
        headers: { 'content-type': 'text/xml' },
        throwHttpErrors: false,
      });
    const unknown = await post('<ser:sendFactura><fileName>x.zip</fileName></ser:sendFactura>');
    expect(unknown.statusCode).to.equal(500);
    expect(unknown.body).to.contain('<faultcode>soap-env:Client</faultcode>').and.contain('sendFactura');
    const notSoap = await got.post(urls(sim).bill, {
      body: 'fileName=x.zip',
      headers: { 'content-type': 'text/xml' },
      throwHttpErrors: false,
    });
    expect(notSoap.statusCode).to.equal(500);
    expect(notSoap.body).to.contain(
      '<faultcode>soap-env:Client</faultcode><faultstring>The request is not a SOAP message</faultstring>',
    );
    const qualified = await post('<ser:getStatus><ser:ticket>1703154974517</ser:ticket></ser:getStatus>');
    expect(qualified.statusCode).to.equal(500);
    expect(qualified.body).to.contain(
      'Unmarshalling Error: unexpected element (uri:"http://service.sunat.gob.pe", local:"ticket")',
    );
  });

  it('WS-Security: none → 0101 (catalog: encabezado de seguridad incorrecto), a wrong password → 0102', async () => {
    const anonymous = await client(urls(sim).bill, {}, null);
    const doc = sign(invoice({ ruc: RUC, series: 'F001', number: 4 }));
    expect(await faultOf(anonymous.sendBillAsync(fileArgs(doc)))).to.deep.include({
      faultcode: 'soap-env:Client.0101',
      faultstring: 'El encabezado de seguridad es incorrecto',
    });
    const wrong = await client(urls(sim).bill, {}, `${RUC}MODDATOS`, 'nope');
    expect((await faultOf(wrong.sendBillAsync(fileArgs(doc)))).faultcode).to.equal('soap-env:Client.0102');
  });

  it('MTOM/XOP: contentFile sent as an xop:Include of a binary attachment is read like inline base64', async () => {
    const doc = sign(invoice({ ruc: RUC, series: 'F001', number: 5 }));
    const include = {
      $xml: '<xop:Include xmlns:xop="http://www.w3.org/2004/08/xop/include" href="cid:zip-1%40chasqui"/>',
    };
    const attachment = {
      mimetype: 'application/octet-stream',
      contentId: 'zip-1@chasqui',
      name: `${doc.filename}.zip`,
      body: zipXml(doc.filename, doc.xml),
    };
    const [answer] = await bill.sendBillAsync(
      { fileName: `${doc.filename}.zip`, contentFile: include },
      { attachments: [attachment] },
    );
    expect(bill.lastRequestHeaders?.['Content-Type']).to.match(/^multipart\/related; type="application\/xop\+xml"/);
    expect(readCdrZip(Buffer.from(answer.applicationResponse as string, 'base64'))).to.deep.nested.include({
      'cdr.responseCode': '0',
      'cdr.referenceId': 'F001-5',
    });
    // An MTOM package whose root carries the base64 inline is read too.
    const [inline] = await bill.sendBillAsync(fileArgs(sign(invoice({ ruc: RUC, series: 'F001', number: 6 }))), {
      forceMTOM: true,
    });
    expect(readCdrZip(Buffer.from(inline.applicationResponse as string, 'base64'))).to.deep.nested.include({
      'cdr.referenceId': 'F001-6',
    });
  });

  it('a zip holding an empty XML → 0160 (catalog: el archivo XML esta vacio), not 0306', async () => {
    const name = `${RUC}-01-F001-7`;
    const zip = Buffer.from(zipSync({ [`${name}.xml`]: strToU8('') })).toString('base64');
    expect(await faultOf(bill.sendBillAsync({ fileName: `${name}.zip`, contentFile: zip }))).to.deep.include({
      faultcode: 'soap-env:Client.0160',
      faultstring: 'El archivo XML esta vacio',
    });
  });

  it('a re-sent number answers 1033 whether identical or different, 1032 when the first was rejected (greenter#35)', async () => {
    const doc = sign(invoice({ ruc: RUC, series: 'F002', number: 1 }));
    await bill.sendBillAsync(fileArgs(doc));
    expect((await faultOf(bill.sendBillAsync(fileArgs(doc)))).faultcode).to.equal('soap-env:Client.1033');
    const different = sign(invoice({ ruc: RUC, series: 'F002', number: 1, base: '200.00' }));
    expect(await faultOf(bill.sendBillAsync(fileArgs(different)))).to.deep.include({
      faultcode: 'soap-env:Client.1033',
      faultstring: 'El comprobante fue registrado previamente con otros datos',
    });
    const rejected = sign(invoice({ ruc: RUC, series: 'F002', number: 2, igv: '30.00' }));
    const [first] = await bill.sendBillAsync(fileArgs(rejected));
    expect(readCdrZip(Buffer.from(first.applicationResponse as string, 'base64'))).to.deep.nested.include({
      'cdr.responseCode': '3291',
    });
    expect((await faultOf(bill.sendBillAsync(fileArgs(rejected)))).faultcode).to.equal('soap-env:Client.1032');
  });

  it('getStatusCdr serves CDRs of 01/07/08 only (03 → 0005), 0004 with the CDR, 0011 when unknown', async () => {
    const doc = sign(invoice({ ruc: RUC, series: 'F003', number: 1 }));
    const [sent] = await bill.sendBillAsync(fileArgs(doc));
    const key = { rucComprobante: RUC, tipoComprobante: '01', serieComprobante: 'F003', numeroComprobante: 1 };
    const [found] = await consult.getStatusCdrAsync(key);
    expect(found.statusCdr).to.deep.equal({
      content: sent.applicationResponse,
      statusCode: '0004',
      statusMessage: 'La constancia existe',
    });
    const [missing] = await consult.getStatusCdrAsync({ ...key, numeroComprobante: 2 });
    expect(missing.statusCdr).to.deep.equal({
      statusCode: '0011',
      statusMessage: 'Comprobante no encontrado o no existe',
    });
    const receipt = sign(invoice({ ruc: RUC, series: 'B001', number: 1, type: '03' }));
    await bill.sendBillAsync(fileArgs(receipt));
    const [refused] = await consult.getStatusCdrAsync({ ...key, tipoComprobante: '03', serieComprobante: 'B001' });
    expect(refused.statusCdr).to.deep.equal({
      statusCode: '0005',
      statusMessage: 'Código de comprobante no permitido o no valido',
    });
  });

  it('billConsultService getStatus answers validity: 0001 accepted, 0002 rejected, 0003 de baja, 0011 unknown', async () => {
    const key = (series: string, number: number) => ({
      rucComprobante: RUC,
      tipoComprobante: '01',
      serieComprobante: series,
      numeroComprobante: number,
    });
    await bill.sendBillAsync(fileArgs(sign(invoice({ ruc: RUC, series: 'F004', number: 1 }))));
    await bill.sendBillAsync(fileArgs(sign(invoice({ ruc: RUC, series: 'F004', number: 2, igv: '30.00' }))));
    await bill.sendBillAsync(fileArgs(sign(invoice({ ruc: RUC, series: 'F004', number: 3 }))));
    // The ReferenceDate is the voided document's issue date (else 2375).
    const [ticket] = await bill.sendSummaryAsync(
      fileArgs(sign(voided(RUC, '2026-11-21', 1, [{ type: '01', series: 'F004', number: 3 }]))),
    );
    const [done] = await bill.getStatusAsync({ ticket: ticket.ticket });
    expect((done.status as { statusCode: string }).statusCode).to.equal('0');
    const codes = [];
    for (const [series, number] of [
      ['F004', 1],
      ['F004', 2],
      ['F004', 3],
      ['F004', 4],
    ] as const) {
      const [answer] = await consult.getStatusAsync(key(series, number));
      codes.push((answer.status as { statusCode: string }).statusCode);
    }
    expect(codes).to.deep.equal(['0001', '0002', '0003', '0011']);
  });

  it('sendPack is answered with SUNAT codes (0101 without WS-Security, then 0151), never a code-less fault', async () => {
    const anonymous = await client(urls(sim).bill, {}, null);
    const doc = sign(invoice({ ruc: RUC, series: 'F005', number: 1 }));
    expect((await faultOf(anonymous.sendPackAsync(fileArgs(doc)))).faultcode).to.equal('soap-env:Client.0101');
    expect((await faultOf(bill.sendPackAsync(fileArgs(doc)))).faultcode).to.equal('soap-env:Client.0151');
  });

  it('summaries: 13-digit tickets; RC and RA CDRs with SUNAT\'s wording, an empty IssueDate and recipient "6-"', async () => {
    const [rc] = await bill.sendSummaryAsync(fileArgs(sign(summary(RUC, '2026-11-21', 5))));
    expect(rc.ticket).to.match(/^\d{13}$/);
    const [rcStatus] = await bill.getStatusAsync({ ticket: rc.ticket });
    const rcCdr = cdrXml((rcStatus.status as { content: string }).content);
    expect(text(rcCdr, 'cbc:Description')).to.equal('El Resumen diario RC-20261121-5, ha sido aceptado');
    // An RA lists documents SUNAT received (else 2105).
    await bill.sendBillAsync(fileArgs(sign(invoice({ ruc: RUC, series: 'F009', number: 1 }))));
    const [ra] = await bill.sendSummaryAsync(
      fileArgs(sign(voided(RUC, '2026-11-21', 5, [{ type: '01', series: 'F009', number: 1 }]))),
    );
    expect(ra.ticket)
      .to.match(/^\d{13}$/)
      .and.not.equal(rc.ticket);
    const [raStatus] = await bill.getStatusAsync({ ticket: ra.ticket });
    const raCdr = cdrXml((raStatus.status as { content: string }).content);
    expect(text(raCdr, 'cbc:Description')).to.equal('La Comunicacion de baja RA-20261121-5, ha sido aceptada');
    for (const cdr of [rcCdr, raCdr]) {
      expect(text(cdr, 'cbc:IssueDate')).to.equal('');
      expect(text(cdr, 'cbc:ID')).to.match(/^\d{13}$/);
      expect(cdr).to.contain('<cac:RecipientParty><cac:PartyIdentification><cbc:ID>6-</cbc:ID>');
    }
  });

  it('the otros CPE billService (retention 20, perception 40): its own ?wsdl, a retention gets its CDR, an invoice gets 0302', async () => {
    // A retention needs a RUC with a valid check digit (the fixture's); its own signer and SOL user.
    const ruc = '20123456786';
    const signer = createSigner(generateTestCertificate({ ruc }));
    const signed = (doc: { filename: string; xml: string }) => ({
      filename: doc.filename,
      xml: signXml(doc.xml, signer).xml,
    });
    const other = await client(urls(sim).otherCpe, {}, `${ruc}MODDATOS`);
    expect(Object.keys(other.describe().billService.BillServicePort).sort()).to.deep.equal([
      'getStatus',
      'sendBill',
      'sendPack',
      'sendSummary',
    ]);
    const wsdl = await got(`${urls(sim).otherCpe}?wsdl`).text();
    for (const m of wsdl.matchAll(/address location="([^"]+)"/g)) expect(m[1]).to.equal(urls(sim).otherCpe);

    const base = fixture('retention.json');
    const payload = { ...base, correlativo: '901' };
    const retention = prepareDocument(payload);
    const [answer] = await other.sendBillAsync(fileArgs(signed(retention)));
    const cdr = cdrXml(answer.applicationResponse as string);
    expect(text(cdr, 'cbc:ResponseCode')).to.equal('0');
    expect(cdr).to.contain(`R001-901`);

    const misrouted = await faultOf(
      other.sendBillAsync(fileArgs(signed(invoice({ ruc, series: 'F001', number: 901 })))),
    );
    expect(misrouted.faultcode).to.match(/0302$/);
    // And the CPE billService does not take a retention.
    const cpe = await client(urls(sim).bill, {}, `${ruc}MODDATOS`);
    const wrong = await faultOf(
      cpe.sendBillAsync(
        fileArgs(
          signed({
            xml: retention.xml.replace('R001-901', 'R001-902'),
            filename: retention.filename.replace(/901$/, '902'),
          }),
        ),
      ),
    );
    expect(wrong.faultcode).to.match(/0302$/);
  });
});

describe("simulator through an independent SOAP client: SUNAT's dates and references", () => {
  const today = limaDate(new Date());
  let sim: SimulatorHandle;
  let bill: Client;
  before(async () => {
    // As `chasqui simulator` runs by default: SUNAT's sending window, SUNAT's rule dates.
    sim = await startSimulator({ ticketPolls: 0 });
    bill = await client(urls(sim).bill);
  });
  after(async () => {
    await sim.close();
  });

  const dated = (series: string, number: number, issueDate: string, type?: '01' | '03') =>
    sign(invoice({ ruc: RUC, series, number, issueDate, type }));
  const responseCode = (answer: Record<string, unknown>) => {
    const read = readCdrZip(Buffer.from(answer.applicationResponse as string, 'base64'));
    if (!read.ok) throw new Error(read.reason);
    return read.cdr.responseCode;
  };
  /** The CDR of a summary's ticket: its ResponseCode and Description. */
  async function summaryVerdict(doc: {
    filename: string;
    xml: string;
  }): Promise<{ code: string | null; description: string | null }> {
    const [sent] = await bill.sendSummaryAsync(fileArgs(sign(doc)));
    const [status] = await bill.getStatusAsync({ ticket: sent.ticket });
    const xml = cdrXml((status.status as { content: string }).content);
    return { code: text(xml, 'cbc:ResponseCode'), description: text(xml, 'cbc:Description') };
  }

  it("2108: a document past SUNAT's sending window (3 days) is rejected; on its last day it is received", async () => {
    const [old] = await bill.sendBillAsync(fileArgs(dated('F101', 1, '2024-03-15')));
    expect(responseCode(old)).to.equal('2108');
    expect(cdrXml(old.applicationResponse as string)).to.contain(
      'Presentacion fuera de fecha - Detalle: IssueDate 2024-03-15: SUNAT receives it up to 3 days after its issue date',
    );
    const [late] = await bill.sendBillAsync(fileArgs(dated('F101', 2, addDays(today, -4))));
    expect(responseCode(late)).to.equal('2108');
    const [receipt] = await bill.sendBillAsync(fileArgs(dated('B101', 1, addDays(today, -4), '03')));
    expect(responseCode(receipt)).to.equal('2108');
    const [lastDay] = await bill.sendBillAsync(fileArgs(dated('F101', 3, addDays(today, -3))));
    expect(responseCode(lastDay)).to.equal('0');
  });

  it('the switch: sendingWindowDays 0 (CHASQUI_SIMULATOR_SENDING_WINDOW_DAYS=0, --sending-window-days 0) receives a 2024 invoice', async () => {
    expect(loadConfig({}).simulatorSendingWindowDays).to.equal(3);
    expect(loadConfig({ CHASQUI_SIMULATOR_SENDING_WINDOW_DAYS: '0' }).simulatorSendingWindowDays).to.equal(0);
    const open = await startSimulator({ ticketPolls: 0, sendingWindowDays: 0 });
    try {
      const [answer] = await (await client(urls(open).bill)).sendBillAsync(fileArgs(dated('F102', 1, '2024-03-15')));
      expect(responseCode(answer)).to.equal('0');
    } finally {
      await open.close();
    }
  });

  it('0151: a SOAP fileName without .zip is refused, for sendBill and sendSummary; nothing is received', async () => {
    const doc = dated('F103', 1, today);
    const { contentFile } = fileArgs(doc);
    for (const fileName of [doc.filename, `${doc.filename}.xml`]) {
      expect(await faultOf(bill.sendBillAsync({ fileName, contentFile })), fileName).to.deep.include({
        faultcode: 'soap-env:Client.0151',
        faultstring: 'El nombre del archivo ZIP es incorrecto',
      });
    }
    const rc = summary(RUC, today, 901);
    expect(
      (await faultOf(bill.sendSummaryAsync({ fileName: rc.filename, contentFile: fileArgs(sign(rc)).contentFile })))
        .faultcode,
    ).to.equal('soap-env:Client.0151');
    const [received] = await bill.sendBillAsync(fileArgs(doc));
    expect(responseCode(received)).to.equal('0');
  });

  it('voided-documents communications (RA): 2105 for a document never sent, 2323 for one already voided, 2375 for another reference date', async () => {
    const never = await summaryVerdict(voided(RUC, today, 101, [{ type: '01', series: 'F104', number: 1 }]));
    expect(never).to.deep.equal({
      code: '2105',
      description: `Comprobante a dar de baja no se encuentra registrado en SUNAT - Detalle: 01 F104-1 was never received or was rejected`,
    });
    await bill.sendBillAsync(fileArgs(dated('F104', 2, today)));
    const yesterday = addDays(today, -1);
    const wrongDate = await summaryVerdict(voided(RUC, yesterday, 102, [{ type: '01', series: 'F104', number: 2 }]));
    expect(wrongDate.code).to.equal('2375');
    expect(wrongDate.description).to.contain(`01 F104-2 was issued on ${today}, not on the ReferenceDate ${yesterday}`);
    expect((await summaryVerdict(voided(RUC, today, 103, [{ type: '01', series: 'F104', number: 2 }]))).code).to.equal(
      '0',
    );
    const again = await summaryVerdict(voided(RUC, today, 104, [{ type: '01', series: 'F104', number: 2 }]));
    expect(again).to.deep.equal({
      code: '2323',
      description:
        'Existe documento ya informado anteriormente en una comunicacion de baja - Detalle: 01 F104-2 is already voided',
    });
  });

  it('dated rules by issue date: a summary line without its IGV rate is 2992 (since 2026-02-01); with it, accepted', async () => {
    const withIgv = (seq: number, percent: string) => {
      const rc = summary(RUC, today, seq);
      const tax = `<cac:TaxTotal><cbc:TaxAmount currencyID="PEN">1.80</cbc:TaxAmount><cac:TaxSubtotal><cbc:TaxAmount currencyID="PEN">1.80</cbc:TaxAmount><cac:TaxCategory>${percent}<cac:TaxScheme><cbc:ID>1000</cbc:ID><cbc:Name>IGV</cbc:Name><cbc:TaxTypeCode>VAT</cbc:TaxTypeCode></cac:TaxScheme></cac:TaxCategory></cac:TaxSubtotal></cac:TaxTotal>`;
      return {
        filename: rc.filename,
        xml: rc.xml.replace('</sac:SummaryDocumentsLine>', `${tax}</sac:SummaryDocumentsLine>`),
      };
    };
    const missing = await summaryVerdict(withIgv(201, ''));
    expect(missing.code).to.equal('2992');
    expect(missing.description).to.match(
      /^El XML no contiene el tag de la tasa del tributo de la línea - Detalle: summary line 1 has no IGV rate/,
    );
    expect((await summaryVerdict(withIgv(202, '<cbc:Percent>18.00</cbc:Percent>'))).code).to.equal('0');
  });

  it('dated rules moved with the calendar (config.rules): an invalid product code is 3496 from the moved date, a line without one never', async () => {
    const invalid = (number: number, issueDate: string) =>
      sign(invoice({ ruc: RUC, series: 'F105', number, issueDate, productCode: '12345678' }));
    const [byDefault] = await bill.sendBillAsync(fileArgs(invalid(1, today)));
    expect(responseCode(byDefault), "product-code-valid is not in force today by SUNAT's dates").to.equal('0');
    const moved = await startSimulator({ ticketPolls: 0, rules: new RuleCalendar({ 'product-code-valid': today }) });
    try {
      const early = await client(urls(moved).bill);
      const [refused] = await early.sendBillAsync(fileArgs(invalid(1, today)));
      expect(responseCode(refused)).to.equal('3496');
      expect(cdrXml(refused.applicationResponse as string)).to.contain(
        `line 1: 12345678 is not in catalog 25 (nor 00000000 or 99999999); SUNAT's product code is not valid since ${today} (nodo: InvoiceLine[1]/Item/CommodityClassification/ItemClassificationCode)`,
      );
      // Factura2_0 field 28: "Si el tag existe" — without a code, or with a reserved one, the invoice is accepted.
      const [noCode] = await early.sendBillAsync(fileArgs(dated('F105', 2, today)));
      expect(responseCode(noCode)).to.equal('0');
      const [reserved] = await early.sendBillAsync(
        fileArgs(sign(invoice({ ruc: RUC, series: 'F105', number: 3, issueDate: today, productCode: '00000000' }))),
      );
      expect(responseCode(reserved)).to.equal('0');
      // Issued the day before the moved date and sent now: judged by the old rules.
      const [before] = await early.sendBillAsync(fileArgs(invalid(4, addDays(today, -1))));
      expect(responseCode(before)).to.equal('0');
    } finally {
      await moved.close();
    }
  });

  it('the IGV rate of the issue date (Factura2_0 fields 46/47): the special rate of today accepted (10.5 in 2026), 10 refused with 3103; 18 always', async () => {
    const at = (number: number, issueDate: string, rate: string) =>
      sign(invoice({ ruc: RUC, series: 'F106', number, issueDate, rate }));
    const { special } = DEFAULT_CALENDAR.igvRates(today);
    if (today < '2027-01-01') expect(special).to.equal(10.5);
    if (special !== null) {
      const [accepted] = await bill.sendBillAsync(fileArgs(at(1, today, special.toFixed(2))));
      expect(responseCode(accepted)).to.equal('0');
    }
    const [old] = await bill.sendBillAsync(fileArgs(at(2, today, '10.00')));
    expect(responseCode(old)).to.equal('3103');
    expect(cdrXml(old.applicationResponse as string)).to.contain(
      `line 1 has IGV rate 10.00; a document issued on ${today} may carry ${special === null ? '18' : `18 or ${special}`}`,
    );
    const [general] = await bill.sendBillAsync(fileArgs(at(3, today, '18.00')));
    expect(responseCode(general)).to.equal('0');
  });
});
