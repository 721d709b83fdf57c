/**
 * Issue 24: a guide by public transport (09, modalidad 01) issued today, through the API, the worker and the GRE
 * REST API of the simulator judging with SUNAT's own 2025–2026 GRE rules (CHASQUI_SIMULATOR_SUNAT_RULES): refused
 * with 422 [SUNAT 3617] without the date the goods were handed to the carrier, accepted by SUNAT's rules with it.
 * The API judges by the operator's calendar (CHASQUI_RULE_DATES).
 */
import { expect } from 'chai';
import { loadConfig } from '../../core/config';
import { limaDate } from '../../core/lima';
import { addDays, RuleCalendar } from '../../documents/calendar';
import {
  call,
  documentCount,
  issue,
  newCompany,
  payload,
  startIssuingStack,
  until,
  type IssuingStack,
  type TestCompany,
} from './support';

const FIELD = 'envio.fechaEntregaTransportista';

/** The public-transport sale of the fixtures, issued today by `ruc`; the handover date set, or left out when null. */
function guideToday(ruc: string, handover: string | null): Record<string, any> {
  const today = limaDate(new Date());
  const guide = payload('gre-09-venta-publico.json', ruc, { fechaEmision: today });
  guide.envio = { ...guide.envio, fechaInicio: today };
  if (handover === null) delete guide.envio.fechaEntregaTransportista;
  else guide.envio.fechaEntregaTransportista = handover;
  return guide;
}

describe('GRE by public transport through the API to the simulator (rule gre-loading-date)', function () {
  this.timeout(300_000);
  let env: IssuingStack;
  let company: TestCompany;

  before(async function () {
    env = await startIssuingStack(
      {},
      { simulator: { ticketPolls: 0, sunatRules: { cacheDir: loadConfig().validatorCacheDir } } },
    );
    // A production company with SOL credentials and a GRE API client, as an integrator sets one up for guides.
    company = await newCompany(env.stack, { environment: '02', quota: 10 });
    const gre = await call(env.stack, 'PATCH', `/v1/companies/${company.ruc}/gre-credentials`, {
      token: company.accountToken,
      json: { client_id: 'chasqui-gre', client_secret: 'gre-secret-value' },
    });
    expect(gre.status, JSON.stringify(gre.body)).to.equal(200);
  });
  after(() => env?.stop());

  it('without the handover date: 422 [SUNAT 3617] naming envio.fechaEntregaTransportista, nothing stored or sent', async () => {
    const before = await documentCount(env.stack, company.row.id);
    const res = await issue(env.stack, company.token, guideToday(company.ruc, null));
    expect(res.status, JSON.stringify(res.body)).to.equal(422);
    expect(res.body).to.include({ success: false, origin: 'validation', action: 'correct', reached_sunat: false });
    expect(res.body.errors).to.have.length(1);
    expect(res.body.errors[0]).to.match(
      /^\[SUNAT 3617\] envio\.fechaEntregaTransportista .* on guides issued from 2026-06-01$/,
    );
    expect(res.body.details.map((d: { path: string }) => d.path)).to.deep.equal([FIELD]);
    expect(await documentCount(env.stack, company.row.id)).to.equal(before);
  });

  it("with it: issued, sent over the GRE REST API and its ticket accepted by SUNAT's revised rules, the CDR stored", async () => {
    const today = limaDate(new Date());
    const res = await issue(env.stack, company.token, guideToday(company.ruc, today));
    expect(res.status, JSON.stringify(res.body)).to.equal(202);
    expect(res.body.xml).to.be.a('string');
    const xml = Buffer.from(res.body.xml, 'base64').toString('utf8');
    expect(xml).to.contain(
      `<cac:LoadingTransportEvent><cbc:OccurrenceDate>${today}</cbc:OccurrenceDate></cac:LoadingTransportEvent>`,
    );
    const done = await until(env.stack, res.body.external_id, ['accepted', 'observed', 'rejected'], 120_000);
    expect(done.status, JSON.stringify(done.result)).to.equal('accepted');
    expect(done.cdr_zip, 'the simulator answered with a CDR').to.be.a('string');
    // Sent over the GRE REST API, its ticket answered 0 (accepted) by the simulator judging with SUNAT's XSL.
    const exchanges = env.sim.log().filter((entry) => entry.name === res.body.filename);
    expect(exchanges.map((e) => `${e.operation} ${e.httpStatus}`)).to.include('greSend 200');
    expect(exchanges.filter((e) => e.operation === 'greStatus').at(-1)?.code).to.equal('0');
  });

  it('with the rule moved past today (CHASQUI_RULE_DATES): the same guide without the date is issued (202)', async () => {
    const moved = await startIssuingStack(
      { rules: new RuleCalendar({ 'gre-loading-date': addDays(limaDate(new Date()), 1) }) },
      { worker: false },
    );
    try {
      const other = await newCompany(moved.stack);
      const res = await issue(moved.stack, other.token, guideToday(other.ruc, null));
      expect(res.status, JSON.stringify(res.body)).to.equal(202);
      expect(Buffer.from(res.body.xml, 'base64').toString('utf8')).not.to.contain('LoadingTransportEvent');
    } finally {
      await moved.stop();
    }
  });
});
