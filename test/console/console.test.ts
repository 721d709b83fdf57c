import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { getBrowser } from '../support/browser';
import { saveCheckResults } from '../../db/company-checks';
import {
  startIssuingStack,
  newCompany,
  payload,
  issue,
  until,
  type IssuingStack,
  type TestCompany,
} from '../issuing/support';
import { testDatabaseUrl, testTemporalAddress } from '../support/services';
import { englishOnlyWords, pageProblems } from '../support/page-checks';
import { openOriginalDelivery } from '../../db/webhooks';
import { Client } from '@temporalio/client';
import { actionRun } from '../../api/console/actions';
import { viewerOf } from '../../api/console/context';
import { listDocuments } from '../../db/documents';
import type { DocumentRow } from '../../db/documents';

const CHASQUI = path.resolve(__dirname, '../../bin/chasqui');
export const SCREENSHOTS = path.join(os.tmpdir(), 'chasqui-console-screenshots');

/**
 * The support console in a real browser (Debian's chromium under playwright-core) against the real API, worker,
 * PostgreSQL, Temporal and the simulator; support tokens made with the real CLI.
 */
describe('support console (real browser)', function () {
  this.timeout(180_000);
  let s: IssuingStack;
  let browser: Browser;
  let a: TestCompany;
  let b: TestCompany;
  let docA: DocumentRow;
  let docB: DocumentRow;
  /** Left `sent` by a send the simulator never answered. */
  let lost: DocumentRow;
  let rejected: DocumentRow;
  /** A manual-mode company's document, waiting for POST /send. */
  let waiting: DocumentRow;
  let manual: TestCompany;
  let supportToken: string;
  let env: NodeJS.ProcessEnv;

  function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    return new Promise((resolve) => {
      execFile(process.execPath, [CHASQUI, 'support', ...args], { env, timeout: 60_000 }, (err, stdout, stderr) =>
        resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
      );
    });
  }

  async function signIn(page: Page, token: string): Promise<void> {
    await page.goto(`${s.stack.url}/console`);
    await page.getByLabel('Token de acceso').fill(token);
    await page.getByRole('button', { name: 'Entrar' }).click();
  }

  async function shot(page: Page, name: string): Promise<void> {
    fs.mkdirSync(SCREENSHOTS, { recursive: true });
    await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
  }

  /** Signs in, then clicks the link and the confirmation of an action; the answer is the page it lands on. */
  async function confirm(page: Page, docId: string, action: string) {
    await page.goto(`${s.stack.url}/console/documents/${docId}/acciones/${action}`);
    const [response] = await Promise.all([
      page.waitForNavigation(),
      page.getByRole('button', { name: /Confirmar/ }).click(),
    ]);
    return response!;
  }

  before(async function () {
    // Every test signs in from 127.0.0.1: more sign-ins than CHASQUI_CONSOLE_SIGNIN_RATE allows one address.
    s = await startIssuingStack({ consoleSignInRate: { limit: 1000, windowSeconds: 300 } });
    env = {
      ...process.env,
      DATABASE_URL: await testDatabaseUrl(),
      TEMPORAL_ADDRESS: await testTemporalAddress(),
      LOG_LEVEL: 'silent',
    };
    a = await newCompany(s.stack);
    b = await newCompany(s.stack);
    const mailed = payload('invoice-basic.json', a.ruc);
    mailed.cliente = { ...mailed.cliente, correo: 'compras@cliente.pe' };
    docA = await until(s.stack, (await issue(s.stack, a.token, mailed)).body.external_id, ['accepted']);
    // A's webhook delivery of docA failed: redeliver applies to it.
    await s.stack.db('companies').where({ id: a.row.id }).update({ webhook_url: 'https://hooks.example.test/cpe' });
    const delivery = await openOriginalDelivery(s.stack.db, docA, 'cpe.resolved');
    await s.stack
      .db('webhook_deliveries')
      .where({ id: delivery.id })
      .update({ status: 'failed', attempts: 5, completed_at: s.stack.db.fn.now() });
    s.sim.addRule({ operation: 'sendBill', ruc: a.ruc, fault: { kind: 'hang' }, times: 1 });
    lost = await until(
      s.stack,
      (await issue(s.stack, a.token, payload('invoice-basic.json', a.ruc))).body.external_id,
      ['sent'],
    );
    s.sim.addRule({ operation: 'sendBill', ruc: a.ruc, fault: { kind: 'reject', code: '2335' }, times: 1 });
    rejected = await until(
      s.stack,
      (await issue(s.stack, a.token, payload('invoice-basic.json', a.ruc))).body.external_id,
      ['rejected'],
    );
    s.sim.clearRules();
    manual = await newCompany(s.stack, { settings: { sending_mode: 'manual' } });
    waiting = await until(
      s.stack,
      (await issue(s.stack, manual.token, payload('invoice-basic.json', manual.ruc))).body.external_id,
      ['to_send'],
    );
    docB = await until(
      s.stack,
      (await issue(s.stack, b.token, payload('invoice-basic.json', b.ruc))).body.external_id,
      ['accepted'],
    );
    const created = await cli('tokens', 'create', '--name', `ana-${process.pid}`, '--expires', '90d', '--json');
    expect(created.code, created.stderr).to.equal(0);
    supportToken = JSON.parse(created.stdout).token;
    browser = await getBrowser();
  });

  after(async () => s?.stop());

  it('support tokens: created once, listed without the secret, a taken name refused', async () => {
    expect(supportToken).to.match(/^chq_sup_/);
    const list = await cli('tokens', 'list', '--json');
    expect(list.code).to.equal(0);
    const mine = JSON.parse(list.stdout).tokens.find((t: { name: string }) => t.name === `ana-${process.pid}`);
    expect(mine.state).to.equal('active');
    expect(list.stdout).to.not.include(supportToken);
    const again = await cli('tokens', 'create', '--name', `ana-${process.pid}`);
    expect(again.code).to.equal(1);
    expect(again.stderr).to.include('exists already');
    const bad = await cli('tokens', 'create');
    expect(bad.code).to.equal(2);
  });

  it('signs in with a support token, finds a document by the number a customer quotes, and opens it', async () => {
    const page = await browser.newPage();
    await signIn(page, supportToken);
    await expect(page.url()).to.match(/\/console\/documents$/);
    const cookies = await page.context().cookies();
    const session = cookies.find((c) => c.name === 'chasqui_console')!;
    expect(session.httpOnly).to.equal(true);
    expect(session.sameSite).to.equal('Strict');
    await page.getByLabel('Número del documento').fill(`${a.ruc}-01-F001-${docA.number}`);
    await page.getByRole('button', { name: 'Buscar' }).click();
    await page.waitForURL(`**/console/documents/${docA.id}`);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).to.equal(docA.filename);
    const text = await page.locator('main').innerText();
    expect(text).to.include('aceptado');
    expect(text).to.include('envío');
    expect(text).to.include('veredicto');
    // The customer by name beside the number (the fixture's cliente), and times on Lima's clock, labelled.
    expect(text).to.match(/Cliente\s+.+\(documento \d{8,11}\)/);
    const lima = new Date(new Date(docA.created_at).getTime() - 5 * 3600_000);
    const stamp = `${String(lima.getUTCDate()).padStart(2, '0')}/${String(lima.getUTCMonth() + 1).padStart(2, '0')}/${lima.getUTCFullYear()}`;
    expect(text).to.include(stamp);
    expect(text).to.include('(hora de Lima)');
    const xml = await page.request.get(`${s.stack.url}/console/documents/${docA.id}/xml`);
    expect(xml.status()).to.equal(200);
    expect(await xml.text()).to.equal((await s.stack.db('documents').where({ id: docA.id }).first('xml')).xml);
    const pdf = await page.request.get(`${s.stack.url}/console/documents/${docA.id}/pdf`);
    expect((await pdf.body()).subarray(0, 5).toString()).to.equal('%PDF-');
    // Support staff see every account: B's document too, by SERIE-NUMERO.
    await page.goto(`${s.stack.url}/console/documents?q=${encodeURIComponent(`${b.ruc}-01-F001-${docB.number}`)}`);
    expect(page.url()).to.include(docB.id);
    await page.close();
  });

  it('lists with the filters of GET /v1/cpe and shows the stuck and companies pages', async () => {
    const page = await browser.newPage();
    await signIn(page, supportToken);
    await page.goto(`${s.stack.url}/console/documents?ruc=${a.ruc}&estado=accepted&tipo=01`);
    expect(await page.locator('tbody tr').count()).to.equal(1);
    expect(await page.locator('tbody').innerText()).to.include(docA.filename);
    await page.goto(`${s.stack.url}/console/documents?ruc=123`);
    expect(await page.locator('[role=alert]').innerText()).to.include('11 dígitos');
    await page.getByRole('link', { name: 'Atascados' }).click();
    expect(await page.getByRole('heading', { level: 1 }).textContent()).to.equal('Documentos atascados');
    expect(await page.getByLabel('Sin veredicto desde hace más de').inputValue()).to.equal('30m');
    await saveCheckResults(s.stack.db, a.row.id, [
      {
        id: 'certificate',
        status: 'warn',
        detail: 'the certificate expires in 10 days',
        checked_at: new Date(),
        fields: { days_left: 10 },
      },
      { id: 'series_gaps', status: 'ok', detail: 'no gaps', checked_at: new Date(), fields: {} },
    ]);
    await page.getByRole('link', { name: 'Empresas' }).click();
    const row = await page.locator('tr', { hasText: a.ruc }).innerText();
    expect(row).to.include('certificado: aviso');
    expect(row).to.not.include('saltos');
    expect(await page.locator('tr', { hasText: b.ruc }).innerText()).to.include('sin verificar');
    await page.close();
  });

  it('the stuck page takes the age as --older-than does: 2h, 1d…; a malformed one is a 400 that says how to write it', async () => {
    const stale = await until(
      s.stack,
      (await issue(s.stack, manual.token, payload('invoice-basic.json', manual.ruc))).body.external_id,
      ['to_send'],
    );
    await s.stack
      .db('documents')
      .where({ id: stale.id })
      .update({ created_at: s.stack.db.raw("now() - interval '3 hours'") });
    const page = await browser.newPage();
    await signIn(page, supportToken);
    await page.goto(`${s.stack.url}/console/stuck`);
    await page.getByLabel('Sin veredicto desde hace más de').fill('2h');
    await page.getByRole('button', { name: 'Mostrar' }).click();
    expect(page.url()).to.match(/\/console\/stuck\?edad=2h$/);
    let main = await page.locator('main').innerText();
    expect(main).to.include('Sin veredicto tras más de 2 horas');
    expect(main).to.include('Espera el envío manual');
    expect(main).to.include(stale.filename);
    await page.goto(`${s.stack.url}/console/stuck?edad=4h`);
    main = await page.locator('main').innerText();
    expect(main).to.not.include(stale.filename);
    for (const bad of ['abc', '30', '2 semanas', '0m', '400d']) {
      const res = await page.goto(`${s.stack.url}/console/stuck?edad=${encodeURIComponent(bad)}`);
      expect(res!.status(), bad).to.equal(400);
      expect(await page.locator('[role=alert]').innerText()).to.include('30m, 2h o 1d');
    }
    await page.close();
  });

  it("an account holder sees only its own companies' documents: another account's is a 404 that leaks nothing", async () => {
    const page = await browser.newPage();
    await signIn(page, a.accountToken);
    await page.goto(`${s.stack.url}/console/documents/${docA.id}`);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).to.equal(docA.filename);
    const res = await page.goto(`${s.stack.url}/console/documents/${docB.id}`);
    expect(res!.status()).to.equal(404);
    const body = await page.content();
    expect(body).to.not.include(docB.filename);
    expect(body).to.not.include(b.ruc);
    const file = await page.request.get(`${s.stack.url}/console/documents/${docB.id}/xml`);
    expect(file.status()).to.equal(404);
    await page.goto(`${s.stack.url}/console/documents?q=${encodeURIComponent(`${b.ruc}-01-F001-${docB.number}`)}`);
    expect(await page.locator('main').innerText()).to.include('Ningún documento coincide');
    await page.goto(`${s.stack.url}/console/companies`);
    const companies = await page.locator('main').innerText();
    expect(companies).to.include(a.ruc);
    expect(companies).to.not.include(b.ruc);
    await page.close();
  });

  it('refuses a wrong token naming what it is (a signing token, an unknown one), a POST without the CSRF token, and an idle session; signs out', async () => {
    const page = await browser.newPage();
    await signIn(page, 'chq_sup_not-a-token');
    expect(await page.locator('[role=alert]').innerText()).to.include('no es válido');
    expect((await page.context().cookies()).some((c) => c.name === 'chasqui_console')).to.equal(false);
    await signIn(page, a.token);
    expect(await page.locator('[role=alert]').innerText()).to.include(
      'Este es un token de firma (cpe:sign) de una empresa',
    );
    expect(await page.locator('[role=alert]').innerText()).to.include('inicie sesión con un token de soporte');
    expect((await page.context().cookies()).some((c) => c.name === 'chasqui_console')).to.equal(false);

    await signIn(page, supportToken);
    const noCsrf = await page.request.post(`${s.stack.url}/console/logout`, { form: { nothing: '1' } });
    expect(noCsrf.status()).to.equal(403);
    expect(await noCsrf.text()).to.include('CSRF');
    // Still signed in: the forged POST did nothing.
    expect((await page.goto(`${s.stack.url}/console/documents`))!.status()).to.equal(200);

    await page.getByRole('button', { name: 'Cerrar sesión' }).click();
    await page.waitForURL('**/console/login?salida=1');
    expect((await page.goto(`${s.stack.url}/console/documents`))!.status()).to.equal(401);

    await signIn(page, supportToken);
    // Nine hours idle (the limit is eight): set the clock of this session back rather than wait.
    await s.stack
      .db('console_sessions')
      .whereNull('ended_at')
      .where({ name: `ana-${process.pid}` })
      .update({ last_seen_at: s.stack.db.raw("now() - interval '9 hours'") });
    const idle = await page.goto(`${s.stack.url}/console/documents`);
    expect(idle!.status()).to.equal(401);
    expect(await page.locator('main').innerText()).to.include('Su sesión terminó');
    await page.close();
  });

  it('offers only the actions that apply, each other one disabled with the lifecycle’s reason in Spanish', async () => {
    const page = await browser.newPage();
    await signIn(page, supportToken);
    await page.goto(`${s.stack.url}/console/documents/${lost.id}`);
    // Sent without a verdict (a timeout): recheck applies; resend does not (it may have arrived); nothing resolved yet.
    expect(await page.getByRole('link', { name: 'Consultar el estado ahora' }).count()).to.equal(1);
    const resendButton = page.getByRole('button', { name: 'Enviar de nuevo', exact: true });
    expect(await resendButton.isDisabled()).to.equal(true);
    expect(await page.locator('#why-resend').innerText()).to.include('Puede que haya llegado a SUNAT');
    expect(await page.locator('#why-redeliver').innerText()).to.include('Aún no hay veredicto');
    expect(await page.locator('#why-email').innerText()).to.include('no indica el correo del comprador');
    expect(await page.locator('main').innerText()).to.include('Qué espera');
    expect(await page.locator('main').innerText()).to.include('SUNAT no respondió a tiempo');

    // Accepted, e-mailed to its buyer, its webhook delivery failed: e-mail and redeliver apply; recheck and resend not.
    await page.goto(`${s.stack.url}/console/documents/${docA.id}`);
    for (const name of ['Entregar el webhook de nuevo', 'Enviar el correo al comprador de nuevo'])
      expect(await page.getByRole('link', { name }).count(), name).to.equal(1);
    expect(await page.locator('#why-recheck').innerText()).to.include('Ya está aceptado');
    expect(await page.locator('#why-resend').innerText()).to.include('Ya está aceptado'.replace('Ya', 'ya'));
    await page.close();
  });

  it('resends a document a simulator fault left stuck, after showing what it would do; lands on the document with its new state; refusals carry the lifecycle’s statuses; audits the signed-in name', async () => {
    const page = await browser.newPage();
    await signIn(page, supportToken);
    await page.goto(`${s.stack.url}/console/documents/${lost.id}`);
    expect(await page.locator('main').innerText()).to.include('enviado');
    // SUNAT never got it: the state query finds that out, and then it may be sent again.
    await page.getByRole('link', { name: 'Consultar el estado ahora' }).click();
    expect(await page.locator('[role=status]').innerText()).to.include('Se hará: consultar el estado.');
    let landed = await Promise.all([
      page.waitForNavigation(),
      page.getByRole('button', { name: /Confirmar/ }).click(),
    ]).then(([r]) => r!);
    // POST-redirect-GET: the document page, with the audit's record as the notice.
    expect(landed.status()).to.equal(200);
    expect(page.url()).to.match(new RegExp(`/console/documents/${lost.id}\\?hecho=recheck$`));
    expect(await page.locator('[role=status]').first().innerText()).to.include(
      'Consultar el estado ahora: hecho. Consulta solicitada',
    );
    await until(s.stack, lost.id, ['queued']);
    await page.goto(`${s.stack.url}/console/documents/${lost.id}/acciones/resend`);
    // The preview changed nothing.
    expect((await s.stack.db('support_actions').where({ document_id: lost.id, action: 'resend' })).length).to.equal(0);
    landed = await confirm(page, lost.id, 'resend');
    expect(await page.locator('[role=status]').first().innerText()).to.include(
      'Enviar de nuevo: hecho. Envío solicitado',
    );
    await until(s.stack, lost.id, ['accepted']);
    await page.goto(`${s.stack.url}/console/documents/${lost.id}`);
    const text = await page.locator('main').innerText();
    expect(text).to.include('aceptado');
    expect(text).to.match(/soporte: enviar de nuevo\s+por console:ana-\d+: hecho — Envío solicitado/);

    // The buyer's e-mail again: this invoice named no cliente.correo; a forced POST is refused as invalid (422).
    const csrf = await page.locator('form.signout input[name=csrf]').getAttribute('value');
    const email = await page.request.post(`${s.stack.url}/console/documents/${lost.id}/acciones/email`, {
      form: { csrf: csrf! },
    });
    expect(email.status()).to.equal(422);
    expect(await email.text()).to.include('no indica el correo del comprador');

    // An accepted document: the preview says why not, and a forced POST is refused the same way (409) and audited.
    await page.goto(`${s.stack.url}/console/documents/${docA.id}/acciones/resend`);
    expect(await page.locator('[role=alert]').innerText()).to.include('No se puede');
    expect(await page.getByRole('button', { name: /Confirmar/ }).count()).to.equal(0);
    const forced = await page.request.post(`${s.stack.url}/console/documents/${docA.id}/acciones/resend`, {
      form: { csrf: csrf! },
    });
    expect(forced.status()).to.equal(409);
    expect(await forced.text()).to.include('un documento resuelto no se envía de nuevo');
    const audit = await s.stack.db('support_actions').where({ document_id: docA.id, action: 'resend' });
    expect(audit.map((r: { result: string; operator: string }) => [r.result, r.operator])).to.deep.equal([
      ['refused', `console:ana-${process.pid}`],
    ]);
    // The e-mail's limit: a fourth send within the hour is 429.
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++)
      statuses.push(
        (
          await page.request.post(`${s.stack.url}/console/documents/${docA.id}/acciones/email`, {
            form: { csrf: csrf! },
          })
        ).status(),
      );
    expect(statuses.slice(-1)).to.deep.equal([429]);
    await page.close();
  });

  it('every page, at 375 and 1280 px: nothing wider than the screen, no word broken mid-letter, no English from the lifecycle', async () => {
    const english = englishOnlyWords();
    expect(english.size).to.be.greaterThan(50);
    const pages: Array<[string, string]> = [
      ['search', '/console/documents'],
      ['results', `/console/documents?ruc=${a.ruc}`],
      ['document-accepted', `/console/documents/${docA.id}`],
      ['document-rejected', `/console/documents/${rejected.id}`],
      ['document-to-send', `/console/documents/${waiting.id}`],
      ['document-after-action', `/console/documents/${lost.id}?hecho=resend`],
      ['stuck', '/console/stuck?edad=1h'],
      ['stuck-invalid', '/console/stuck?edad=dos'],
      ['companies', '/console/companies'],
      ['action-confirmation', `/console/documents/${docA.id}/acciones/redeliver`],
      ['action-refused', `/console/documents/${docA.id}/acciones/recheck`],
    ];
    for (const width of [375, 1280]) {
      const context = await browser.newContext({ viewport: { width, height: 900 }, locale: 'es-PE' });
      const page = await context.newPage();
      const check = async (name: string) => {
        const problems = await pageProblems(page, english);
        expect(problems, `${name} at ${width} px`).to.deep.equal({ scrolls: 0, wide: [], split: [], english: [] });
        await shot(page, `console-${name}-${width}`);
      };
      await page.goto(`${s.stack.url}/console/login`);
      await check('sign-in');
      await signIn(page, a.token);
      await check('sign-in-refused');
      await signIn(page, supportToken);
      for (const [name, url] of pages) {
        await page.goto(`${s.stack.url}${url}`);
        await check(name);
      }
      // The answer to a refused action: the document page with the refusal, under the lifecycle's status.
      await page.goto(`${s.stack.url}/console/documents/${docA.id}`);
      const [answer] = await Promise.all([
        page.waitForNavigation(),
        page.evaluate((action) => {
          const form = document.querySelector('form.signout') as HTMLFormElement;
          form.action = action;
          form.submit();
        }, `/console/documents/${docA.id}/acciones/recheck`),
      ]);
      expect(answer!.status()).to.equal(409);
      expect(await page.locator('[role=alert]').innerText()).to.include('Ya está aceptado');
      await check('action-result-refused');
      await context.close();
    }
  });

  it('an action the delivery service cannot take answers 503, leaves nothing half done and is audited as failed', async () => {
    // A real Temporal that refuses the start: a namespace it does not have.
    const refusing = new Client({ connection: s.stack.temporal.connection, namespace: `missing-${process.pid}` });
    const deps = { ...s.stack, temporal: refusing };
    const [doc] = await listDocuments(s.stack.db, { ids: [docA.id], limit: 1 });
    const deliveries = async () => (await s.stack.db('webhook_deliveries').where({ document_id: docA.id })).length;
    const before = await deliveries();
    const viewer = viewerOf({
      principal: {
        kind: 'support',
        name: `ana-${process.pid}`,
        supportTokenId: '00000000-0000-4000-8000-000000000000',
      },
      csrf: 'unused',
    });
    const outcome = await actionRun(deps, viewer, doc, 'redeliver');
    expect(outcome).to.not.equal('done');
    if (outcome === 'done') return;
    expect(outcome.status).to.equal(503);
    expect(outcome.notice.html).to.include('No se pudo entregar la orden al servicio de envíos');
    expect(await deliveries()).to.equal(before);
    const audit = await s.stack.db('support_actions').where({ document_id: docA.id, action: 'redeliver' });
    expect(audit.map((r: { result: string }) => r.result)).to.deep.equal(['failed']);
  });

  it('a revoked support token ends its sessions and signs in no more', async () => {
    const name = `temp-${process.pid}`;
    const token = JSON.parse((await cli('tokens', 'create', '--name', name, '--json')).stdout).token;
    const page = await browser.newPage();
    await signIn(page, token);
    expect((await page.goto(`${s.stack.url}/console/documents`))!.status()).to.equal(200);
    const revoked = await cli('tokens', 'revoke', name);
    expect(revoked.code, revoked.stderr).to.equal(0);
    expect((await page.goto(`${s.stack.url}/console/documents`))!.status()).to.equal(401);
    await signIn(page, token);
    expect(await page.locator('[role=alert]').innerText()).to.include('no es válido');
    expect((await cli('tokens', 'revoke', name)).code).to.equal(1);
    await page.close();
  });
});
