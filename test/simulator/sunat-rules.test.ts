import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { getStatus, sendBill, sendSummary } from '../../authority';
import { prepareDocument } from '../../documents';
import { loadConfig } from '../../core/config';
import { type SimulatorHandle } from '../../simulator/server';
import { startTestSimulator } from '../support/simulator';
import { sample } from '../authority/support';
import { testValidator } from '../support/validator';
import { sign, urls } from './support';

/** Integrator-signed samples (xmlsec1, a demo certificate of RUC 12345678912): chasqui's signer never touched them. */
const EXTERNAL = { ruc: '12345678912', solUser: 'MODDATOS', solPassword: 'moddatos' };

describe("simulator judging with SUNAT's own rules (CHASQUI_SIMULATOR_SUNAT_RULES)", function () {
  // The first run on a machine compiles SUNAT's rules (about 76 s of CPU for all types); later runs take seconds.
  this.timeout(600_000);
  let withRules: SimulatorHandle;
  let plain: SimulatorHandle;

  before(async () => {
    await testValidator().compile(['01', '03', 'RC']);
    withRules = await startTestSimulator({ ticketPolls: 0, sunatRules: { cacheDir: loadConfig().validatorCacheDir } });
    plain = await startTestSimulator({ ticketPolls: 0 });
  });
  after(async () => {
    await withRules.close();
    await plain.close();
  });

  it('is off by default and follows CHASQUI_SIMULATOR_SUNAT_RULES', () => {
    expect(loadConfig({}).simulatorSunatRules).to.equal(false);
    expect(loadConfig({ CHASQUI_SIMULATOR_SUNAT_RULES: 'true' }).simulatorSunatRules).to.equal(true);
    expect(() => loadConfig({ CHASQUI_SIMULATOR_SUNAT_RULES: 'si' })).to.throw(
      /CHASQUI_SIMULATOR_SUNAT_RULES must be true or false/,
    );
  });

  it("rejects an externally signed boleta with the code SUNAT's XSL gives (3128), not the plain simulator's own guess", async () => {
    const file = { filename: '12345678912-03-BB50-1', xml: sample('signed-rsa-sha256/12345678912-03-BB50-1.xml') };
    const judged = await sendBill(urls(withRules).bill, EXTERNAL, file);
    expect(judged).to.deep.include({ status: 'rejected', code: '3128', origin: 'tax_authority' });
    expect(judged.errors[0]).to.match(
      /^\[SUNAT 3128\] El XML contiene información de codigo de bien y servicio de detracción.* - Detalle: .*PaymentMeansID/,
    );
    // Without the switch the simulator's approximate arithmetic answers instead (3291 on this boleta with ISC).
    expect(await sendBill(urls(plain).bill, EXTERNAL, file)).to.deep.include({ status: 'rejected', code: '3291' });
  });

  it('accepts an externally signed invoice the XSL accepts', async () => {
    const file = { filename: '12345678912-01-FF11-1', xml: sample('signed-rsa-sha256/12345678912-01-FF11-1.xml') };
    expect(await sendBill(urls(withRules).bill, EXTERNAL, file)).to.deep.include({
      status: 'accepted',
      code: '0',
      observations: [],
    });
  });

  it("observes a chasqui-built credit sale with the XSL's observation (3249) in the CDR notes", async () => {
    const payload = JSON.parse(
      readFileSync(path.resolve(__dirname, '../fixtures/documents/invoice-credit-instalments.json'), 'utf8'),
    );
    const prepared = prepareDocument(payload);
    const file = sign({ filename: prepared.filename, xml: prepared.xml });
    const creds = { ruc: prepared.filename.slice(0, 11), solUser: 'MODDATOS', solPassword: 'moddatos' };
    const result = await sendBill(urls(withRules).bill, creds, file);
    expect(result).to.deep.include({ status: 'observed', code: '0' });
    expect(result.observations).to.have.length(1);
    expect(result.observations[0]).to.match(/^\[SUNAT 3249\] /);
  });

  it("gives a daily summary's observation (4027) through its ticket", async () => {
    const file = {
      filename: '12345678912-RC-20191224-1',
      xml: sample('signed-rsa-sha256/12345678912-RC-20191224-1.xml'),
    };
    const sent = await sendSummary(urls(withRules).bill, EXTERNAL, file);
    const done = await getStatus(urls(withRules).bill, EXTERNAL, sent.ticket!);
    expect(done).to.deep.include({ status: 'observed', code: '0' });
    expect(done.observations).to.deep.equal([
      '[SUNAT 4027] El importe total no coincide con la sumatoria de los valores de venta mas los tributos mas los cargos',
    ]);
  });
});
