/**
 * The simulator's GRE REST API as a plain HTTP client sees it (got, PROTOCOL.md §4 and the OpenAPI in
 * sunat/wsdl), never through chasqui's connector. Each `it` is a row of the table in docs/authority.md.
 */
import { expect } from 'chai';
import { createHash } from 'node:crypto';
import got from 'got';
import { readCdrZip } from '../../authority/cdr';
import { zipXml } from '../../authority/zip';
import { type SimulatorHandle } from '../../simulator/server';
import { startTestSimulator } from '../support/simulator';
import { despatch } from '../support/ubl-fixtures';
import { RUC, sign, urls } from './support';

const CLIENT = { id: 'f3b0c7a2-gre-client', secret: 'Hty/M6QshYvPgItX2P0+Kw==' };
const SCOPE = 'https://api-cpe.sunat.gob.pe';

describe('simulator GRE API through plain HTTP', () => {
  let sim: SimulatorHandle;
  let base: string;
  before(async () => {
    sim = await startTestSimulator({
      ticketPolls: 0,
      credentials: [
        { ruc: RUC, user: 'GUIAS01', password: 'clave1', clientId: CLIENT.id, clientSecret: CLIENT.secret },
      ],
    });
    base = urls(sim).gre.api;
  });
  after(async () => {
    await sim.close();
  });

  const form = (over: Record<string, string | undefined> = {}) => {
    const all: Record<string, string | undefined> = {
      grant_type: 'password',
      scope: SCOPE,
      client_id: CLIENT.id,
      client_secret: CLIENT.secret,
      username: `${RUC}GUIAS01`,
      password: 'clave1',
      ...over,
    };
    return Object.fromEntries(Object.entries(all).filter(([, v]) => v !== undefined)) as Record<string, string>;
  };
  const tokenRequest = (over: Record<string, string | undefined> = {}, pathClient = CLIENT.id) =>
    got.post(`${urls(sim).gre.auth}/clientessol/${pathClient}/oauth2/token/`, {
      form: form(over),
      throwHttpErrors: false,
    });

  async function bearer(): Promise<Record<string, string>> {
    const res = await tokenRequest();
    return { authorization: `Bearer ${JSON.parse(res.body).access_token}` };
  }

  function sendBody(doc: { filename: string; xml: string }) {
    const zip = zipXml(doc.filename, doc.xml);
    return {
      archivo: {
        nomArchivo: `${doc.filename}.zip`,
        arcGreZip: zip.toString('base64'),
        hashZip: createHash('sha256').update(zip).digest('hex'),
      },
    };
  }

  async function sendAndPoll(doc: { filename: string; xml: string }): Promise<Record<string, unknown>> {
    const headers = await bearer();
    const sent = await got
      .post(`${base}/contribuyente/gem/comprobantes/${doc.filename}`, { headers, json: sendBody(doc) })
      .json<{ numTicket: string }>();
    return got(`${base}/contribuyente/gem/comprobantes/envios/${sent.numTicket}`, { headers }).json<
      Record<string, unknown>
    >();
  }

  it('token: refuses a wrong client_secret, a path client_id other than the body\'s and an unregistered client for a SOL user ("cliente no autorizado")', async () => {
    const unauthorised = { error: 'invalid_client', error_description: 'cliente no autorizado' };
    for (const [label, res] of [
      ['wrong secret', await tokenRequest({ client_secret: 'not-the-secret' })],
      ['path ≠ body', await tokenRequest({}, 'another-client')],
      ['unregistered client', await tokenRequest({ client_id: 'unknown-client' }, 'unknown-client')],
    ] as const) {
      expect(res.statusCode, label).to.equal(401);
      expect(JSON.parse(res.body), label).to.deep.equal(unauthorised);
    }
    expect((await tokenRequest({ password: 'wrong' })).statusCode).to.equal(401);
  });

  it('token: refuses a request without scope or with another scope (400), and answers a JWT with token_type "JWT"', async () => {
    const noScope = await tokenRequest({ scope: undefined });
    expect(noScope.statusCode).to.equal(400);
    expect(JSON.parse(noScope.body)).to.deep.include({ error: 'invalid_request' });
    const otherScope = await tokenRequest({ scope: 'https://api.sunat.gob.pe' });
    expect(otherScope.statusCode).to.equal(400);
    expect(JSON.parse(otherScope.body)).to.deep.include({ error: 'invalid_scope' });
    const ok = await tokenRequest();
    expect(ok.statusCode).to.equal(200);
    const body = JSON.parse(ok.body) as { access_token: string; token_type: string; expires_in: number };
    expect(body.token_type).to.equal('JWT');
    const parts = body.access_token.split('.');
    expect(parts).to.have.length(3);
    const payload = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8'));
    expect(payload).to.include({ sub: RUC, aud: SCOPE });
    expect(payload.exp - payload.iat).to.equal(body.expires_in);
  });

  it("an accepted guide's CDR carries SUNAT's QR link in DocumentReference/DocumentDescription, a UUID ID and SUNAT's wording", async () => {
    const status = await sendAndPoll(sign(despatch(RUC, 'T001', 1)));
    expect(status).to.include({ codRespuesta: '0', indCdrGenerado: '1' });
    const read = readCdrZip(Buffer.from(status.arcCdr as string, 'base64'));
    if (!read.ok) throw new Error(read.reason);
    const { xml } = read.cdr;
    expect(read.cdr.id).to.match(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(read.cdr.issueDate).to.match(/^\d{4}-\d{2}-\d{2}$/);
    expect(read.cdr.issueTime).to.match(/^\d{2}:\d{2}:\d{2}\.\d{3}$/);
    expect(read.cdr.description).to.equal('El Comprobante  numero T001-1, ha sido aceptado');
    expect(xml).to.match(
      /<cac:DocumentReference><cbc:ID>T001-1<\/cbc:ID><cbc:DocumentDescription>https:\/\/e-factura\.sunat\.gob\.pe\/v1\/contribuyente\/gre\/comprobantes\/descargaqr\?hashqr=[0-9a-f]{64}<\/cbc:DocumentDescription><\/cac:DocumentReference>/,
    );
    expect(xml).to.contain('<cbc:ID>6-20100070970</cbc:ID>');
    expect(read.cdr.signature).to.deep.include({
      verified: true,
      signatureMethod: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha512',
    });
  });

  it('an exception found after the ticket is given comes back as 99 with indCdrGenerado "0" and no CDR', async () => {
    const unsigned = despatch(RUC, 'T001', 2);
    const status = await sendAndPoll(unsigned);
    expect(status).to.deep.equal({
      codRespuesta: '99',
      error: { numError: '1059', desError: 'El XML no contiene firma digital.' },
      indCdrGenerado: '0',
    });
    // No CDR, no number taken: the corrected guide goes through under the same number.
    expect(await sendAndPoll(sign(unsigned))).to.include({ codRespuesta: '0' });
  });

  it('a rejection comes back as 99 with its CDR (indCdrGenerado "1")', async () => {
    sim.addRule({ operation: 'greSend', number: 3, fault: { kind: 'reject', code: '2560' }, times: 1 });
    const status = await sendAndPoll(sign(despatch(RUC, 'T001', 3)));
    expect(status).to.deep.include({ codRespuesta: '99', indCdrGenerado: '1' });
    expect((status.error as { numError: string }).numError).to.equal('2560');
    expect(readCdrZip(Buffer.from(status.arcCdr as string, 'base64'))).to.deep.nested.include({
      'cdr.responseCode': '2560',
    });
  });

  it("a guide of another RUC is refused as the request's error (422, 0154), not 401 (the token is valid)", async () => {
    const other = sign(despatch('20999999999', 'T001', 1));
    const res = await got.post(`${base}/contribuyente/gem/comprobantes/${other.filename}`, {
      headers: await bearer(),
      json: sendBody(other),
      throwHttpErrors: false,
    });
    expect(res.statusCode).to.equal(422);
    expect(JSON.parse(res.body)).to.deep.include({ cod: '0154' });
  });

  it('a GRE client registered through /__admin/credentials gets tokens for its RUC only; its secret is never listed', async () => {
    const client = {
      ruc: '20555555551',
      user: 'GUIAS02',
      password: 'clave2',
      clientId: 'admin-client',
      clientSecret: 'admin-secret',
    };
    const listed = await got.post(`${sim.url}/__admin/credentials`, { json: client }).json<Record<string, string>[]>();
    expect(listed).to.deep.include({ ruc: client.ruc, user: client.user, clientId: client.clientId });
    expect(JSON.stringify(listed)).to.not.contain('admin-secret');
    const request = (username: string, password: string) =>
      got.post(`${urls(sim).gre.auth}/clientessol/${client.clientId}/oauth2/token/`, {
        form: {
          grant_type: 'password',
          scope: SCOPE,
          client_id: client.clientId,
          client_secret: client.clientSecret,
          username,
          password,
        },
        throwHttpErrors: false,
      });
    expect((await request(`${client.ruc}${client.user}`, client.password)).statusCode).to.equal(200);
    expect((await request(`${RUC}GUIAS01`, 'clave1')).statusCode, 'another RUC through this client').to.equal(401);
    const half = await got.post(`${sim.url}/__admin/credentials`, {
      json: { ...client, clientSecret: undefined },
      throwHttpErrors: false,
    });
    expect(half.statusCode).to.equal(400);
  });
  it('a guide by public transport (modalidad 01) is judged by gre-loading-date on its issue date: 3617 without the date goods were handed to the carrier', async () => {
    const byPublicTransport = (number: number, issueDate: string, loading?: string) => {
      const doc = despatch(RUC, 'T001', number);
      const stage = `<cac:ShipmentStage><cbc:TransportModeCode>01</cbc:TransportModeCode>${loading ? `<cac:LoadingTransportEvent><cbc:OccurrenceDate>${loading}</cbc:OccurrenceDate></cac:LoadingTransportEvent>` : ''}</cac:ShipmentStage>`;
      const xml = doc.xml
        .replace('<cbc:IssueDate>2026-11-21</cbc:IssueDate>', `<cbc:IssueDate>${issueDate}</cbc:IssueDate>`)
        .replace(
          '</DespatchAdvice>',
          `<cac:Shipment><cbc:ID>SUNAT_Envio</cbc:ID>${stage}</cac:Shipment></DespatchAdvice>`,
        );
      return sign({ filename: doc.filename, xml });
    };
    const missing = await sendAndPoll(byPublicTransport(31, '2026-06-01'));
    expect(missing).to.deep.include({ codRespuesta: '99', indCdrGenerado: '1' });
    expect((missing.error as { numError: string; desError: string }).numError).to.equal('3617');
    expect((missing.error as { desError: string }).desError).to.match(
      // SUNAT's text for 3617 (its error catalog of July 2026, sunat/codes/return-codes.csv), then the detail.
      /^No ha ingresado el campo de “Fecha de entrega de bienes al transportista” o esta vacio - Detalle: .*modalidad 01/,
    );
    const early = await sendAndPoll(byPublicTransport(32, '2026-06-01', '2026-05-31'));
    expect((early.error as { numError: string }).numError).to.equal('3618');
    expect(await sendAndPoll(byPublicTransport(33, '2026-06-01', '2026-06-01'))).to.deep.include({ codRespuesta: '0' });
    // Issued the day before the rule (and sent after it): judged by the old rules.
    expect(await sendAndPoll(byPublicTransport(34, '2026-05-31'))).to.deep.include({ codRespuesta: '0' });
  });
});
