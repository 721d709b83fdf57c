import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { sendBill } from '../../authority';
import { prepareDocument } from '../../documents';
import { createSigner, generateTestCertificate, signXml } from '../../documents/signing';
import { signalDocumentWorkflow } from '../../workflows/document-client';
import {
  accountBalances,
  call,
  issue,
  newCompany,
  payload,
  startIssuingStack,
  until,
  type IssuingStack,
  type TestCompany,
} from './support';

/** The catalog 51 operations with data of their own, issued through the API and delivered to the simulator. */
const KINDS = [
  'invoice-perception.json',
  'receipt-perception.json',
  'receipt-detraccion.json',
  'invoice-detraction-1002.json',
  'invoice-detraction-1003.json',
  'invoice-detraction-1004.json',
  'invoice-operation-0301.json',
  'receipt-operation-0302.json',
  'invoice-operation-2100.json',
  'invoice-operation-2104.json',
  'receipt-operation-2105.json',
  'liquidacion-compra.json',
  'liquidacion-compra-oro.json',
  'liquidacion-compra-renta.json',
  'retention.json',
  'perception.json',
  'perception-combustible.json',
  'retention-credit-note.json',
  'perception-credit-note.json',
];

describe('issuing percepción, detracciones 1002–1004, the other catalog 51 operations, 04, 20 and 40 (API → simulator)', function () {
  this.timeout(90_000);
  let env: IssuingStack;
  let demo: TestCompany;
  before(async function () {
    this.timeout(120_000);
    env = await startIssuingStack();
    demo = await newCompany(env.stack);
  });
  after(() => env?.stop());

  for (const fixture of KINDS) {
    it(`${fixture}: 202, delivered and accepted`, async () => {
      const body = payload(fixture, demo.ruc);
      const res = await issue(env.stack, demo.token, body);
      expect(res.status, JSON.stringify(res.body)).to.equal(202);
      const xml = Buffer.from(res.body.xml, 'base64').toString('utf8');
      if (body.tipoOperacion) expect(xml).to.include(`listID="${body.tipoOperacion}"`);
      const done = await until(env.stack, res.body.external_id, ['accepted', 'observed', 'rejected']);
      expect(done.status, JSON.stringify(done.result)).to.equal('accepted');
      const got = await call(env.stack, 'GET', `/v1/cpe/${res.body.external_id}`, { token: demo.token });
      expect(got.body.data.document).to.include({ status: 'accepted', resolved: true, document_type_id: body.tipoDoc });
    });
  }

  it("SUNAT's refusals of a wrong percepción come back as 422 with SUNAT's codes; nothing is signed or stored", async () => {
    const invalid = JSON.parse(
      fs.readFileSync(path.resolve(__dirname, '../fixtures/documents/invalid/perception-rules.json'), 'utf8'),
    );
    const body = { ...invalid.payload, emisor: { ...invalid.payload.emisor, ruc: demo.ruc } };
    const before = await env.stack.db('documents').where({ company_id: demo.row.id }).count('* as n');
    const res = await issue(env.stack, demo.token, body);
    expect(res.status).to.equal(422);
    expect(res.body).to.include({ success: false, origin: 'validation', action: 'correct', reached_sunat: false });
    const codes = (res.body.errors as string[]).map((e) => /^\[SUNAT (\d{4})\]/.exec(e)?.[1]);
    expect(codes).to.include.members(['2800', '3330', '2788', '2797', '3128']);
    const after = await env.stack.db('documents').where({ company_id: demo.row.id }).count('* as n');
    expect(after).to.deep.equal(before);
  });

  it('retención and percepción go to the "otros CPE" billService, and an rr reverses a retención there', async () => {
    const issued = [];
    for (const fixture of ['retention.json', 'perception.json']) {
      const res = await issue(env.stack, demo.token, payload(fixture, demo.ruc));
      expect(res.status, JSON.stringify(res.body)).to.equal(202);
      issued.push(await until(env.stack, res.body.external_id, ['accepted', 'observed', 'rejected']));
    }
    const paths = (name: string) =>
      env.sim
        .log()
        .filter((e) => e.name === `${name}.zip`)
        .map((e) => `${e.operation} ${e.path}`);
    expect(paths(issued[0].filename)).to.deep.equal(['sendBill /ol-ti-itemision-otroscpe-gem-beta/billService']);
    expect(paths(issued[1].filename)).to.deep.equal(['sendBill /ol-ti-itemision-otroscpe-gem-beta/billService']);

    const reversal = payload('rr-retention.json', demo.ruc, { fechaReferencia: issued[0].issue_date });
    reversal.items = [
      { tipoDoc: '20', serieNumero: `${issued[0].series}-${issued[0].number}`, motivo: 'Retención mal calculada' },
    ];
    const res = await issue(env.stack, demo.token, reversal);
    expect(res.status, JSON.stringify(res.body)).to.equal(202);
    // A ticket: polls run after 10 s, 20 s …; recheck asks at once (first 98, then the verdict).
    const registered = await until(env.stack, res.body.external_id, ['registered']);
    expect(registered.ticket).to.be.a('string');
    await signalDocumentWorkflow(env.stack.temporal, registered.id, 'recheck');
    await until(env.stack, registered.id, ['registered'], 30_000, (row) => row.result?.code === '98');
    await signalDocumentWorkflow(env.stack.temporal, registered.id, 'recheck');
    const done = await until(env.stack, registered.id, ['accepted', 'observed', 'rejected']);
    expect(done.status, JSON.stringify(done.result)).to.equal('accepted');
    expect(paths(done.filename)).to.deep.equal(['sendSummary /ol-ti-itemision-otroscpe-gem-beta/billService']);
  });

  it('the CPE billService refuses a retención (0302): each service takes only its own documents', async () => {
    const res = await issue(env.stack, demo.token, payload('retention.json', demo.ruc));
    const row = await until(env.stack, res.body.external_id, ['accepted']);
    const refused = await sendBill(
      `${env.sim.url}/ol-ti-itcpfegem-beta/billService`,
      { ruc: demo.ruc, solUser: 'MODDATOS', solPassword: 'moddatos' },
      { filename: row.filename, xml: row.xml! },
    );
    expect(refused).to.include({ code: '0302' });
  });

  it('in production a retención consumes one signature, goes to the production otros CPE service and records its cpe.resolved event', async () => {
    const company = await newCompany(env.stack, { environment: '02', quota: 1 });
    const res = await issue(env.stack, company.token, payload('retention.json', company.ruc));
    expect(res.status, JSON.stringify(res.body)).to.equal(202);
    expect(res.body).to.include({ environment: '02' });
    const done = await until(env.stack, res.body.external_id, ['accepted', 'observed', 'rejected']);
    expect(done.status).to.equal('accepted');
    expect(await accountBalances(env.stack, company.accountId)).to.deep.equal({ quota: 0, osePackage: 0 });
    expect(
      env.sim
        .log()
        .filter((e) => e.name === `${done.filename}.zip`)
        .map((e) => e.path),
    ).to.deep.equal(['/ol-ti-itemision-otroscpe-gem/billService']);
    expect(await env.stack.db('document_events').where({ document_id: done.id })).to.have.length(1);
    // Without quota the next one is refused before signing, as for any document.
    expect((await issue(env.stack, company.token, payload('perception.json', company.ruc))).status).to.equal(402);
  });

  it('externally signed 04, 20 and 40 are read (issuer from the customer party or AgentParty), kept as sent and delivered', async () => {
    const company = await newCompany(env.stack, {
      environment: '02',
      settings: { destination: 'provider_ose', signing: 'external' },
    });
    await env.stack.db('accounts').where({ id: company.accountId }).update({ ose_package_units: 3 });
    const signer = createSigner(generateTestCertificate({ ruc: company.ruc }));
    for (const [fixture, type] of [
      ['liquidacion-compra.json', '04'],
      ['retention.json', '20'],
      ['perception.json', '40'],
    ]) {
      const signed = signXml(prepareDocument(payload(fixture, company.ruc)).xml, signer);
      const res = await issue(env.stack, company.token, { xml: Buffer.from(signed.xml, 'utf8').toString('base64') });
      expect(res.status, JSON.stringify(res.body)).to.equal(202);
      expect(res.body).to.include({ hash: signed.hash });
      const done = await until(env.stack, res.body.external_id, ['accepted', 'observed', 'rejected']);
      expect(done, fixture).to.include({ doc_type: type, signed_by: 'external', status: 'accepted' });
    }
  });
});
