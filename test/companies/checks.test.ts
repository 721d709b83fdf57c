import { execFile } from 'node:child_process';
import { createHmac, randomBytes } from 'node:crypto';
import path from 'node:path';
import { expect } from 'chai';
import got from 'got';
import { startIssuingStack, newCompany, type IssuingStack, type TestCompany } from '../issuing/support';
import { call, randomRuc, newAccountToken, createCompany } from './helpers';
import { eventually, localTlsCertificate, startReceiver, type Receiver } from '../webhooks/support';
import { generateTestCertificate } from '../../documents/signing';
import { updateCompany, type CompanyChanges } from '../../db/companies';
import { insertDocument } from '../../db/documents';
import { recordProcedure } from '../../db/procedures';
import { limaDate } from '../../core/lima';
import { addDays, RuleCalendar } from '../../documents/calendar';
import { createSigner } from '../../documents/signing';
import { commitSignedDocument } from '../support/documents';
import { payload } from '../issuing/support';
import { closedPortUrl } from '../authority/support';
import { CHECKS_RATE_KEY, createCompanyCheckActivities } from '../../activities/company-checks';
import type { Config } from '../../core/config';
import { startTestStack, type TestStack } from '../support/stack';
import { COMPANY_CHECKS_SCHEDULE_ID } from '../../workflows/company-checks';
import { CHECK_WEBHOOK_EVENT, CHECK_WEBHOOK_EVENT_HEADER } from '../../workflows/webhook-types';
import type { DocStatus } from '../../workflows/document-types';
import { testDatabaseUrl, testTemporalAddress } from '../support/services';
import { checkSchema } from '../support/json-schema';
import { openApiDocument } from '../../api/openapi';
import fs from 'node:fs';
import YAML from 'yaml';
import { registry } from '../../core/metrics';
import { CHECK_IDS } from '../../db/company-checks';

/**
 * Issue 26: the company checks against the simulator as SUNAT, run by the real worker through the API (POST runs them,
 * GET reads them), the schedule and its metrics, the company.check webhook.
 */
describe('company checks', function () {
  this.timeout(120_000);
  let env: IssuingStack;
  let receiver: Receiver;
  const tls = localTlsCertificate();
  const ruleDate = addDays(limaDate(new Date()), 20);

  before(async () => {
    receiver = await startReceiver(tls);
    env = await startIssuingStack({
      webhookAllowPrivate: true,
      webhookCaFile: tls.certFile,
      issuing: { sendingWindowDays: 3 } as never,
      checks: { everyMs: 6 * 3_600_000, ratePerMinute: 600, concurrency: 4, certWarnDays: 30, gapDays: 45 },
      // As CHASQUI_RULE_DATES would: SUNAT's product code rule starts in 20 days, whatever today is.
      rules: new RuleCalendar({ 'product-code-valid': ruleDate }),
    });
  });
  after(async () => {
    await env?.stop();
    await receiver?.close();
  });

  const simAdmin = (path: string, json?: unknown) =>
    got(`${env.sim.url}/__admin/${path}`, {
      method: json === undefined ? 'GET' : 'POST',
      json,
      retry: { limit: 0 },
    }).json<any>();

  const openApi = openApiDocument() as Record<string, any>;
  /** What of the answer is not as api/openapi.ts documents it (nothing, when it conforms). */
  const conformance = (method: 'get' | 'post', res: { status: number; body: unknown }) =>
    checkSchema(
      openApi.paths['/v1/companies/{ruc}/checks'][method].responses[String(res.status)].content['application/json']
        .schema,
      res.body,
      openApi,
    );

  /** POST …/checks, waits for that run's workflow to finish, then answers what GET …/checks shows. */
  async function runChecks(company: TestCompany): Promise<Record<string, any>> {
    const started = await call(env.stack, 'POST', `/v1/companies/${company.ruc}/checks`, {
      token: company.accountToken,
    });
    expect(started.status, JSON.stringify(started.body)).to.equal(202);
    expect(conformance('post', started)).to.deep.equal([]);
    await env.stack.temporal.workflow.getHandle(started.body.data.run.workflow_id).result();
    return readChecks(company);
  }

  async function readChecks(company: TestCompany): Promise<Record<string, any>> {
    const res = await call(env.stack, 'GET', `/v1/companies/${company.ruc}/checks`, { token: company.accountToken });
    expect(res.status).to.equal(200);
    expect(conformance('get', res)).to.deep.equal([]);
    return Object.fromEntries(res.body.data.checks.map((c: any) => [c.id, c]));
  }

  /** A production company sending to SUNAT (the simulator) with these SOL credentials. */
  async function productionCompany(settings: CompanyChanges = {}): Promise<TestCompany> {
    const company = await newCompany(env.stack, { environment: '02', plan: '01' });
    if (Object.keys(settings).length) company.row = await updateCompany(env.stack.db, company.row.id, settings);
    return company;
  }

  const sol = (user: string, password: string): CompanyChanges => ({
    sol_user: user,
    sol_password_sealed: env.stack.secrets.seal(password),
    sol_updated_at: new Date(),
  });

  async function simulatorCalls(ruc: string): Promise<any[]> {
    // The simulator logs no RUC for a GRE token request: its path names the client, which these tests name after the RUC.
    return (await simAdmin('log')).filter((entry: any) => entry.ruc === ruc || String(entry.path).includes(ruc));
  }

  describe('sol_credentials', () => {
    it('is ok for a SOL user SUNAT accepts, asked with a CDR query for a number that does not exist', async () => {
      const company = await productionCompany(sol('FACTURA1', 'clave-buena'));
      const ruc = company.ruc;
      await simAdmin('credentials', { ruc, user: 'FACTURA1', password: 'clave-buena' });
      const checks = await runChecks(company);
      expect(checks.sol_credentials.status, checks.sol_credentials.detail).to.equal('ok');
      expect(checks.sol_credentials.user).to.equal('FACTURA1');
      const calls = await simulatorCalls(ruc);
      expect(calls.map((c) => c.operation)).to.deep.equal(['getStatusCdr']);
      expect(calls[0].code).to.equal('0011');
    });

    it("is fail with SUNAT's words for a wrong SOL user, and unknown with the fix when none is loaded", async () => {
      const wrong = await productionCompany(sol('NOEXISTE', 'otra-clave'));
      const checks = await runChecks(wrong);
      expect(checks.sol_credentials.status).to.equal('fail');
      expect(checks.sol_credentials.detail).to.contain('[0102]').and.contain('PATCH /v1/companies/');
      expect(checks.sol_credentials.code).to.equal('0102');

      const none = await productionCompany({ sol_user: null, sol_password_sealed: null });
      const noneChecks = await runChecks(none);
      expect(noneChecks.sol_credentials.status).to.equal('unknown');
      expect(noneChecks.sol_credentials.detail).to.contain(`PATCH /v1/companies/${none.ruc}/sol-credentials`);
      expect(await simulatorCalls(none.ruc)).to.have.length(0);
    });

    it('is unknown, not fail, when SUNAT cannot be reached, and a failing check does not flap back through it', async () => {
      const company = await productionCompany(sol('NOEXISTE', 'otra-clave'));
      expect((await runChecks(company)).sol_credentials.status).to.equal('fail');
      const rule = await simAdmin('rules', { operation: 'getStatusCdr', ruc: company.ruc, fault: { kind: 'reset' } });
      const down = await runChecks(company);
      expect(down.sol_credentials.status).to.equal('unknown');
      expect(down.sol_credentials.detail).to.contain('SUNAT could not be asked');
      await got.delete(`${env.sim.url}/__admin/rules/${rule.id}`);
      expect((await runChecks(company)).sol_credentials.status).to.equal('fail');
      // fail → unknown → fail is one change, notified once (the company has no webhook: stored handled).
      const events = await env.stack
        .db('company_check_events')
        .where({ company_id: company.row.id, check: 'sol_credentials' });
      expect(events).to.have.length(1);
    });
  });

  /** The worker's check activities with other settings (what a worker started with them would run). */
  const activitiesWith = (config: Partial<Config>) =>
    createCompanyCheckActivities({
      config: { ...env.stack.config, ...config },
      db: env.stack.db,
      secrets: env.stack.secrets,
      temporal: env.stack.temporal,
    });

  describe('SUNAT unreachable (nothing listening) and the calls-a-minute budget', () => {
    it('is unknown with the connection error when SUNAT refuses the connection', async () => {
      const company = await productionCompany();
      const closed = activitiesWith({
        authority: { ...env.stack.config.authority, authorityUrl: new URL(await closedPortUrl()).origin },
      });
      const summary = await closed.runCompanyChecks(company.row.id);
      expect(summary).to.have.nested.property('statuses.sol_credentials', 'unknown');
      expect((await readChecks(company)).sol_credentials.detail).to.contain('ECONNREFUSED');
    });

    it('never calls SUNAT more than CHASQUI_CHECKS_RATE times a minute: the next company is told how long to wait', async () => {
      const companies = [await productionCompany(), await productionCompany(), await productionCompany()];
      const limited = activitiesWith({ checks: { ...env.stack.config.checks, ratePerMinute: 2 } });
      // This suite's earlier runs share the log; the budget starts empty here.
      await env.stack.db('rate_limit_log').where({ token_id: CHECKS_RATE_KEY }).delete();
      expect(await limited.runCompanyChecks(companies[0].row.id)).to.have.property('asked', 'sol_credentials');
      expect(await limited.runCompanyChecks(companies[1].row.id)).to.have.property('asked', 'sol_credentials');
      const refused = await limited.runCompanyChecks(companies[2].row.id);
      expect(refused).to.have.property('waitSeconds').within(1, 60);
      expect(await simulatorCalls(companies[2].ruc)).to.have.length(0);
      expect(await readChecks(companies[2])).to.deep.equal({});
    });
  });

  describe('gre_credentials', () => {
    async function greCompany(secret: string): Promise<TestCompany> {
      const company = await productionCompany();
      await simAdmin('credentials', {
        ruc: company.ruc,
        user: 'GUIAS01',
        password: 'clave-guias',
        clientId: `client-${company.ruc}`,
        clientSecret: 'el-secreto',
      });
      company.row = await updateCompany(env.stack.db, company.row.id, {
        ...sol('GUIAS01', 'clave-guias'),
        gre_client_id: `client-${company.ruc}`,
        gre_client_secret_sealed: env.stack.secrets.seal(secret),
        gre_updated_at: new Date(),
      });
      return company;
    }

    it('asks one credential per run: SOL first, the GRE client in the next run; right client ok, wrong client fail', async () => {
      const right = await greCompany('el-secreto');
      const first = await runChecks(right);
      expect(first.sol_credentials.status).to.equal('ok');
      expect(first.gre_credentials.status).to.equal('unknown');
      expect(first.gre_credentials.detail).to.contain('one SUNAT call per company and run');
      const second = await runChecks(right);
      expect(second.gre_credentials.status, second.gre_credentials.detail).to.equal('ok');
      expect(second.sol_credentials.checked_at).to.equal(first.sol_credentials.checked_at);
      expect((await simulatorCalls(right.ruc)).map((c) => c.operation)).to.deep.equal(['getStatusCdr', 'greToken']);

      const wrong = await greCompany('otro-secreto');
      await runChecks(wrong);
      const checks = await runChecks(wrong);
      expect(checks.gre_credentials.status).to.equal('fail');
      expect(checks.gre_credentials.detail).to.contain('cliente no autorizado').and.contain('gre-credentials');
    });
  });

  describe('certificate', () => {
    it('warns with days_left 10 for a certificate expiring in 10 days', async () => {
      const company = await newCompany(env.stack);
      const pfx = generateTestCertificate({ ruc: company.ruc, notAfter: new Date(Date.now() + 10 * 86_400_000) }).pfx(
        'clave',
      );
      const boundary = `----chasqui${randomBytes(8).toString('hex')}`;
      const body = Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="certificate"; filename="c.pfx"\r\nContent-Type: application/x-pkcs12\r\n\r\n`,
        ),
        pfx,
        Buffer.from(
          `\r\n--${boundary}\r\nContent-Disposition: form-data; name="password"\r\n\r\nclave\r\n--${boundary}--\r\n`,
        ),
      ]);
      const upload = await call(env.stack, 'POST', `/v1/companies/${company.ruc}/certificate`, {
        token: company.accountToken,
        body,
        headers: { 'Content-Type': `multipart/form-data; boundary=${boundary}` },
      });
      expect(upload.status, JSON.stringify(upload.body)).to.equal(201);
      const checks = await runChecks(company);
      expect(checks.certificate).to.include({ status: 'warn', days_left: 10, origin: 'own' });
      expect(checks.certificate.detail).to.contain('expires in 10 days');
    });
  });

  /** A document row of the company, as issuing stores it (the checks read rows, never the XML, for these). */
  async function documentRow(
    company: TestCompany,
    series: string,
    number: number,
    issueDate: string,
    status: DocStatus = 'accepted',
  ) {
    await insertDocument(env.stack.db, {
      account_id: company.row.account_id,
      company_id: company.row.id,
      ruc: company.ruc,
      doc_type: '01',
      series,
      number,
      filename: `${company.ruc}-01-${series}-${number}`,
      issue_date: issueDate,
      currency: 'PEN',
      environment: '01',
      destination: 'tax_authority',
      signed_by: 'provider_certificate',
      status,
      hash: randomBytes(20).toString('base64'),
      xml: '<Invoice/>',
      totals: null,
      warnings: [],
    });
    // As recording a verdict does: a final status is resolved.
    if (['accepted', 'observed', 'rejected'].includes(status))
      await env.stack.db('documents').where({ company_id: company.row.id, series, number }).update({ resolved: true });
  }

  describe('series_gaps', () => {
    it('lists the numbers missing between the lowest and highest of each series; rejected numbers count as used', async () => {
      const company = await newCompany(env.stack);
      const today = limaDate(new Date());
      for (const n of [1, 2, 3]) await documentRow(company, 'F001', n, today);
      await documentRow(company, 'F002', 10, today);
      await documentRow(company, 'F002', 11, today, 'rejected');
      await documentRow(company, 'F002', 14, today);
      await documentRow(company, 'F002', 16, today);
      const checks = await runChecks(company);
      expect(checks.series_gaps.status).to.equal('warn');
      expect(checks.series_gaps.gaps).to.deep.equal([
        {
          doc_type: '01',
          series: 'F002',
          lowest: 10,
          highest: 16,
          missing_count: 3,
          missing: ['F002-12', 'F002-13', 'F002-15'],
        },
      ]);

      const clean = await newCompany(env.stack);
      for (const n of [5, 6, 7]) await documentRow(clean, 'F001', n, today);
      const cleanChecks = await runChecks(clean);
      expect(cleanChecks.series_gaps.status).to.equal('ok');
      expect(cleanChecks.series_gaps.gaps).to.deep.equal([]);
    });
  });

  describe('sending_window', () => {
    it('warns for a document whose window closes within 24 h and fails for one past it, with their numbers', async () => {
      const company = await newCompany(env.stack);
      const today = limaDate(new Date());
      await documentRow(company, 'F001', 1, addDays(today, -3), 'to_send');
      const closing = await runChecks(company);
      expect(closing.sending_window.status).to.equal('warn');
      expect(closing.sending_window.closing.map((d: any) => d.number)).to.deep.equal(['F001-1']);
      expect(closing.sending_window.detail).to.contain('F001-1');

      await documentRow(company, 'F001', 2, addDays(today, -4), 'queued');
      const closed = await runChecks(company);
      expect(closed.sending_window.status).to.equal('fail');
      expect(closed.sending_window.closed.map((d: any) => d.number)).to.deep.equal(['F001-2']);

      const calm = await newCompany(env.stack);
      await documentRow(calm, 'F001', 1, today, 'to_send');
      await documentRow(calm, 'F001', 2, addDays(today, -5), 'accepted');
      expect((await runChecks(calm)).sending_window.status).to.equal('ok');
    });
  });

  describe('rule_readiness', () => {
    it('warns with the code and the date when recent documents would fail a rule starting soon', async () => {
      const company = await newCompany(env.stack);
      const signer = createSigner(generateTestCertificate({ ruc: company.ruc }));
      // An invoice of today whose line carries a SUNAT product code that catalog 25 does not list (observed today).
      const invoice = payload('invoice-basic.json', company.ruc, { fechaEmision: limaDate(new Date()) });
      for (const item of invoice.items) item.codigoSunat = '12345678';
      const doc = await commitSignedDocument(env.stack.db, company.row, invoice, signer, { status: 'accepted' });
      const checks = await runChecks(company);
      expect(checks.rule_readiness.status).to.equal('warn');
      const rule = checks.rule_readiness.rules.find((r: any) => r.rule === 'product-code-valid');
      expect(rule).to.include({ effective: ruleDate, documents_checked: 1, would_fail: 1 });
      expect(rule.examples[0]).to.include({ number: `${doc.series}-${doc.number}`, code: '3496' });
      expect(checks.rule_readiness.detail).to.contain(`would fail product-code-valid from ${ruleDate} (SUNAT 3496)`);

      const quiet = await newCompany(env.stack);
      const calm = await runChecks(quiet);
      expect(calm.rule_readiness.status).to.equal('ok');
      expect(calm.rule_readiness.rules.map((r: any) => r.would_fail)).to.satisfy((counts: number[]) =>
        counts.every((n) => n === 0),
      );
    });
  });

  describe('the company.check webhook', () => {
    it('is sent, signed, once per change to warn or fail', async () => {
      const company = await productionCompany(sol('NOEXISTE', 'otra-clave'));
      const secret = randomBytes(24).toString('hex');
      await updateCompany(env.stack.db, company.row.id, {
        webhook_url: receiver.url,
        webhook_secret_sealed: env.stack.secrets.seal(secret),
      });
      // Its PSE authorisation is done, so the only trouble is the one this test makes.
      await recordProcedure(env.stack.db, company.row.id, 'pse_authorization', { state: 'done', done_at: new Date() });
      const mine = () => receiver.requests.filter((r) => JSON.parse(r.body).company?.ruc === company.ruc);
      await runChecks(company);
      const first = await eventually(() => (mine().length ? mine() : undefined));
      const notice = JSON.parse(first[0].body);
      expect(notice).to.deep.include({ event: CHECK_WEBHOOK_EVENT });
      expect(notice.check).to.include({ id: 'sol_credentials', status: 'fail', previous_status: null });
      expect(first[0].headers['x-evento']).to.equal(CHECK_WEBHOOK_EVENT_HEADER);
      expect(first[0].headers['x-firma']).to.equal(createHmac('sha256', secret).update(first[0].body).digest('hex'));

      // The same failure again: no new notice. A document in a series gap: one more (series_gaps → warn).
      await runChecks(company);
      const today = limaDate(new Date());
      await documentRow(company, 'F001', 1, today);
      await documentRow(company, 'F001', 3, today);
      await runChecks(company);
      const all = await eventually(() => (mine().length >= 2 ? mine() : undefined));
      const checks = all.map((r) => JSON.parse(r.body).check.id);
      expect(checks).to.deep.equal(['sol_credentials', 'series_gaps']);
      const deliveries = await call(env.stack, 'GET', `/v1/companies/${company.ruc}/webhook/deliveries`, {
        token: company.accountToken,
      });
      expect(deliveries.body.data.deliveries.map((d: any) => d.event)).to.deep.equal([
        CHECK_WEBHOOK_EVENT,
        CHECK_WEBHOOK_EVENT,
      ]);
      expect(deliveries.body.data.deliveries[0]).to.include({ external_id: null, status: 'delivered' });
      const listSchema =
        openApi.paths['/v1/companies/{ruc}/webhook/deliveries'].get.responses['200'].content['application/json'].schema;
      expect(checkSchema(listSchema, deliveries.body, openApi)).to.deep.equal([]);
    });
  });

  describe('the schedule and the metrics', () => {
    it("runs every company's checks and /metrics shows each company", async () => {
      const a = await productionCompany(sol('NOEXISTE', 'otra-clave'));
      const b = await newCompany(env.stack);
      const scheduleId = `${COMPANY_CHECKS_SCHEDULE_ID}-${env.stack.config.temporal.taskQueue}`;
      const schedule = env.stack.temporal.schedule.getHandle(scheduleId);
      const described = await schedule.describe();
      expect(described.spec.intervals?.[0].every).to.equal(6 * 3_600_000);
      await schedule.trigger();
      const workflowId = await eventually(
        async () => (await schedule.describe()).info.recentActions[0]?.action.workflow.workflowId,
      );
      expect(await env.stack.temporal.workflow.getHandle(workflowId).result()).to.be.at.least(2);
      const metrics = (await call(env.stack, 'GET', '/metrics')).body as string;
      for (const company of [a, b])
        expect(metrics).to.match(
          new RegExp(`chasqui_company_check_status\\{ruc="${company.ruc}",check="certificate"\\} 0`),
        );
      expect(metrics).to.match(
        new RegExp(`chasqui_company_check_status\\{ruc="${a.ruc}",check="sol_credentials"\\} 2`),
      );
      expect(metrics).to.match(new RegExp(`chasqui_certificate_expiry_days\\{ruc="${b.ruc}"\\} \\d+`));
    });
  });

  describe('chasqui support checks', () => {
    /** `chasqui support …` as support staff run it: a separate process on the stack's PostgreSQL and Temporal. */
    async function support(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
      const processEnv = {
        ...process.env,
        DATABASE_URL: await testDatabaseUrl(),
        TEMPORAL_ADDRESS: await testTemporalAddress(),
        TEMPORAL_TASK_QUEUE: env.stack.config.temporal.taskQueue,
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
      const company = await productionCompany(sol('NOEXISTE', 'otra-clave'));
      const json = await support('checks', '--ruc', company.ruc, '--run', '--json');
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
      const unknown = await support('checks', '--ruc', randomRuc());
      expect(unknown.code).to.equal(3);
      expect((await support('checks', 'extra')).code).to.equal(2);
    });
  });

  describe('bad input', () => {
    it('answers 404 for a RUC no account holds and 403 for another account’s company', async () => {
      const mine = await newAccountToken(env.stack);
      const other = await newAccountToken(env.stack);
      const ruc = randomRuc();
      await createCompany(env.stack, other.token, ruc);
      for (const method of ['GET', 'POST'] as const) {
        expect(
          (await call(env.stack, method, `/v1/companies/${randomRuc()}/checks`, { token: mine.token })).status,
        ).to.equal(404);
        expect((await call(env.stack, method, `/v1/companies/${ruc}/checks`, { token: mine.token })).status).to.equal(
          403,
        );
        expect((await call(env.stack, method, `/v1/companies/123/checks`, { token: mine.token })).status).to.equal(422);
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
