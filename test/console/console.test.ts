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

  before(async function () {
    s = await startIssuingStack();
    env = {
      ...process.env,
      DATABASE_URL: await testDatabaseUrl(),
      TEMPORAL_ADDRESS: await testTemporalAddress(),
      LOG_LEVEL: 'silent',
    };
    a = await newCompany(s.stack);
    b = await newCompany(s.stack);
    docA = await until(
      s.stack,
      (await issue(s.stack, a.token, payload('invoice-basic.json', a.ruc))).body.external_id,
      ['accepted'],
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
    await shot(page, 'document-1280');
    const xml = await page.request.get(`${s.stack.url}/console/documents/${docA.id}/xml`);
    expect(xml.status()).to.equal(200);
    expect(await xml.text()).to.equal((await s.stack.db('documents').where({ id: docA.id }).first('xml')).xml);
    const pdf = await page.request.get(`${s.stack.url}/console/documents/${docA.id}/pdf`);
    expect((await pdf.body()).subarray(0, 5).toString()).to.equal('%PDF-');
    // Support staff see every account: B's document too, by SERIE-NUMERO.
    await page.goto(`${s.stack.url}/console/documents?q=${encodeURIComponent(`${b.ruc}-01-F001-${docB.number}`)}`);
    expect(page.url()).to.include(docB.id);
    await page.setViewportSize({ width: 375, height: 800 });
    await page.goto(`${s.stack.url}/console/documents/${docA.id}`);
    await shot(page, 'document-375');
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).to.be.at.most(0);
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
    expect(row).to.include('certificate: aviso');
    expect(row).to.not.include('series_gaps');
    expect(await page.locator('tr', { hasText: b.ruc }).innerText()).to.include('sin verificar');
    await shot(page, 'companies');
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

  it('refuses a wrong token, a POST without the CSRF token, and an idle session; signs out', async () => {
    const page = await browser.newPage();
    await signIn(page, 'chq_sup_not-a-token');
    expect(await page.locator('[role=alert]').innerText()).to.include('no es válido');
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

  it('resends a document a simulator fault left stuck, after showing what it would do; refuses it for an accepted one; audits the signed-in name', async () => {
    s.sim.addRule({ operation: 'sendBill', ruc: a.ruc, fault: { kind: 'hang' }, times: 1 });
    const lost = await until(
      s.stack,
      (await issue(s.stack, a.token, payload('invoice-basic.json', a.ruc))).body.external_id,
      ['sent'],
    );
    s.sim.clearRules();
    const page = await browser.newPage();
    await signIn(page, supportToken);
    await page.goto(`${s.stack.url}/console/documents/${lost.id}`);
    expect(await page.locator('main').innerText()).to.include('enviado');
    // SUNAT never got it: the state query finds that out, and then it may be sent again.
    await page.getByRole('link', { name: 'Consultar el estado ahora' }).click();
    expect(await page.locator('[role=status]').innerText()).to.include('Se hará: would recheck');
    await page.getByRole('button', { name: /Confirmar/ }).click();
    expect(await page.locator('[role=status]').innerText()).to.include('state query requested');
    await until(s.stack, lost.id, ['queued']);
    await page.goto(`${s.stack.url}/console/documents/${lost.id}/acciones/resend`);
    await shot(page, 'resend-preview');
    // The preview changed nothing.
    expect((await s.stack.db('support_actions').where({ document_id: lost.id, action: 'resend' })).length).to.equal(0);
    await page.getByRole('button', { name: /Confirmar/ }).click();
    expect(await page.locator('[role=status]').innerText()).to.include('send requested');
    await until(s.stack, lost.id, ['accepted']);
    await page.goto(`${s.stack.url}/console/documents/${lost.id}`);
    const text = await page.locator('main').innerText();
    expect(text).to.include('aceptado');
    expect(text).to.match(/soporte: resend\s+by console:ana-\d+: done/);
    await shot(page, 'after-resend');

    // The buyer's e-mail again: this invoice named no cliente.correo, and the preview says so before anything is sent.
    await page.goto(`${s.stack.url}/console/documents/${lost.id}/acciones/email`);
    expect(await page.locator('[role=alert]').innerText()).to.include('names no buyer e-mail');
    expect(await page.getByRole('button', { name: /Confirmar/ }).count()).to.equal(0);

    // An accepted document: the preview says why not, and a forced POST is refused the same way (409) and audited.
    await page.goto(`${s.stack.url}/console/documents/${docA.id}/acciones/resend`);
    expect(await page.locator('[role=alert]').innerText()).to.include('No se puede');
    expect(await page.getByRole('button', { name: /Confirmar/ }).count()).to.equal(0);
    const csrf = await page.locator('form.signout input[name=csrf]').getAttribute('value');
    const forced = await page.request.post(`${s.stack.url}/console/documents/${docA.id}/acciones/resend`, {
      form: { csrf: csrf! },
    });
    expect(forced.status()).to.equal(409);
    const audit = await s.stack.db('support_actions').where({ document_id: docA.id, action: 'resend' });
    expect(audit.map((r: { result: string; operator: string }) => [r.result, r.operator])).to.deep.equal([
      ['refused', `console:ana-${process.pid}`],
    ]);
    await page.close();
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
