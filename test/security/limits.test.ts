import { expect } from 'chai';
import got from 'got';
import { startIssuingStack, newCompany, call, type IssuingStack, type TestCompany } from '../issuing/support';
import { eventually } from '../webhooks/support';
import { acceptedWithEmail as acceptedWith, startSmtpServer, type SmtpServerHandle } from '../buyers/support';
import { testConfig } from '../support/services';
import { startTestStack } from '../support/stack';
import { findDocument, type DocumentRow } from '../../db/documents';
import { HSTS_MAX_AGE_SECONDS } from '../../api/middleware/hsts';
import { mailCeiling } from '../../buyers/mail-ceiling';
import { loadConfig, ConfigError } from '../../core/config';

/**
 * Issue 32, item 5: the buyer e-mail ceiling per account and hour (lower for demo documents), the console session's
 * absolute lifetime, and HSTS on an https public URL, against the real API, worker and an SMTP server.
 */
describe('security: limits (issue 32)', function () {
  this.timeout(120_000);
  const DEMO_CEILING = 2;
  let env: IssuingStack;
  let smtp: SmtpServerHandle;

  before(async () => {
    smtp = await startSmtpServer();
    const base = testConfig();
    env = await startIssuingStack({
      // The suites share one database, and the console's suite signs in from 127.0.0.1 too: this suite's sign-ins
      // must not meet the per-address sign-in limit (test/security/client-address.test.ts attacks that one).
      consoleSignInRate: { limit: 1000, windowSeconds: 300 },
      buyers: {
        ...base.buyers,
        smtpUrl: smtp.url(),
        mailFrom: 'facturas@chasqui.test',
        publicUrl: 'https://chasqui.test',
        mailPerAccountHourDemo: DEMO_CEILING,
      },
    });
  });
  after(async () => {
    await env?.stop();
    await smtp?.close();
  });

  const acceptedWithEmail = (company: TestCompany) => acceptedWith(env.stack, company, 'compras@cliente.pe');
  const mailsOf = (doc: DocumentRow) =>
    smtp.mails.filter((m) => m.parsed.subject?.includes(`F001-${Number(doc.number)} de`)).length;

  it(`an account's demo documents get at most ${DEMO_CEILING} buyer e-mails an hour: the next one is held with a clear error, and "send again" answers 429`, async function () {
    // Three documents through SUNAT (the simulator) and three e-mail workflows: slow on a loaded machine.
    this.timeout(240_000);
    const company = await newCompany(env.stack);
    const docs: DocumentRow[] = [];
    for (let i = 0; i < DEMO_CEILING + 1; i++) docs.push(await acceptedWithEmail(company));
    let last: DocumentRow[] | undefined;
    const rows = await eventually(async () => {
      const now = await Promise.all(docs.map(async (d) => (await findDocument(env.stack.db, d.id))!));
      return now.filter((r) => r.email_status === 'sent').length === DEMO_CEILING &&
        now.some((r) => r.email_error?.includes('CHASQUI_MAIL_PER_ACCOUNT_HOUR_DEMO'))
        ? now
        : (void (last = now), undefined);
    }, 150_000).catch((err) => {
      throw new Error(`${err.message}: ${JSON.stringify(last?.map((r) => [r.email_status, r.email_error]))}`);
    });
    const held = rows.find((r) => r.email_status !== 'sent')!;
    // Not dropped: pending for the workflow's next attempt, saying why; the last attempt would fail with the same words.
    expect(held.email_status).to.equal('pending');
    expect(held.email_error).to.match(
      new RegExp(`^not sent: the account sent its ${DEMO_CEILING} buyer e-mails of demo documents this hour`),
    );
    const shown = await call(env.stack, 'GET', `/v1/cpe/${held.id}`, { token: company.token });
    expect(shown.body.data.document.email.last_error).to.equal(held.email_error);
    expect(docs.reduce((n, d) => n + mailsOf(d), 0)).to.equal(DEMO_CEILING);

    const again = await call(env.stack, 'POST', `/v1/cpe/${docs[0].id}/email`, { token: company.token, json: {} });
    expect(again.status, JSON.stringify(again.body)).to.equal(429);
    expect(again.body.message).to.include('CHASQUI_MAIL_PER_ACCOUNT_HOUR_DEMO');
    expect(Number(again.headers['retry-after'])).to.be.within(1, 3600);
    expect(mailsOf(docs[0])).to.equal(1);

    // Another account has its own hour.
    const other = await newCompany(env.stack);
    const fresh = await acceptedWithEmail(other);
    await eventually(async () =>
      (await findDocument(env.stack.db, fresh.id))!.email_status === 'sent' ? true : undefined,
    );
  });

  it('production documents have their own, higher ceiling (CHASQUI_MAIL_PER_ACCOUNT_HOUR), counted apart from the demo one', async () => {
    const company = await newCompany(env.stack);
    const config = {
      ...env.stack.config,
      buyers: { ...env.stack.config.buyers, mailPerAccountHour: 3, mailPerAccountHourDemo: 1 },
    };
    const take = (demo: boolean) =>
      mailCeiling(env.stack.db, config, { accountId: company.accountId, demo, take: true });
    const production = [];
    for (let i = 0; i < 4; i++) production.push(await take(false));
    expect(production.map((a) => a.reached)).to.deep.equal([false, false, false, true]);
    const over = production[3] as Extract<(typeof production)[number], { reached: true }>;
    expect(over.message).to.match(
      /^the account sent its 3 buyer e-mails of documents this hour \(CHASQUI_MAIL_PER_ACCOUNT_HOUR\)/,
    );
    expect(over.resetSeconds).to.be.within(1, 3600);
    // The API's question takes nothing: asking again does not use the hour up further.
    const asked = await mailCeiling(env.stack.db, config, { accountId: company.accountId, demo: false, take: false });
    expect(asked.reached).to.equal(true);
    // Demo documents draw on their own hour.
    expect((await take(true)).reached).to.equal(false);
    expect((await take(true)).reached).to.equal(true);
  });

  it('start-up keeps the demo ceiling at or below the production one', () => {
    const defaults = loadConfig({}).buyers;
    expect([defaults.mailPerAccountHour, defaults.mailPerAccountHourDemo]).to.deep.equal([1000, 50]);
    for (const demo of ['0', '1001'])
      expect(() => loadConfig({ CHASQUI_MAIL_PER_ACCOUNT_HOUR_DEMO: demo }), demo).to.throw(
        ConfigError,
        /CHASQUI_MAIL_PER_ACCOUNT_HOUR_DEMO must be between 1 and CHASQUI_MAIL_PER_ACCOUNT_HOUR \(1000\)/,
      );
    // Set alone, a production ceiling below 50 brings the demo one down with it.
    expect(loadConfig({ CHASQUI_MAIL_PER_ACCOUNT_HOUR: '20' }).buyers.mailPerAccountHourDemo).to.equal(20);
    // Without a production ceiling, the demo one may be anything.
    expect(
      loadConfig({ CHASQUI_MAIL_PER_ACCOUNT_HOUR: '0', CHASQUI_MAIL_PER_ACCOUNT_HOUR_DEMO: '20' }).buyers
        .mailPerAccountHourDemo,
    ).to.equal(20);
    expect(loadConfig({}).consoleMaxSeconds, 'CHASQUI_CONSOLE_MAX_HOURS default').to.equal(12 * 3600);
  });

  /** Signs in to the console with an account token over plain HTTP (the form's CSRF cookie, then the POST). */
  async function consoleCookie(token: string): Promise<string> {
    const form = await got(`${env.stack.url}/console/login`, { throwHttpErrors: false });
    const login = String(form.headers['set-cookie']?.find((c) => c.startsWith('chasqui_console_login='))).split(';')[0];
    const csrf = /name="csrf" value="([^"]+)"/.exec(form.body)![1];
    const res = await got.post(`${env.stack.url}/console/login`, {
      form: { csrf, token },
      headers: { Cookie: login },
      followRedirect: false,
      throwHttpErrors: false,
    });
    expect(res.statusCode).to.equal(303);
    return String(res.headers['set-cookie']?.find((c) => c.startsWith('chasqui_console='))).split(';')[0];
  }
  const consolePage = (cookie: string) =>
    got(`${env.stack.url}/console/documents`, { headers: { Cookie: cookie }, throwHttpErrors: false });

  it('a console session ends CHASQUI_CONSOLE_MAX_HOURS (12) after sign-in however active it is', async () => {
    const company = await newCompany(env.stack);
    const cookie = await consoleCookie(company.accountToken);
    expect((await consolePage(cookie)).statusCode).to.equal(200);
    const opened = () =>
      env.stack.db('console_sessions').where({ account_id: company.accountId }).whereNull('ended_at');
    // Eleven hours old and just used: still on.
    await opened().update({
      created_at: env.stack.db.raw("now() - interval '11 hours'"),
      last_seen_at: env.stack.db.fn.now(),
    });
    expect((await consolePage(cookie)).statusCode).to.equal(200);
    // Thirteen hours old, used a second ago: over.
    await opened().update({
      created_at: env.stack.db.raw("now() - interval '13 hours'"),
      last_seen_at: env.stack.db.fn.now(),
    });
    const over = await consolePage(cookie);
    expect(over.statusCode).to.equal(401);
    expect(over.body).to.include('Su sesión terminó');
  });

  /** The console, /consulta, a probe and the JSON API: every router the header must cover. */
  const EVERY_KIND_OF_PAGE = ['/console/login', '/consulta', '/healthz', '/v1/companies'];
  it('answers with Strict-Transport-Security when CHASQUI_PUBLIC_URL is https: console, /consulta and the API', async () => {
    for (const path of EVERY_KIND_OF_PAGE) {
      const res = await got(`${env.stack.url}${path}`, { throwHttpErrors: false });
      expect(res.headers['strict-transport-security'], path).to.equal(`max-age=${HSTS_MAX_AGE_SECONDS}`);
    }
  });

  it('sends no Strict-Transport-Security when CHASQUI_PUBLIC_URL is plain http (it would lock browsers out)', async () => {
    const base = testConfig();
    const plain = await startTestStack({
      worker: false,
      config: { buyers: { ...base.buyers, publicUrl: 'http://chasqui.test' } },
    });
    try {
      for (const path of EVERY_KIND_OF_PAGE) {
        const res = await got(`${plain.url}${path}`, { throwHttpErrors: false });
        expect(res.statusCode, path).to.be.below(500);
        expect(res.headers, path).to.not.have.property('strict-transport-security');
      }
    } finally {
      await plain.stop();
    }
  });
});
