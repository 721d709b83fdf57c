/**
 * The simulator as a third-party client sees SUNAT: every call here goes through the `soap` npm library, built from
 * the WSDL the simulator serves at its own `?wsdl` (never through chasqui's connector). Requests a WSDL client cannot
 * produce (an unknown operation, a qualified part, an XOP include) are posted as plain HTTP. Each `it` is a row of
 * the table in docs/authority.md. SUNAT's dates and references are in soap-client-dates.test.ts.
 */
import { expect } from 'chai';
import got from 'got';
import { DOMParser } from '@xmldom/xmldom';
import { SignedXml } from 'xml-crypto';
import { zipSync, strToU8 } from 'fflate';
import { readCdrZip } from '../../authority/cdr';
import { zipXml } from '../../authority/zip';
import { type SimulatorHandle } from '../../simulator/server';
import { startTestSimulator } from '../support/simulator';
import { invoice, summary, voided } from '../support/ubl-fixtures';
import { prepareDocument } from '../../documents';
import { fixture } from '../support/documents';
import { createSigner, generateTestCertificate, signXml } from '../../documents/signing';
import { RUC, sign, urls } from './support';
import { DS, type Client, client, faultOf, fileArgs, cdrXml, text } from './soap-client-support';

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
