import { expect } from 'chai';
import got from 'got';
import {
  startIssuingStack,
  newCompany,
  payload,
  issue,
  call,
  expectDocumented,
  type IssuingStack,
  type TestCompany,
} from '../issuing/support';
import { eventually, localTlsCertificate, type TlsFiles } from '../webhooks/support';
import { acceptedWithEmail as acceptedWith, startSmtpServer, type SmtpServerHandle } from './support';
import { testConfig } from '../support/services';
import { findDocument } from '../../db/documents';
import { listDocuments } from '../../db/document-lists';
import { listSupportActions } from '../../db/support-actions';
import { documentTimeline } from '../../support/timeline';
import { english } from '../../lifecycle/messages';
import { webhookBody } from '../../activities/webhooks';
import { buyerEmailWorkflowId } from '../../workflows/buyer-email';
import { companySummaryWorkflow } from '../../workflows/daily-summary';
import { signalDocumentWorkflow } from '../../workflows/document-client';
import { limaDate } from '../../core/lima';
import { randomUUID } from 'node:crypto';

/**
 * The buyer's e-mail end to end: the real API, worker, PostgreSQL, Temporal dev server and SUNAT simulator, and real
 * SMTP servers (smtp-server on 127.0.0.1) whose messages are parsed by a real MIME parser (mailparser).
 */
describe("buyer's e-mail (real SMTP server, MIME parsed)", function () {
  this.timeout(120_000);
  let env: IssuingStack;
  let service: SmtpServerHandle;
  let tls: TlsFiles;
  const servers: SmtpServerHandle[] = [];
  let demo: TestCompany;

  before(async () => {
    tls = localTlsCertificate();
    service = await startSmtpServer();
    servers.push(service);
    const base = testConfig();
    env = await startIssuingStack({
      webhookAllowPrivate: true,
      buyers: {
        ...base.buyers,
        smtpUrl: service.url(),
        mailFrom: 'Facturación <facturas@chasqui.test>',
        smtpCaFile: tls.certFile,
        publicUrl: 'https://chasqui.test',
      },
    });
    demo = await newCompany(env.stack);
  });
  after(async () => {
    await env?.stop();
    await Promise.all(servers.map((s) => s.close()));
  });

  const bytes = async (company: TestCompany, path: string) =>
    (
      await got(`${env.stack.url}${path}`, {
        headers: { Authorization: `Bearer ${company.token}` },
        responseType: 'buffer',
      })
    ).body;

  const acceptedWithEmail = (company: TestCompany, correo: unknown) => acceptedWith(env.stack, company, correo);

  const settled = (id: string) =>
    eventually(async () => {
      const row = (await findDocument(env.stack.db, id))!;
      return row.email_status !== 'pending' ? row : undefined;
    }, 30_000);

  it('e-mails an accepted invoice once to its addresses, with the PDF and the signed XML byte for byte as the API serves them', async () => {
    const doc = await acceptedWithEmail(demo, ['compras@cliente.pe', 'contabilidad@cliente.pe']);
    expect((await settled(doc.id)).email_status).to.equal('sent');
    const mails = service.mails.filter((m) => m.parsed.subject?.includes(`F001-${Number(doc.number)} `));
    expect(mails).to.have.length(1);
    const [mail] = mails;
    expect(mail.recipients).to.deep.equal(['compras@cliente.pe', 'contabilidad@cliente.pe']);
    expect(mail.secure).to.equal(false);
    const name = demo.row.business_name;
    expect(mail.parsed.subject).to.equal(`[DEMO] FACTURA ELECTRÓNICA F001-${Number(doc.number)} de ${name}`);
    expect(mail.parsed.from?.value[0]).to.deep.include({ address: 'facturas@chasqui.test', name });
    const text = mail.parsed.text ?? '';
    expect(text).to.include(
      `${name} (RUC ${demo.ruc}) le envía su FACTURA ELECTRÓNICA F001-${Number(doc.number)}, emitida el 15/03/2024 por un total de S/ 118.00.`,
    );
    expect(text).to.include('documento de prueba (DEMO)');
    expect(text).to.include('https://chasqui.test/consulta');

    const attachments = Object.fromEntries(mail.parsed.attachments.map((a) => [a.filename, a]));
    expect(Object.keys(attachments).sort()).to.deep.equal([`${doc.filename}.pdf`, `${doc.filename}.xml`]);
    expect(attachments[`${doc.filename}.pdf`].contentType).to.equal('application/pdf');
    expect(attachments[`${doc.filename}.pdf`].content.equals(await bytes(demo, `/v1/cpe/${doc.id}/pdf`))).to.equal(
      true,
    );
    expect(attachments[`${doc.filename}.xml`].content.equals(await bytes(demo, `/v1/cpe/${doc.id}/xml`))).to.equal(
      true,
    );

    const got_ = await call(env.stack, 'GET', `/v1/cpe/${doc.id}`, { token: demo.token });
    const expected = {
      status: 'sent',
      to: ['compras@cliente.pe', 'contabilidad@cliente.pe'],
      attempts: 1,
      last_error: null,
    };
    expect(got_.body.data.document.email).to.deep.equal(expected);
    await expectDocumented(env.stack, 'GET /v1/cpe/{external_id}', got_);
    // The webhook carries the document as GET shows it.
    expect(
      JSON.parse(webhookBody((await findDocument(env.stack.db, doc.id))!, new Date())).document.email,
    ).to.deep.equal(expected);

    // The e-mail is a child the document workflow starts; it ended sent.
    const handle = env.stack.temporal.workflow.getHandle(`cpe-${doc.id}`);
    expect(await handle.result()).to.equal('accepted');
    const history = await handle.fetchHistory();
    // Started, task ×3, marker (plan and send), upsert DocStatus, child initiated and started, task ×3, completed.
    expect(history.events).to.have.length(12);
    const children = history.events!.filter((e) => e.startChildWorkflowExecutionInitiatedEventAttributes);
    expect(
      children.map((e) => e.startChildWorkflowExecutionInitiatedEventAttributes!.workflowType!.name),
    ).to.deep.equal(['buyerEmailWorkflow']);
    expect(await env.stack.temporal.workflow.getHandle(buyerEmailWorkflowId(doc.id)).result()).to.equal('sent');
  });

  it('costs a document without cliente.correo nothing: its history stays the 7 events of docs/architecture.md and no e-mail is sent', async () => {
    const before = service.mails.length;
    const doc = await acceptedWithEmail(demo, undefined);
    const handle = env.stack.temporal.workflow.getHandle(`cpe-${doc.id}`);
    expect(await handle.result()).to.equal('accepted');
    const history = await handle.fetchHistory();
    expect(history.events).to.have.length(7);
    expect(
      (await call(env.stack, 'GET', `/v1/cpe/${doc.id}`, { token: demo.token })).body.data.document.email,
    ).to.equal(null);
    expect(service.mails.length).to.equal(before);
  });

  it('a receipt in summary mode is e-mailed when the daily summary carrying it is accepted', async () => {
    const company = await newCompany(env.stack, { settings: { receipts_mode: 'summary' } });
    const body = payload('receipt-basic.json', company.ruc, { fechaEmision: limaDate(new Date()) });
    body.cliente = { ...body.cliente, correo: 'vecino@correo.pe' };
    const res = await issue(env.stack, company.token, body);
    expect(res.status, JSON.stringify(res.body)).to.equal(202);
    const id = res.body.external_id as string;
    const waiting = await call(env.stack, 'GET', `/v1/cpe/${id}`, { token: company.token });
    expect(waiting.body.data.document).to.deep.include({
      status: 'to_summarize',
      email: { status: 'pending', to: ['vecino@correo.pe'], attempts: 0, last_error: null },
    });

    const run = await env.stack.temporal.workflow.start(companySummaryWorkflow, {
      taskQueue: env.stack.config.temporal.taskQueue,
      workflowId: `summary-email-${randomUUID()}/${company.row.id}`,
      args: [{ companyId: company.row.id }],
    });
    // The rc's ticket is asked for at once (recheck) instead of after the workflow's 10 s wait.
    let finished = false;
    const nudge = (async () => {
      while (!finished) {
        for (const { id: rc } of await env.stack
          .db('documents')
          .where({ company_id: company.row.id, doc_type: 'rc', status: 'registered' })
          .select('id')) {
          await signalDocumentWorkflow(env.stack.temporal, rc, 'recheck').catch(() => undefined);
        }
        await new Promise((r) => setTimeout(r, 300));
      }
    })();
    expect((await run.result().finally(() => (finished = true))).accepted).to.equal(1);
    await nudge;
    expect(await settled(id)).to.include({ status: 'accepted', email_status: 'sent', email_attempts: 1 });
    const mail = service.mails.find((m) => m.recipients.includes('vecino@correo.pe'))!;
    expect(mail.parsed.subject).to.match(/^\[DEMO\] BOLETA DE VENTA ELECTRÓNICA B\w{3}-\d+ de /);
    expect(mail.parsed.attachments.map((a) => a.filename).sort()).to.deep.equal([
      `${waiting.body.data.document.filename}.pdf`,
      `${waiting.body.data.document.filename}.xml`,
    ]);
  });

  it('refuses bad addresses with a 422 naming cliente.correo, before signing anything', async () => {
    const cases: unknown[] = [
      ['a@cliente.pe', 'b@cliente.pe', 'c@cliente.pe', 'd@cliente.pe', 'e@cliente.pe', 'f@cliente.pe'],
      'compras@cliente.pe\r\nBcc: todos@otro.pe',
      'Compras <compras@cliente.pe>',
      [],
      'no-es-correo',
      42,
    ];
    for (const correo of cases) {
      const body = payload('invoice-basic.json', demo.ruc);
      body.cliente = { ...body.cliente, correo };
      const res = await issue(env.stack, demo.token, body);
      expect(res.status, JSON.stringify(correo)).to.equal(422);
      expect(
        res.body.details.map((d: { path: string }) => d.path),
        JSON.stringify(res.body),
      ).to.include('cliente.correo');
    }
  });

  it("sends through the company's own server with STARTTLS (test CA), its password sealed, its sender and reply-to, the ticket PDF and the CDR", async () => {
    const own = await startSmtpServer({ tls, users: { ventas: 's3creta' } });
    servers.push(own);
    const company = await newCompany(env.stack);
    const patched = await call(env.stack, 'PATCH', `/v1/companies/${company.ruc}/email`, {
      token: company.accountToken,
      json: {
        smtp_url: own.url('ventas:s3creta'),
        from: 'Ventas Andina <ventas@andina.pe>',
        reply_to: 'ayuda@andina.pe',
        format: 'ticket',
        attach_cdr: true,
      },
    });
    expect(patched.status, JSON.stringify(patched.body)).to.equal(200);
    await expectDocumented(env.stack, 'PATCH /v1/companies/{ruc}/email', patched);
    expect(patched.body.data.email).to.deep.include({
      smtp_url: `smtp://ventas:****@127.0.0.1:${own.port}`,
      from: 'Ventas Andina <ventas@andina.pe>',
      format: 'ticket',
      attach_cdr: true,
      enabled: true,
    });
    const stored = await env.stack.db('company_email_settings').where({ company_id: company.row.id }).first();
    expect(JSON.stringify(stored)).not.to.include('s3creta');

    const doc = await acceptedWithEmail(company, 'compras@cliente.pe');
    expect((await settled(doc.id)).email_status).to.equal('sent');
    expect(own.mails).to.have.length(1);
    const [mail] = own.mails;
    expect(mail.secure, 'STARTTLS before the message').to.equal(true);
    expect(mail.user).to.equal('ventas');
    expect(mail.parsed.from?.value[0]).to.deep.include({ address: 'ventas@andina.pe', name: 'Ventas Andina' });
    expect(mail.parsed.replyTo?.value[0].address).to.equal('ayuda@andina.pe');
    const attachments = Object.fromEntries(mail.parsed.attachments.map((a) => [a.filename, a.content]));
    expect(Object.keys(attachments).sort()).to.deep.equal([
      `${doc.filename}.pdf`,
      `${doc.filename}.xml`,
      `R-${doc.filename}.zip`,
    ]);
    expect(
      attachments[`${doc.filename}.pdf`].equals(await bytes(company, `/v1/cpe/${doc.id}/pdf?format=ticket`)),
    ).to.equal(true);
    expect(attachments[`R-${doc.filename}.zip`].equals(await bytes(company, `/v1/cpe/${doc.id}/cdr`))).to.equal(true);
    expect(mail.parsed.text).to.include('la constancia de recepción (CDR) de SUNAT');
  });

  it('stops at once on a permanent refusal (SMTP 550): the e-mail failed, the document still accepted', async () => {
    const refusing = await startSmtpServer({ refuse: true });
    servers.push(refusing);
    const company = await newCompany(env.stack);
    const patched = await call(env.stack, 'PATCH', `/v1/companies/${company.ruc}/email`, {
      token: company.accountToken,
      json: { smtp_url: refusing.url(), from: 'ventas@andina.pe' },
    });
    expect(patched.status, JSON.stringify(patched.body)).to.equal(200);
    const doc = await acceptedWithEmail(company, 'nadie@cliente.pe');
    const row = await settled(doc.id);
    expect(row).to.include({ status: 'accepted', email_status: 'failed', email_attempts: 1 });
    expect(row.email_error).to.match(/^SMTP 550: .*mailbox unavailable/);
    expect(await env.stack.temporal.workflow.getHandle(buyerEmailWorkflowId(doc.id)).result()).to.equal('failed');
    // Support sees it in the document's timeline (chasqui support find, the console).
    const [listed] = await listDocuments(env.stack.db, { ids: [doc.id], limit: 1 });
    const entry = (await documentTimeline(env.stack.db, listed, null)).find((t) => t.event.code === 'event.email');
    expect(entry && english(entry.detail)).to.match(/^failed to nadie@cliente\.pe, 1 attempt\(s\): SMTP 550/);
  });

  it('a company that turned e-mail off: the document reads disabled and nothing is sent', async () => {
    const company = await newCompany(env.stack);
    expect(
      (
        await call(env.stack, 'PATCH', `/v1/companies/${company.ruc}/email`, {
          token: company.accountToken,
          json: { enabled: false },
        })
      ).status,
    ).to.equal(200);
    const before = service.mails.length;
    const doc = await acceptedWithEmail(company, 'compras@cliente.pe');
    expect(await settled(doc.id)).to.include({ email_status: 'disabled', email_attempts: 0 });
    expect(service.mails.length).to.equal(before);
  });

  it('PATCH …/email refuses what it cannot use, naming the field', async () => {
    const company = await newCompany(env.stack);
    const patch = (json: unknown) =>
      call(env.stack, 'PATCH', `/v1/companies/${company.ruc}/email`, { token: company.accountToken, json });
    const cases: [unknown, string][] = [
      [{ smtp_url: 'https://mail.example.pe' }, 'smtp_url'],
      [{ smtp_url: 'smtp://mail.example.pe' }, 'from'],
      [{ from: 'ventas@andina.pe' }, 'from'],
      [{ reply_to: 'ayuda@andina.pe\r\nBcc: x@y.pe' }, 'reply_to'],
      [{ format: 'carta' }, 'format'],
      [{}, 'body'],
    ];
    for (const [json, field] of cases) {
      const res = await patch(json);
      expect(res.status, JSON.stringify(json)).to.equal(422);
      expect(Object.keys(res.body.errors ?? {}), JSON.stringify(res.body)).to.include(field);
    }
  });

  it('POST /v1/cpe/{id}/email sends again (to new addresses), records it in the support timeline, and is rate limited', async () => {
    const doc = await acceptedWithEmail(demo, 'compras@cliente.pe');
    await settled(doc.id);
    const again = await call(env.stack, 'POST', `/v1/cpe/${doc.id}/email`, {
      token: demo.token,
      json: { to: ['gerencia@cliente.pe'] },
    });
    expect(again.status, JSON.stringify(again.body)).to.equal(202);
    expect(again.body.data.document.email).to.include({ status: 'pending', attempts: 0 });
    await expectDocumented(env.stack, 'POST /v1/cpe/{external_id}/email', again);
    const mail = await eventually(() =>
      service.mails.find(
        (m) =>
          m.recipients.includes('gerencia@cliente.pe') && m.parsed.subject?.includes(`F001-${Number(doc.number)} `),
      ),
    );
    expect(mail.parsed.attachments.map((a) => a.filename)).to.include(`${doc.filename}.xml`);
    expect((await settled(doc.id)).email_to).to.deep.equal(['gerencia@cliente.pe']);

    const invalid = await call(env.stack, 'POST', `/v1/cpe/${doc.id}/email`, {
      token: demo.token,
      json: { to: 'no es correo' },
    });
    expect(invalid.status).to.equal(422);
    expect(invalid.body.errors).to.have.property('to');
    await expectDocumented(env.stack, 'POST /v1/cpe/{external_id}/email', invalid);

    // Three sends an hour per document: the first above and two more, then 429.
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      statuses.push((await call(env.stack, 'POST', `/v1/cpe/${doc.id}/email`, { token: demo.token, json: {} })).status);
      await settled(doc.id);
    }
    expect(statuses).to.deep.equal([202, 202, 429]);

    const actions = await listSupportActions(env.stack.db, doc.id);
    expect(actions.map((a) => [a.action, a.result])).to.deep.equal([
      ['email', 'done'],
      ['email', 'refused'],
      ['email', 'done'],
      ['email', 'done'],
      ['email', 'refused'],
    ]);
    expect(actions[0].detail).to.include('gerencia@cliente.pe');
  });

  it('refuses to e-mail a document of another company, and one not accepted yet', async () => {
    const other = await newCompany(env.stack);
    const doc = await acceptedWithEmail(demo, 'compras@cliente.pe');
    expect(
      (await call(env.stack, 'POST', `/v1/cpe/${doc.id}/email`, { token: other.token, json: {} })).status,
    ).to.equal(403);
    // Manual sending mode: the document waits (to_send) until the integrator sends it.
    const manual = await newCompany(env.stack, { settings: { sending_mode: 'manual' } });
    const waiting = await issue(env.stack, manual.token, payload('invoice-basic.json', manual.ruc));
    const res = await call(env.stack, 'POST', `/v1/cpe/${waiting.body.external_id}/email`, {
      token: manual.token,
      json: { to: 'compras@cliente.pe' },
    });
    expect(res.status).to.equal(409);
    expect(res.body.message).to.include('only an accepted document');
  });
});
