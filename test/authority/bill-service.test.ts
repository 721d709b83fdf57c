import { expect } from 'chai';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { generateTestCertificate } from '../../documents/signing';
import { getStatus, getStatusCdr, sendBill, sendSummary } from '../../authority/bill-service';
import { unzipFiles } from '../../authority/zip';
import { cdrZip, closedPortUrl, CREDS, rawServer, replayServer, sample, sendBillResponse, soapFault } from './support';

const FILE = { filename: '12345678912-01-F001-1', xml: '<Invoice>simulated content</Invoice>' };
const signedCdr = sample('cdr/R-12345678912-01-F001-1.xml');

function withCode(xml: string, code: string, description: string): string {
  return xml
    .replace('<cbc:ResponseCode>0</cbc:ResponseCode>', `<cbc:ResponseCode>${code}</cbc:ResponseCode>`)
    .replace(/<cbc:Description>[^<]*<\/cbc:Description>/, `<cbc:Description>${description}</cbc:Description>`);
}

async function sendBillAgainst(status: number, body: string, contentType?: string) {
  const server = await replayServer(status, body, contentType);
  try {
    return { result: await sendBill(server.url, CREDS, FILE), requests: server.requests };
  } finally {
    await server.close();
  }
}

describe('authority billService connector over real HTTP', () => {
  it('sends a WS-Security envelope with the zip named like the XML, and reads the recorded SUNAT answer', async () => {
    const { result, requests } = await sendBillAgainst(200, sample('soap/bill_service_response_ok.xml'));
    expect(result).to.deep.include({
      status: 'accepted',
      code: '0',
      origin: null,
      action: null,
      reached_sunat: true,
      httpStatus: 200,
    });
    expect(result.message).to.equal('La Factura numero F001-1, ha sido aceptada');
    expect(result.cdr?.referenceId).to.equal('F001-1');
    expect(result.cdrZip).to.match(/^UEsDBBQAAgAIAEwklVc/);
    const body = requests[0].body;
    expect(requests[0].headers.soapaction).to.equal('urn:sendBill');
    expect(body).to.contain('<wsse:Username>12345678912MODDATOS</wsse:Username>');
    expect(body).to.contain('#PasswordText">moddatos</wsse:Password>');
    expect(body).to.contain('<fileName>12345678912-01-F001-1.zip</fileName>');
    const zip = Buffer.from(/<contentFile>([^<]+)<\/contentFile>/.exec(body)![1], 'base64');
    const files = unzipFiles(zip);
    expect(files.ok && files.entries.map((e) => [e.name, Buffer.from(e.data).toString()])).to.deep.equal([
      ['12345678912-01-F001-1.xml', FILE.xml],
    ]);
  });

  it('turns the recorded 0111 fault into a tax-authority exception to correct', async () => {
    const { result } = await sendBillAgainst(500, sample('soap/bill_service_response_fault.xml'));
    expect(result).to.deep.include({
      origin: 'tax_authority',
      reached_sunat: true,
      action: 'correct',
      status: 'rejected',
      code: '0111',
    });
    expect(result.errors).to.deep.equal([
      '[SUNAT 0111] No tiene el perfil para enviar comprobantes electronicos - Detalle: Rejected by policy.',
    ]);
  });

  it('reads a beta-style rejection sent as a fault', async () => {
    const text =
      'El comprobante fue rechazado - Detalle: xxx.xxx.xxx value=\'ticket: 123 error: INFO: 3103 (nodo: "cac:TaxSubtotal/cbc:TaxAmount" valor: "36.00")\'';
    const { result } = await sendBillAgainst(500, soapFault('3103', text));
    expect(result).to.deep.include({ origin: 'tax_authority', status: 'rejected', code: '3103', action: 'correct' });
  });

  it('treats 1033 as already reported: query, do not correct', async () => {
    const { result } = await sendBillAgainst(
      500,
      soapFault('1033', 'El comprobante fue registrado previamente con otros datos'),
    );
    expect(result).to.deep.include({
      origin: 'tax_authority',
      status: 'unknown',
      alreadyReported: true,
      needsStatusQuery: true,
      action: 'review',
      code: '1033',
    });
  });

  it('treats SUNAT "cannot answer" exceptions (0100, 0130…) as not received: retry', async () => {
    const { result } = await sendBillAgainst(
      500,
      soapFault('0130', 'El sistema no puede responder su solicitud. (No se pudo obtener el ticket de proceso)'),
    );
    expect(result).to.deep.include({ origin: 'connection', reached_sunat: false, action: 'retry', code: '0130' });
    expect(result.errors[0]).to.match(/^\[SUNAT 0130\]/);
  });

  it('classifies CDR verdicts: rejection 2xxx/3xxx, observation 4xxx, notes on code 0', async () => {
    const rejected = (
      await sendBillAgainst(
        200,
        sendBillResponse(
          cdrZip(FILE.filename, withCode(signedCdr, '2335', 'El documento electrónico ingresado ha sido alterado')),
        ),
      )
    ).result;
    expect(rejected).to.deep.include({
      status: 'rejected',
      origin: 'tax_authority',
      action: 'correct',
      code: '2335',
      reached_sunat: true,
    });
    expect(rejected.errors).to.deep.equal(['[SUNAT 2335] El documento electrónico ingresado ha sido alterado']);
    expect(rejected.cdr?.responseCode).to.equal('2335');

    const observed = (
      await sendBillAgainst(200, sendBillResponse(cdrZip(FILE.filename, withCode(signedCdr, '4000', 'observada'))))
    ).result;
    expect(observed).to.deep.include({ status: 'observed', origin: null, action: null, code: '4000' });

    const withNotes = (
      await sendBillAgainst(
        200,
        sendBillResponse(cdrZip('20220557805-01-F001-22', sample('cdr/R-20220557805-01-F001-22Openubl.xml'))),
      )
    ).result;
    expect(withNotes.status).to.equal('observed');
    expect(withNotes.observations).to.have.length(8);
    expect(withNotes.observations[0]).to.match(
      /^\[SUNAT 4252\] El dato ingresado como atributo @listName es incorrecto/,
    );
  });

  it('answers that cannot be processed are system failures (reached, review)', async () => {
    const cases: [number, string, string | undefined, string][] = [
      [200, '', undefined, 'EMPTY_ANSWER'],
      [500, '<html><body><h1>Internal Server Error</h1></body></html>', 'text/html', 'UNREADABLE_ANSWER'],
      [200, '<html><body>Mantenimiento</body></html>', 'text/html', 'UNREADABLE_ANSWER'],
      [200, sendBillResponse(Buffer.from('not a zip').toString('base64')), undefined, 'CDR_UNREADABLE'],
      [
        200,
        sendBillResponse(
          cdrZip(
            FILE.filename,
            '<ar:ApplicationResponse xmlns:ar="urn:oasis:names:specification:ubl:schema:xsd:ApplicationResponse-2"><broken',
          ),
        ),
        undefined,
        'CDR_UNREADABLE',
      ],
      [
        200,
        sendBillResponse(cdrZip('20600995805-01-F001-1', sample('cdr/R-20600995805-01-F001-1.xml'))),
        undefined,
        'CDR_UNSIGNED',
      ],
      [200, sendBillResponse(''), undefined, 'NO_CDR'],
    ];
    for (const [status, body, type, code] of cases) {
      const { result } = await sendBillAgainst(status, body, type);
      expect(result, code).to.deep.include({
        origin: 'system',
        reached_sunat: true,
        action: 'review',
        code,
        status: 'unknown',
        needsStatusQuery: true,
      });
      expect(result.errors[0], code).to.match(new RegExp(`^\\[chasqui ${code}\\] `));
    }
  });

  it('gateway answers: 502/503 not received (retry), 504 unknown (review)', async () => {
    expect((await sendBillAgainst(503, 'Service Unavailable', 'text/plain')).result).to.deep.include({
      origin: 'connection',
      reached_sunat: false,
      action: 'retry',
    });
    expect((await sendBillAgainst(504, 'Gateway Timeout', 'text/plain')).result).to.deep.include({
      origin: 'timeout',
      reached_sunat: null,
      action: 'review',
    });
  });

  it('connection refused, reset and DNS failure are connection failures (not received, retry)', async () => {
    const refused = await sendBill(await closedPortUrl(), CREDS, FILE);
    expect(refused).to.deep.include({
      origin: 'connection',
      reached_sunat: false,
      action: 'retry',
      code: 'ECONNREFUSED',
    });

    const reset = await rawServer('reset');
    try {
      const result = await sendBill(reset.url, CREDS, FILE);
      expect(result).to.deep.include({
        origin: 'connection',
        reached_sunat: false,
        action: 'retry',
        code: 'ECONNRESET',
      });
    } finally {
      await reset.close();
    }

    const dns = await sendBill('http://sunat-host.invalid/ol-ti-itcpfegem-beta/billService', CREDS, FILE);
    expect(dns).to.deep.include({ origin: 'connection', reached_sunat: false, action: 'retry' });
    expect(dns.code).to.be.oneOf(['ENOTFOUND', 'EAI_AGAIN']);
  });

  it('verifies TLS: a server with an untrusted certificate is not reached (connection)', async () => {
    const cert = generateTestCertificate({ commonName: '127.0.0.1' });
    const server = https.createServer({ key: cert.privateKeyPem, cert: cert.certificatePem }, (_req, res) =>
      res.end(sample('soap/bill_service_response_ok.xml')),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const result = await sendBill(`https://127.0.0.1:${port}/ol-ti-itcpfegem/billService`, CREDS, FILE);
      expect(result).to.deep.include({
        origin: 'connection',
        reached_sunat: false,
        action: 'retry',
        code: 'DEPTH_ZERO_SELF_SIGNED_CERT',
      });
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('no answer within the response timeout is a timeout (unknown whether received, review)', async () => {
    const hang = await rawServer('hang');
    try {
      const result = await sendBill(hang.url, CREDS, FILE, { timeouts: { connectMs: 1000, responseMs: 300 } });
      expect(result).to.deep.include({
        origin: 'timeout',
        reached_sunat: null,
        action: 'review',
        needsStatusQuery: true,
        code: 'ETIMEDOUT',
      });
    } finally {
      await hang.close();
    }
  });

  it('sendSummary reads the recorded ticket; getStatus reads the recorded processed ticket', async () => {
    const ticketServer = await replayServer(200, sample('soap/bill_service_response_ticket.xml'));
    const statusServer = await replayServer(200, sample('soap/get_status_response_ok.xml'));
    try {
      const sent = await sendSummary(ticketServer.url, CREDS, {
        filename: '12345678912-RA-20200328-1.xml',
        xml: '<VoidedDocuments/>',
      });
      expect(sent).to.deep.include({ status: 'ticket', ticket: '1703154974517', origin: null, reached_sunat: true });
      expect(ticketServer.requests[0].body).to.contain('<fileName>12345678912-RA-20200328-1.zip</fileName>');
      const status = await getStatus(statusServer.url, CREDS, '1703154974517');
      expect(status).to.deep.include({ status: 'accepted', code: '0', ticket: '1703154974517' });
      expect(status.cdr?.referenceId).to.equal('RA-20200328-1');
      expect(statusServer.requests[0].body).to.contain('<ticket>1703154974517</ticket>');
    } finally {
      await ticketServer.close();
      await statusServer.close();
    }
  });

  it('getStatusCdr sends the document key and maps "not found" to not received', async () => {
    const notFound = await replayServer(
      200,
      '<S:Envelope xmlns:S="http://schemas.xmlsoap.org/soap/envelope/"><S:Body><ns2:getStatusCdrResponse xmlns:ns2="http://service.sunat.gob.pe"><statusCdr><statusCode>0011</statusCode><statusMessage>Comprobante no encontrado o no existe</statusMessage></statusCdr></ns2:getStatusCdrResponse></S:Body></S:Envelope>',
    );
    try {
      const result = await getStatusCdr(notFound.url, CREDS, {
        ruc: '12345678912',
        type: '01',
        series: 'F001',
        number: '00000001',
      });
      expect(result).to.deep.include({ origin: 'tax_authority', reached_sunat: false, action: 'retry', code: '0011' });
      expect(notFound.requests[0].body).to.contain(
        '<rucComprobante>12345678912</rucComprobante><tipoComprobante>01</tipoComprobante><serieComprobante>F001</serieComprobante><numeroComprobante>1</numeroComprobante>',
      );
    } finally {
      await notFound.close();
    }
  });
});
