/**
 * The support console in a real browser (Debian's chromium under playwright-core) against the real API, worker,
 * PostgreSQL, Temporal and the simulator; support tokens made with the real CLI: signing in, finding documents and
 * what each viewer may see. Actions and the layout of every page are in console-actions.test.ts.
 */
import { expect } from 'chai';
import type { Browser } from 'playwright-core';
import { saveCheckResults } from '../../db/company-checks';
import { payload, issue, until, type IssuingStack, type TestCompany } from '../issuing/support';
import type { DocumentRow } from '../../db/documents';
import { certificateExpiring, consoleWorld } from './support';
import { result } from '../../activities/checks/context';
import { message } from '../../lifecycle/messages';

describe('support console (real browser)', function () {
  this.timeout(180_000);
  const { world, cli, signIn } = consoleWorld();
  let s: IssuingStack;
  let browser: Browser;
  let a: TestCompany;
  let b: TestCompany;
  let docA: DocumentRow;
  let docB: DocumentRow;
  let manual: TestCompany;
  let supportToken: string;
  before(() => ({ s, browser, a, b, docA, docB, manual, supportToken } = world));

  it('support tokens: created once, listed without the secret, a taken name refused', async () => {
    expect(supportToken).to.match(/^chq_sup_/);
    // Three processes that change nothing: side by side rather than one after the other.
    const [list, again, bad] = await Promise.all([
      cli('tokens', 'list', '--json'),
      cli('tokens', 'create', '--name', `ana-${process.pid}`),
      cli('tokens', 'create'),
    ]);
    expect(list.code).to.equal(0);
    const mine = JSON.parse(list.stdout).tokens.find((t: { name: string }) => t.name === `ana-${process.pid}`);
    expect(mine.state).to.equal('active');
    expect(list.stdout).to.not.include(supportToken);
    expect(again.code).to.equal(1);
    expect(again.stderr).to.include('exists already');
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
    // When chasqui received it, on Lima's clock (UTC-5), and the caption says so.
    const lima = new Date(new Date(docA.created_at).getTime() - 5 * 3600_000).toISOString();
    const received = `${lima.slice(8, 10)}/${lima.slice(5, 7)}/${lima.slice(0, 4)} ${lima.slice(11, 16)}`;
    expect(await page.locator('td[data-label=Recibido]').innerText()).to.equal(received);
    expect(await page.locator('caption').innerText()).to.include('recibidos en hora de Lima');
    await page.goto(`${s.stack.url}/console/documents?ruc=123`);
    expect(await page.locator('[role=alert]').innerText()).to.include('11 dígitos');
    await page.getByRole('link', { name: 'Atascados' }).click();
    expect(await page.getByRole('heading', { level: 1 }).textContent()).to.equal('Documentos atascados');
    expect(await page.getByLabel('Sin veredicto desde hace más de').inputValue()).to.equal('30m');
    await saveCheckResults(s.stack.db, a.row.id, [
      certificateExpiring(10),
      result('series_gaps', 'ok', message('check.series_gaps.none', { since: '2026-11-01' })),
      // The authority's words reach the page as text: a hostile answer is shown, never run.
      result(
        'sol_credentials',
        'fail',
        message('check.credentials.refused', {
          user: 'U1',
          ruc: a.ruc,
          code: '0102',
          message: '<img src=x onerror=alert(1)>',
        }),
      ),
    ]);
    await page.getByRole('link', { name: 'Empresas' }).click();
    const row = await page.locator('tr', { hasText: a.ruc }).innerText();
    expect(row).to.include('certificado: aviso');
    expect(row).to.include('SUNAT rechazó el usuario SOL U1 (código 0102): <img src=x onerror=alert(1)>.');
    expect(await page.locator('img[src=x]').count()).to.equal(0);
    expect(row).to.not.include('saltos');
    expect(await page.locator('tr', { hasText: b.ruc }).innerText()).to.include('sin verificar');
    await page.close();
  });

  it("a timeout says what follows: SUNAT's is queried every 10 minutes; an OSE's, which nothing queries, says what support does", async () => {
    const { lost, oseLost } = world;
    // The support CLI's view (a process of its own, reading only) is started now and read at the end.
    const finding = cli('find', oseLost.id, '--json');
    // The fact the workflow's step recorded, from the plan's own predicate.
    expect((await s.stack.db('documents').where({ id: lost.id }).first()).queryable).to.equal(true);
    expect((await s.stack.db('documents').where({ id: oseLost.id }).first()).queryable).to.equal(false);
    const page = await browser.newPage();
    await signIn(page, supportToken);
    await page.goto(`${s.stack.url}/console/documents/${oseLost.id}`);
    const why = await page.locator('dt:text-is("Qué espera") + dd').innerText();
    expect(why).to.match(/^La OSE no respondió a tiempo y no ofrece consulta de estado/);
    expect(why).to.include('portal de la OSE').and.not.include('cada 10 minutos').and.not.include('SUNAT');
    // Neither the state query (it learns nothing) nor support's resend (it may have arrived) is offered, and why.
    const body = await page.locator('main').innerText();
    expect(body).to.include('Puede que haya llegado a la OSE, que no ofrece consulta de estado');
    const recheck = await page.request.post(`${s.stack.url}/console/documents/${oseLost.id}/acciones/recheck`, {
      form: { csrf: await page.locator('input[name=csrf]').first().inputValue() },
    });
    expect(recheck.status()).to.equal(409);
    expect(await recheck.text()).to.include('verifique en su portal');
    const audit = await s.stack.db('support_actions').where({ document_id: oseLost.id });
    expect(audit.map((r: { action: string; result: string }) => [r.action, r.result])).to.deep.equal([
      ['recheck', 'refused'],
    ]);
    await page.goto(`${s.stack.url}/console/documents/${lost.id}`);
    expect(await page.locator('dt:text-is("Qué espera") + dd').innerText()).to.include(
      'SUNAT no respondió a tiempo: se consulta su estado cada 10 minutos',
    );
    await page.close();
    // The support CLI groups it apart, in English, with the same decision.
    const found = await finding;
    expect(found.code, found.stderr).to.equal(0);
    const { waiting } = JSON.parse(found.stdout);
    expect(waiting.reason).to.equal('unqueried');
    expect(waiting.explanation).to.include('nothing queries it by itself').and.not.include('every 10 min');
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
