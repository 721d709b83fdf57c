import { expect } from 'chai';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import type { AddressInfo } from 'node:net';
import nodemailer from 'nodemailer';
import {
  startIssuingStack,
  newCompany,
  call,
  expectDocumented,
  type IssuingStack,
  type TestCompany,
} from '../issuing/support';
import { eventually } from '../webhooks/support';
import { testConfig } from '../support/services';
import { findDocument } from '../../db/documents';
import { saveCompanyEmailSettings } from '../../db/company-email';
import { loadConfig, ConfigError } from '../../core/config';
import { parseSmtpUrl } from '../../core/smtp-url';
import { sendMail } from '../../buyers/mail';
import { checkPublicHost, type Lookup } from '../../core/net-guard';
import { startListener, startSmtpProcess, type SmtpProcess } from './support';
import { acceptedWithEmail as acceptedWith } from '../buyers/support';

/** A public address the tests' connections cannot reach (no IPv6 route here; elsewhere a port nobody answers on). */
const PUBLIC_V6 = '2001:4860:4860::8888';

/**
 * Issue 32, item 1: the company's SMTP setting carries no options. Attacks through PATCH …/email, through rows stored
 * before the fix, and through a name whose DNS answer changes, against the real API and worker, a real SMTP server in
 * its own process, and a listener standing for a proxy or an internal service. Each attack must fail without effect:
 * no program run (a marker file), no connection to the listener or to the SMTP server on 127.0.0.1.
 */
describe('security: the SMTP setting (issue 32)', function () {
  this.timeout(120_000);
  let env: IssuingStack;
  let smtp: SmtpProcess;
  let proxy: Awaited<ReturnType<typeof startListener>>;
  let marker: string;
  /** What the stub resolver answers for `localhost` next: each test sets the sequence it needs. */
  let answers: string[][] = [];
  const lookup: Lookup = async (host) => {
    if (host !== 'localhost') throw new Error(`the test resolves only localhost, not ${host}`);
    return answers.length > 1 ? answers.shift()! : answers[0];
  };

  before(async () => {
    marker = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'chasqui-rce-')), 'MARKER');
    smtp = await startSmtpProcess();
    proxy = await startListener();
    const base = testConfig();
    env = await startIssuingStack(
      {
        // As in production: a company's server must be public.
        webhookAllowPrivate: false,
        buyers: {
          ...base.buyers,
          smtpUrl: `smtp://127.0.0.1:${smtp.port}`,
          mailFrom: 'Facturación <facturas@chasqui.test>',
          publicUrl: 'https://chasqui.test',
        },
      },
      { lookup },
    );
  });
  after(async () => {
    await env?.stop();
    await smtp?.close();
    await proxy?.close();
  });

  const nothingHappened = () => {
    expect(fs.existsSync(marker), 'the marker file a shell would have written').to.equal(false);
    expect(proxy.connections(), 'connections to the proxy listener').to.equal(0);
  };

  const acceptedWithEmail = (company: TestCompany) => acceptedWith(env.stack, company, 'compras@cliente.pe');
  const attempted = (id: string) =>
    eventually(async () => {
      const row = (await findDocument(env.stack.db, id))!;
      return row.email_attempts > 0 || row.email_status === 'failed' ? row : undefined;
    }, 40_000);

  it('PATCH …/email refuses sendmail, path, proxy, service, a path, a fragment (422 naming smtp_url) and stores nothing', async () => {
    const company = await newCompany(env.stack);
    const attacks = [
      `smtp://8.8.8.8/?sendmail=true&path=/bin/sh&args=-c&args=touch%20${marker}`,
      `smtp://8.8.8.8:25/?proxy=http://127.0.0.1:${proxy.port}`,
      `smtp://8.8.8.8:25?service=gmail`,
      `smtp://8.8.8.8:25/?streamTransport=true&jsonTransport=true`,
      `smtp://8.8.8.8:25/bin/sh`,
      `smtp://8.8.8.8:25/#sendmail=true`,
      `smtp://8.8.8.8:25?`,
      `sendmail://8.8.8.8`,
      `file:///bin/sh`,
    ];
    for (const smtp_url of attacks) {
      const res = await call(env.stack, 'PATCH', `/v1/companies/${company.ruc}/email`, {
        token: company.accountToken,
        json: { smtp_url, from: 'ventas@andina.pe' },
      });
      expect(res.status, smtp_url).to.equal(422);
      expect(Object.keys(res.body.errors ?? {}), smtp_url).to.deep.equal(['smtp_url']);
    }
    const stored = await call(env.stack, 'GET', `/v1/companies/${company.ruc}/email`, { token: company.accountToken });
    expect(stored.body.data.email.smtp_url).to.equal(null);
    nothingHappened();
  });

  it('a setting stored before the fix with sendmail/path/args is not used: the e-mail fails at once with a clear error, nothing runs, and the company check and GET …/email say why', async () => {
    const company = await newCompany(env.stack);
    const old = `smtp://ventas:s3cret@8.8.8.8/?sendmail=true&path=/bin/sh&args=-c&args=touch ${marker}`;
    await saveCompanyEmailSettings(env.stack.db, company.row.id, {
      smtp_url_sealed: env.stack.secrets.seal(old),
      from_address: 'ventas@andina.pe',
    });
    const before = smtp.events.length;
    const doc = await attempted((await acceptedWithEmail(company)).id);
    // Failed for good on the first attempt: a retry could only do the same.
    expect(doc).to.include({ email_status: 'failed', email_attempts: 1 });
    expect(doc.email_error).to.match(/SMTP setting \(smtp_url\) is not used: it must carry only scheme, user/);
    const shown = await call(env.stack, 'GET', `/v1/cpe/${doc.id}`, { token: company.token });
    expect(shown.body.data.document.email).to.include({ status: 'failed', attempts: 1 });
    nothingHappened();
    expect(smtp.events.slice(before), 'nothing reached any SMTP server').to.deep.equal([]);

    const run = await call(env.stack, 'POST', `/v1/companies/${company.ruc}/checks`, { token: company.accountToken });
    expect(run.status).to.equal(202);
    await env.stack.temporal.workflow.getHandle(run.body.data.run.workflow_id).result();
    const checks = await call(env.stack, 'GET', `/v1/companies/${company.ruc}/checks`, { token: company.accountToken });
    const check = checks.body.data.checks.find((c: { id: string }) => c.id === 'email_server');
    expect(check.status).to.equal('fail');
    expect(check.detail).to.include('not used').and.include(`PATCH /v1/companies/${company.ruc}/email`);
    expect(check.detail).not.to.include(marker);

    const email = () => call(env.stack, 'GET', `/v1/companies/${company.ruc}/email`, { token: company.accountToken });
    const settings = await email();
    await expectDocumented(env.stack, 'GET /v1/companies/{ruc}/email', settings);
    expect(settings.body.data.email).to.include({ smtp_url: 'smtp://ventas:****@8.8.8.8', smtp_url_usable: false });
    expect(settings.body.data.email.smtp_url_problem)
      .to.include('not used')
      .and.include('no path, query or fragment')
      .and.include(`PATCH /v1/companies/${company.ruc}/email`);
    for (const secret of ['s3cret', marker, 'sendmail', '/bin/sh'])
      expect(JSON.stringify(settings.body), secret).not.to.include(secret);

    // Not even a URL: nothing of it is shown.
    await saveCompanyEmailSettings(env.stack.db, company.row.id, { smtp_url_sealed: env.stack.secrets.seal('s3cret') });
    expect((await email()).body.data.email).to.include({ smtp_url: '****', smtp_url_usable: false });

    // Stored again with its five parts only: used, and shown whole but for the password.
    const patched = await call(env.stack, 'PATCH', `/v1/companies/${company.ruc}/email`, {
      token: company.accountToken,
      json: { smtp_url: 'smtp://ventas:s3cret@8.8.8.8:587', from: 'ventas@andina.pe' },
    });
    expect(patched.status, JSON.stringify(patched.body)).to.equal(200);
    expect((await email()).body.data.email).to.include({
      smtp_url: 'smtp://ventas:****@8.8.8.8:587',
      smtp_url_usable: true,
      smtp_url_problem: null,
    });
  });

  it('a stored ?proxy= setting opens no connection to the proxy (no port scanner through last_error)', async () => {
    const company = await newCompany(env.stack);
    await saveCompanyEmailSettings(env.stack.db, company.row.id, {
      smtp_url_sealed: env.stack.secrets.seal(`smtp://8.8.8.8:25/?proxy=http://spy:proxypass@127.0.0.1:${proxy.port}`),
      from_address: 'ventas@andina.pe',
    });
    const doc = await attempted((await acceptedWithEmail(company)).id);
    expect(doc).to.include({ email_status: 'failed', email_attempts: 1 });
    expect(doc.email_error).not.to.include(String(proxy.port));
    nothingHappened();
    const shown = await call(env.stack, 'GET', `/v1/companies/${company.ruc}/email`, { token: company.accountToken });
    expect(shown.body.data.email).to.include({ smtp_url: 'smtp://8.8.8.8:25', smtp_url_usable: false });
    for (const leak of ['proxypass', 'spy:']) expect(JSON.stringify(shown.body), leak).not.to.include(leak);
  });

  /** The company's own server is `localhost` on the SMTP process's port, as PATCH stores it (the stub says public). */
  async function ownServerOnLocalhost(company: TestCompany) {
    const patched = await call(env.stack, 'PATCH', `/v1/companies/${company.ruc}/email`, {
      token: company.accountToken,
      json: { smtp_url: `smtp://localhost:${smtp.port}`, from: 'ventas@andina.pe' },
    });
    expect(patched.status, JSON.stringify(patched.body)).to.equal(200);
  }

  it('a name that is public when checked and local when connecting: the worker connects only to the address it checked', async () => {
    const company = await newCompany(env.stack);
    // Our resolver says public at every check; the system's (what a transport resolving again would ask) says
    // 127.0.0.1, where the SMTP server process listens.
    answers = [[PUBLIC_V6]];
    await ownServerOnLocalhost(company);
    const before = smtp.events.length;
    const doc = await attempted((await acceptedWithEmail(company)).id);
    expect(doc.email_status).not.to.equal('sent');
    // Unreachable here (EHOSTUNREACH naming it); where IPv6 routes, a connection timeout.
    expect(doc.email_error).to.match(new RegExp(`${PUBLIC_V6}|timeout`, 'i'));
    expect(smtp.events.slice(before), 'no connection reached the server on 127.0.0.1').to.deep.equal([]);
  });

  it('a name that turns local between configuration and sending: the send-time check refuses it, without saying the address', async () => {
    const company = await newCompany(env.stack);
    answers = [[PUBLIC_V6], ['127.0.0.1']];
    await ownServerOnLocalhost(company);
    const before = smtp.events.length;
    const doc = await attempted((await acceptedWithEmail(company)).id);
    expect(doc).to.include({ email_status: 'failed', email_attempts: 1 });
    expect(doc.email_error).to.include('public address').and.not.include('127.0.0.1');
    expect(smtp.events.slice(before)).to.deep.equal([]);
  });

  it('the transport gets named options only, whatever the URL carried: never `url`, never a query turned into options', async () => {
    const given: Record<string, unknown>[] = [];
    const create = nodemailer.createTransport;
    // Records what the mail library is handed, and sends nothing.
    nodemailer.createTransport = ((options: Record<string, unknown>) => {
      given.push(options);
      return create({ jsonTransport: true });
    }) as typeof nodemailer.createTransport;
    try {
      const parsed = parseSmtpUrl('smtps://ventas%40andina.pe:cl%3Ave@mail.andina.pe:2465');
      expect(parsed.ok).to.equal(true);
      const server = (parsed as Extract<typeof parsed, { ok: true }>).server;
      const sent = await sendMail(
        server,
        { from: 'ventas@andina.pe', to: ['compras@cliente.pe'], subject: 'x', text: 'x' },
        { caFile: null, connectTo: '192.0.2.10' },
      );
      expect(sent.sent).to.equal(true);
    } finally {
      nodemailer.createTransport = create;
    }
    expect(given).to.have.length(1);
    expect(given[0]).to.deep.equal({
      host: '192.0.2.10',
      port: 2465,
      secure: true,
      auth: { user: 'ventas@andina.pe', pass: 'cl:ve' },
      tls: { servername: 'mail.andina.pe' },
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 60_000,
    });
  });

  it('the pinned connection still presents and verifies the name: TLS goes to the checked address with SNI = the host', async () => {
    // A TLS server that only records the name the client asks for, then ends the handshake.
    const asked: (string | undefined)[] = [];
    const server = tls.createServer({
      SNICallback: (name, done) => {
        asked.push(name);
        done(new Error('recorded'));
      },
    });
    server.on('tlsClientError', () => undefined);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const port = (server.address() as AddressInfo).port;
      const host = 'mail.andina.invalid';
      const sent = await sendMail(
        { secure: true, host, port, user: null, password: null },
        { from: 'ventas@andina.pe', to: ['compras@cliente.pe'], subject: 'x', text: 'x' },
        // The name does not resolve anywhere: only the pinned address can have been reached.
        { caFile: null, connectTo: '127.0.0.1' },
      );
      expect(sent.sent).to.equal(false);
      expect(asked, 'the SNI names the host, not the address').to.deep.equal([host]);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('a loopback address spelt as a number is judged by what the system resolves it to, and refused without saying it', async () => {
    // smtp: is not a special scheme: the URL keeps these hosts as written, and getaddrinfo reads them as 127.0.0.1.
    for (const spelt of ['2130706433', '0x7f.1', '0177.0.0.1', '127.1']) {
      const parsed = parseSmtpUrl(`smtp://${spelt}:25`);
      expect(parsed.ok && parsed.server.host, spelt).to.equal(spelt);
      const check = await checkPublicHost(spelt, { allowPrivate: false });
      expect(check, spelt).to.deep.include({ ok: false, reason: 'not_public' });
      expect((check as { message: string }).message, spelt)
        .to.include('a loopback address')
        .and.not.include('127.0.0.1');
    }
  });

  it('CHASQUI_SMTP_URL is held to the same five parts: anything else stops start-up', () => {
    const env_ = (url: string) => ({ CHASQUI_SMTP_URL: url, CHASQUI_MAIL_FROM: 'facturas@chasqui.test' });
    for (const url of [
      'smtp://mail.example.pe/?sendmail=true&path=/bin/sh',
      'smtp://mail.example.pe:25?proxy=http://127.0.0.1:1',
      'smtp://mail.example.pe#x',
      'smtp://mail.example.pe/x',
    ]) {
      expect(() => loadConfig(env_(url)), url)
        .to.throw(ConfigError)
        .with.property('message')
        .that.includes('CHASQUI_SMTP_URL must carry only scheme, user, password, host and port');
    }
    expect(loadConfig(env_('smtps://u%40x:p%3Aw@mail.example.pe')).buyers.smtpUrl).to.equal(
      'smtps://u%40x:p%3Aw@mail.example.pe',
    );
  });
});
