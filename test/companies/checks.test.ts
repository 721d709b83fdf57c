import { execFile } from 'node:child_process';
import { createHmac, randomBytes } from 'node:crypto';
import path from 'node:path';
import fs from 'node:fs';
import { expect } from 'chai';
import YAML from 'yaml';
import { newCompany } from '../issuing/support';
import { call, randomRuc, newAccountToken, createCompany } from './helpers';
import { eventually } from '../webhooks/support';
import { recordProcedure } from '../../db/procedures';
import { updateCompany } from '../../db/companies';
import { limaDate } from '../../core/lima';
import { startTestStack, type TestStack } from '../support/stack';
import { COMPANY_CHECKS_SCHEDULE_ID } from '../../workflows/company-checks';
import { CHECK_WEBHOOK_EVENT, CHECK_WEBHOOK_EVENT_HEADER } from '../../workflows/webhook-types';
import { testDatabaseUrl, testTemporalAddress } from '../support/services';
import { checkSchema } from '../support/json-schema';
import { registry } from '../../core/metrics';
import { CHECK_IDS } from '../../db/company-checks';
import { english, isMessage, spanish } from '../../lifecycle/messages';
import { ChecksStack } from './checks-support';

/**
 * Issue 26: the company checks as integrators and operators see them: the company.check webhook, the schedule and its
 * metrics, `chasqui support checks`, the API's refusals, the alerts. Each check's own suite: checks-*.test.ts.
 */
describe('company checks', function () {
  this.timeout(120_000);
  const suite = ChecksStack.use();

  describe('the company.check webhook', () => {
    it('is sent, signed, once per change to warn or fail', async () => {
      const company = await suite.productionCompany(suite.sol('NOEXISTE', 'otra-clave'));
      const secret = randomBytes(24).toString('hex');
      await updateCompany(suite.env.stack.db, company.row.id, {
        webhook_url: suite.receiver.url,
        webhook_secret_sealed: suite.env.stack.secrets.seal(secret),
      });
      // Its PSE authorisation is done, so the only trouble is the one this test makes.
      await recordProcedure(suite.env.stack.db, company.row.id, 'pse_authorization', {
        state: 'done',
        done_at: new Date(),
      });
      const mine = () => suite.receiver.requests.filter((r) => JSON.parse(r.body).company?.ruc === company.ruc);
      await suite.runChecks(company);
      const first = await eventually(() => (mine().length ? mine() : undefined));
      const notice = JSON.parse(first[0].body);
      expect(notice).to.deep.include({ event: CHECK_WEBHOOK_EVENT });
      expect(notice.check).to.include({ id: 'sol_credentials', status: 'fail', previous_status: null });
      expect(first[0].headers['x-evento']).to.equal(CHECK_WEBHOOK_EVENT_HEADER);
      expect(first[0].headers['x-firma']).to.equal(createHmac('sha256', secret).update(first[0].body).digest('hex'));

      // The same failure again: no new notice. A document in a series gap: one more (series_gaps → warn).
      await suite.runChecks(company);
      const today = limaDate(new Date());
      await suite.documentRow(company, 'F001', 1, today);
      await suite.documentRow(company, 'F001', 3, today);
      await suite.runChecks(company);
      const all = await eventually(() => (mine().length >= 2 ? mine() : undefined));
      const checks = all.map((r) => JSON.parse(r.body).check.id);
      expect(checks).to.deep.equal(['sol_credentials', 'series_gaps']);
      const deliveries = await call(suite.env.stack, 'GET', `/v1/companies/${company.ruc}/webhook/deliveries`, {
        token: company.accountToken,
      });
      expect(deliveries.body.data.deliveries.map((d: any) => d.event)).to.deep.equal([
        CHECK_WEBHOOK_EVENT,
        CHECK_WEBHOOK_EVENT,
      ]);
      expect(deliveries.body.data.deliveries[0]).to.include({ external_id: null, status: 'delivered' });
      const listSchema =
        suite.openApi.paths['/v1/companies/{ruc}/webhook/deliveries'].get.responses['200'].content['application/json']
          .schema;
      expect(checkSchema(listSchema, deliveries.body, suite.openApi)).to.deep.equal([]);
    });
  });

  describe('the schedule and the metrics', () => {
    it("runs every company's checks and /metrics shows each company", async () => {
      const a = await suite.productionCompany(suite.sol('NOEXISTE', 'otra-clave'));
      const b = await newCompany(suite.env.stack);
      const scheduleId = `${COMPANY_CHECKS_SCHEDULE_ID}-${suite.env.stack.config.temporal.taskQueue}`;
      const schedule = suite.env.stack.temporal.schedule.getHandle(scheduleId);
      const described = await schedule.describe();
      expect(described.spec.intervals?.[0].every).to.equal(6 * 3_600_000);
      await schedule.trigger();
      const workflowId = await eventually(
        async () => (await schedule.describe()).info.recentActions[0]?.action.workflow.workflowId,
      );
      expect(await suite.env.stack.temporal.workflow.getHandle(workflowId).result()).to.be.at.least(2);
      const metrics = (await call(suite.env.stack, 'GET', '/metrics')).body as string;
      for (const company of [a, b])
        expect(metrics).to.match(
          new RegExp(`chasqui_company_check_status\\{ruc="${company.ruc}",check="certificate"\\} 0`),
        );
      expect(metrics).to.match(
        new RegExp(`chasqui_company_check_status\\{ruc="${a.ruc}",check="sol_credentials"\\} 2`),
      );
      expect(metrics).to.match(new RegExp(`chasqui_certificate_expiry_days\\{ruc="${b.ruc}"\\} \\d+`));
      // Each outcome is stored as a code and parameters whose English is the API's detail; the console says it in Spanish.
      const rows = await suite.env.stack.db('company_checks').whereIn('company_id', [a.row.id, b.row.id]);
      expect(rows.length).to.be.at.least(4);
      for (const row of rows) {
        expect(isMessage(row.message), `${row.check} ${JSON.stringify(row.message)}`).to.equal(true);
        expect(english(row.message), row.check).to.equal(row.detail);
      }
      const refused = rows.find((r) => r.company_id === a.row.id && r.check === 'sol_credentials');
      expect(refused.message.code).to.equal('check.credentials.refused');
      expect(spanish(refused.message)).to.match(/^SUNAT rechazó el usuario SOL NOEXISTE \(código \d+\)/);
    });
  });

  describe('chasqui support checks', () => {
    /** `chasqui support …` as support staff run it: a separate process on the stack's PostgreSQL and Temporal. */
    async function support(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
      const processEnv = {
        ...process.env,
        DATABASE_URL: await testDatabaseUrl(),
        TEMPORAL_ADDRESS: await testTemporalAddress(),
        TEMPORAL_TASK_QUEUE: suite.env.stack.config.temporal.taskQueue,
        LOG_LEVEL: 'silent',
      };
      return new Promise((resolve) => {
        execFile(
          process.execPath,
          [path.resolve(__dirname, '../../bin/chasqui'), 'support', ...args],
          { env: processEnv, timeout: 60_000 },
          (err, stdout, stderr) => {
            resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
          },
        );
      });
    }

    it("runs one company's checks, prints them worst first, and exits 0 even when one fails", async () => {
      const company = await suite.productionCompany(suite.sol('NOEXISTE', 'otra-clave'));
      // Independent processes (the unknown RUC and the usage error read nothing the run writes): side by side.
      const [json, unknown, extra] = await Promise.all([
        support('checks', '--ruc', company.ruc, '--run', '--json'),
        support('checks', '--ruc', randomRuc()),
        support('checks', 'extra'),
      ]);
      expect(json.code, json.stderr).to.equal(0);
      const [listed] = JSON.parse(json.stdout).companies;
      expect(listed).to.include({ ruc: company.ruc, worst: 'fail' });
      expect(listed.checks[0]).to.include({ id: 'sol_credentials', status: 'fail' });
      const human = await support('checks', '--ruc', company.ruc);
      expect(human.code).to.equal(0);
      const lines = human.stdout.split('\n');
      expect(lines[0]).to.match(/^RUC\s+CHECK\s+STATUS\s+CHECKED\s+DETAIL/);
      expect(lines[1]).to.contain(company.ruc).and.contain('sol_credentials').and.contain('fail');
      expect(human.stdout).to.match(/1 company: 1 fail, \d+ warn/);
      expect(unknown.code).to.equal(3);
      expect(extra.code).to.equal(2);
    });
  });

  describe('bad input', () => {
    it('answers 404 for a RUC no account holds and 403 for another account’s company', async () => {
      const mine = await newAccountToken(suite.env.stack);
      const other = await newAccountToken(suite.env.stack);
      const ruc = randomRuc();
      await createCompany(suite.env.stack, other.token, ruc);
      for (const method of ['GET', 'POST'] as const) {
        expect(
          (await call(suite.env.stack, method, `/v1/companies/${randomRuc()}/checks`, { token: mine.token })).status,
        ).to.equal(404);
        expect(
          (await call(suite.env.stack, method, `/v1/companies/${ruc}/checks`, { token: mine.token })).status,
        ).to.equal(403);
        expect(
          (await call(suite.env.stack, method, `/v1/companies/123/checks`, { token: mine.token })).status,
        ).to.equal(422);
      }
    });
  });

  describe("compose's Prometheus alerts", () => {
    it('fire on series the API exports and on check ids that exist', async () => {
      const alerts = YAML.parse(fs.readFileSync(path.resolve(__dirname, '../../deploy/prometheus/alerts.yml'), 'utf8'));
      const rules = alerts.groups.find((g: any) => g.name === 'chasqui-company-checks').rules;
      expect(rules.map((r: any) => r.alert)).to.deep.equal([
        'ChasquiCertificateExpiringSoon',
        'ChasquiCredentialsFailing',
        'ChasquiSendingWindowClosing',
        'ChasquiSeriesGaps',
      ]);
      const exported = (await registry.getMetricsAsJSON()).map((m) => m.name);
      for (const rule of rules) {
        for (const [series] of String(rule.expr).matchAll(/chasqui_\w+/g))
          expect(exported, rule.alert).to.include(series);
        for (const [, ids] of String(rule.expr).matchAll(/check=~?"([^"]+)"/g))
          for (const id of ids.split('|')) expect(CHECK_IDS, rule.alert).to.include(id);
      }
    });
  });
});

describe('company checks while Temporal is unreachable', function () {
  let stack: TestStack;
  before(async function () {
    this.timeout(120_000);
    stack = await startTestStack({ worker: false });
  });
  after(() => stack?.stop());

  it('POST answers 503 saying nothing started; GET still answers', async () => {
    const { token } = await newAccountToken(stack);
    const ruc = randomRuc();
    await createCompany(stack, token, ruc);
    await stack.temporal.connection.close();
    const res = await call(stack, 'POST', `/v1/companies/${ruc}/checks`, { token });
    expect(res.status).to.equal(503);
    expect(res.body.message).to.contain('could not be started');
    expect((await call(stack, 'GET', `/v1/companies/${ruc}/checks`, { token })).body.data.checks).to.deep.equal([]);
  });
});
