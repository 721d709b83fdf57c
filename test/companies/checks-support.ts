import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import got from 'got';
import { startIssuingStack, newCompany, type IssuingStack, type TestCompany } from '../issuing/support';
import { call } from './helpers';
import { localTlsCertificate, startReceiver, type Receiver } from '../webhooks/support';
import { updateCompany, type CompanyChanges } from '../../db/companies';
import { insertDocument } from '../../db/documents';
import { limaDate } from '../../core/lima';
import { addDays, RuleCalendar } from '../../documents/calendar';
import { createCompanyCheckActivities } from '../../activities/company-checks';
import type { Config } from '../../core/config';
import { isResolvedStatus, type DocStatus } from '../../lifecycle/transitions';
import { checkSchema } from '../support/json-schema';
import { openApiDocument } from '../../api/openapi';

/**
 * Issue 26's company checks against the simulator as SUNAT, run by the real worker through the API (POST runs them,
 * GET reads them): the stack every checks suite starts, and what its tests do with it.
 */
export class ChecksStack {
  env!: IssuingStack;
  receiver!: Receiver;
  readonly tls = localTlsCertificate();
  /** As CHASQUI_RULE_DATES would: SUNAT's product code rule starts in 20 days, whatever today is. */
  readonly ruleDate = addDays(limaDate(new Date()), 20);
  readonly openApi = openApiDocument() as Record<string, any>;

  /** A stack started before the suite's tests and stopped after them. */
  static use(): ChecksStack {
    const stack = new ChecksStack();
    before(() => stack.start());
    after(() => stack.stop());
    return stack;
  }

  private async start() {
    this.receiver = await startReceiver(this.tls);
    this.env = await startIssuingStack({
      webhookAllowPrivate: true,
      webhookCaFile: this.tls.certFile,
      issuing: { sendingWindowDays: 3 } as never,
      checks: { everyMs: 6 * 3_600_000, ratePerMinute: 600, concurrency: 4, certWarnDays: 30, gapDays: 45 },
      rules: new RuleCalendar({ 'product-code-valid': this.ruleDate }),
    });
  }

  private async stop() {
    await this.env?.stop();
    await this.receiver?.close();
  }

  simAdmin(path: string, json?: unknown) {
    return got(`${this.env.sim.url}/__admin/${path}`, {
      method: json === undefined ? 'GET' : 'POST',
      json,
      retry: { limit: 0 },
    }).json<any>();
  }

  /** What of the answer is not as api/openapi.ts documents it (nothing, when it conforms). */
  conformance(method: 'get' | 'post', res: { status: number; body: unknown }) {
    return checkSchema(
      this.openApi.paths['/v1/companies/{ruc}/checks'][method].responses[String(res.status)].content['application/json']
        .schema,
      res.body,
      this.openApi,
    );
  }

  /** POST …/checks, waits for that run's workflow to finish, then answers what GET …/checks shows. */
  async runChecks(company: TestCompany): Promise<Record<string, any>> {
    const started = await call(this.env.stack, 'POST', `/v1/companies/${company.ruc}/checks`, {
      token: company.accountToken,
    });
    expect(started.status, JSON.stringify(started.body)).to.equal(202);
    expect(this.conformance('post', started)).to.deep.equal([]);
    await this.env.stack.temporal.workflow.getHandle(started.body.data.run.workflow_id).result();
    return this.readChecks(company);
  }

  async readChecks(company: TestCompany): Promise<Record<string, any>> {
    const res = await call(this.env.stack, 'GET', `/v1/companies/${company.ruc}/checks`, {
      token: company.accountToken,
    });
    expect(res.status).to.equal(200);
    expect(this.conformance('get', res)).to.deep.equal([]);
    return Object.fromEntries(res.body.data.checks.map((c: any) => [c.id, c]));
  }

  /** A production company sending to SUNAT (the simulator) with these SOL credentials. */
  async productionCompany(settings: CompanyChanges = {}): Promise<TestCompany> {
    const company = await newCompany(this.env.stack, { environment: '02', plan: '01' });
    if (Object.keys(settings).length) company.row = await updateCompany(this.env.stack.db, company.row.id, settings);
    return company;
  }

  sol(user: string, password: string): CompanyChanges {
    return { sol_user: user, sol_password_sealed: this.env.stack.secrets.seal(password), sol_updated_at: new Date() };
  }

  async simulatorCalls(ruc: string): Promise<any[]> {
    // The simulator logs no RUC for a GRE token request: its path names the client, which these tests name after the RUC.
    return (await this.simAdmin('log')).filter((entry: any) => entry.ruc === ruc || String(entry.path).includes(ruc));
  }

  /** The worker's check activities with other settings (what a worker started with them would run). */
  activitiesWith(config: Partial<Config>) {
    return createCompanyCheckActivities({
      config: { ...this.env.stack.config, ...config },
      db: this.env.stack.db,
      files: this.env.stack.files,
      secrets: this.env.stack.secrets,
      temporal: this.env.stack.temporal,
    });
  }

  /** A document row of the company, as issuing stores it (the checks read rows, never the XML, for these). */
  async documentRow(
    company: TestCompany,
    series: string,
    number: number,
    issueDate: string,
    status: DocStatus = 'accepted',
  ) {
    const { db } = this.env.stack;
    await insertDocument(db, {
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
    if (isResolvedStatus(status))
      await db('documents').where({ company_id: company.row.id, series, number }).update({ resolved: true });
  }
}
