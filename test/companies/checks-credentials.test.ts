import { expect } from 'chai';
import got from 'got';
import type { TestCompany } from '../issuing/support';
import { updateCompany } from '../../db/companies';
import { closedPortUrl } from '../authority/support';
import { CHECKS_RATE_KEY } from '../../activities/company-checks';
import { ChecksStack } from './checks-support';

/** Issue 26: the credentials checks, one SUNAT call per company and run, within CHASQUI_CHECKS_RATE. */
describe('company checks: SOL and GRE credentials', function () {
  this.timeout(120_000);
  const suite = ChecksStack.use();

  describe('sol_credentials', () => {
    it('is ok for a SOL user SUNAT accepts, asked with a CDR query for a number that does not exist', async () => {
      const company = await suite.productionCompany(suite.sol('FACTURA1', 'clave-buena'));
      const ruc = company.ruc;
      await suite.simAdmin('credentials', { ruc, user: 'FACTURA1', password: 'clave-buena' });
      const checks = await suite.runChecks(company);
      expect(checks.sol_credentials.status, checks.sol_credentials.detail).to.equal('ok');
      expect(checks.sol_credentials.user).to.equal('FACTURA1');
      const calls = await suite.simulatorCalls(ruc);
      expect(calls.map((c) => c.operation)).to.deep.equal(['getStatusCdr']);
      expect(calls[0].code).to.equal('0011');
    });

    it("is fail with SUNAT's words for a wrong SOL user, and unknown with the fix when none is loaded", async () => {
      const wrong = await suite.productionCompany(suite.sol('NOEXISTE', 'otra-clave'));
      const checks = await suite.runChecks(wrong);
      expect(checks.sol_credentials.status).to.equal('fail');
      expect(checks.sol_credentials.detail).to.contain('[0102]').and.contain('PATCH /v1/companies/');
      expect(checks.sol_credentials.code).to.equal('0102');

      const none = await suite.productionCompany({ sol_user: null, sol_password_sealed: null });
      const noneChecks = await suite.runChecks(none);
      expect(noneChecks.sol_credentials.status).to.equal('unknown');
      expect(noneChecks.sol_credentials.detail).to.contain(`PATCH /v1/companies/${none.ruc}/sol-credentials`);
      expect(await suite.simulatorCalls(none.ruc)).to.have.length(0);
    });

    it('is unknown, not fail, when SUNAT cannot be reached, and a failing check does not flap back through it', async () => {
      const company = await suite.productionCompany(suite.sol('NOEXISTE', 'otra-clave'));
      expect((await suite.runChecks(company)).sol_credentials.status).to.equal('fail');
      const rule = await suite.simAdmin('rules', {
        operation: 'getStatusCdr',
        ruc: company.ruc,
        fault: { kind: 'reset' },
      });
      const down = await suite.runChecks(company);
      expect(down.sol_credentials.status).to.equal('unknown');
      expect(down.sol_credentials.detail).to.contain('SUNAT could not be asked');
      await got.delete(`${suite.env.sim.url}/__admin/rules/${rule.id}`);
      expect((await suite.runChecks(company)).sol_credentials.status).to.equal('fail');
      // fail → unknown → fail is one change, notified once (the company has no webhook: stored handled).
      const events = await suite.env.stack
        .db('company_check_events')
        .where({ company_id: company.row.id, check: 'sol_credentials' });
      expect(events).to.have.length(1);
    });
  });

  describe('SUNAT unreachable (nothing listening) and the calls-a-minute budget', () => {
    it('is unknown with the connection error when SUNAT refuses the connection', async () => {
      const company = await suite.productionCompany();
      const closed = suite.activitiesWith({
        authority: { ...suite.env.stack.config.authority, authorityUrl: new URL(await closedPortUrl()).origin },
      });
      const summary = await closed.runCompanyChecks(company.row.id);
      expect(summary).to.have.nested.property('statuses.sol_credentials', 'unknown');
      expect((await suite.readChecks(company)).sol_credentials.detail).to.contain('ECONNREFUSED');
    });

    it('never calls SUNAT more than CHASQUI_CHECKS_RATE times a minute: the next company is told how long to wait', async () => {
      const companies = [
        await suite.productionCompany(),
        await suite.productionCompany(),
        await suite.productionCompany(),
      ];
      const limited = suite.activitiesWith({ checks: { ...suite.env.stack.config.checks, ratePerMinute: 2 } });
      // This suite's earlier runs share the log; the budget starts empty here.
      await suite.env.stack.db('rate_limit_log').where({ token_id: CHECKS_RATE_KEY }).delete();
      expect(await limited.runCompanyChecks(companies[0].row.id)).to.have.property('asked', 'sol_credentials');
      expect(await limited.runCompanyChecks(companies[1].row.id)).to.have.property('asked', 'sol_credentials');
      const refused = await limited.runCompanyChecks(companies[2].row.id);
      expect(refused).to.have.property('waitSeconds').within(1, 60);
      expect(await suite.simulatorCalls(companies[2].ruc)).to.have.length(0);
      expect(await suite.readChecks(companies[2])).to.deep.equal({});
    });
  });

  describe('gre_credentials', () => {
    async function greCompany(secret: string): Promise<TestCompany> {
      const company = await suite.productionCompany();
      await suite.simAdmin('credentials', {
        ruc: company.ruc,
        user: 'GUIAS01',
        password: 'clave-guias',
        clientId: `client-${company.ruc}`,
        clientSecret: 'el-secreto',
      });
      company.row = await updateCompany(suite.env.stack.db, company.row.id, {
        ...suite.sol('GUIAS01', 'clave-guias'),
        gre_client_id: `client-${company.ruc}`,
        gre_client_secret_sealed: suite.env.stack.secrets.seal(secret),
        gre_updated_at: new Date(),
      });
      return company;
    }

    it('asks one credential per run: SOL first, the GRE client in the next run; right client ok, wrong client fail', async () => {
      const right = await greCompany('el-secreto');
      const first = await suite.runChecks(right);
      expect(first.sol_credentials.status).to.equal('ok');
      expect(first.gre_credentials.status).to.equal('unknown');
      expect(first.gre_credentials.detail).to.contain('one SUNAT call per company and run');
      const second = await suite.runChecks(right);
      expect(second.gre_credentials.status, second.gre_credentials.detail).to.equal('ok');
      expect(second.sol_credentials.checked_at).to.equal(first.sol_credentials.checked_at);
      expect((await suite.simulatorCalls(right.ruc)).map((c) => c.operation)).to.deep.equal([
        'getStatusCdr',
        'greToken',
      ]);

      const wrong = await greCompany('otro-secreto');
      await suite.runChecks(wrong);
      const checks = await suite.runChecks(wrong);
      expect(checks.gre_credentials.status).to.equal('fail');
      expect(checks.gre_credentials.detail).to.contain('cliente no autorizado').and.contain('gre-credentials');
    });
  });
});
