/**
 * The panel's companies, checklist and settings (issue 42 items 1, 2, 3 and 9) in a real browser against the real
 * stack: an account holder creates a company (a bad RUC and a RUC of another account first), sees its checklist
 * change as the API loads SOL credentials, changes settings (audited), deletes a company, and never reaches another
 * account's company. Every page is walked at 375 and 1280 px.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import type { Browser, Page, Response } from 'playwright-core';
import { getBrowser, screenshot } from '../support/browser';
import { SCREENSHOTS } from './support';
import { englishOnlyWords, pageProblems } from '../support/page-checks';
import { issue, newCompany, payload, startIssuingStack, until, type IssuingStack } from '../issuing/support';
import { call, createCompany, newAccountToken, randomRuc } from '../companies/helpers';
import { COMPANY_TABS, companyPath } from '../../api/console/panel/frame';
import { findCompany } from '../../db/companies';
import { createSupportToken } from '../../db/support-tokens';
import type { AuditRow } from '../../db/audit';

// The docs' screenshots are retaken only when asked (CHASQUI_DOCS_SCREENSHOTS=1): a test run leaves the tree as it was.
const DOCS = process.env.CHASQUI_DOCS_SCREENSHOTS ? path.resolve(__dirname, '../../docs') : SCREENSHOTS;

describe('panel: companies, checklist, settings (real browser)', function () {
  this.timeout(180_000);
  let s: IssuingStack;
  let browser: Browser;
  let account: { accountId: string; token: string };

  before(async () => {
    s = await startIssuingStack({ consoleSignInRate: { limit: 1000, windowSeconds: 300 } });
    browser = await getBrowser();
    account = await newAccountToken(s.stack, 5);
  });
  after(() => s?.stop());

  const url = (p: string) => `${s.stack.url}${p}`;

  async function signedIn(token = account.token, width = 1280): Promise<Page> {
    const context = await browser.newContext({ viewport: { width, height: 900 }, locale: 'es-PE' });
    const page = await context.newPage();
    await page.goto(url('/console/login'));
    await page.getByLabel('Token de acceso').fill(token);
    await Promise.all([page.waitForNavigation(), page.getByRole('button', { name: 'Entrar' }).click()]);
    return page;
  }

  async function submit(page: Page, button: string | RegExp): Promise<Response> {
    const [response] = await Promise.all([
      page.waitForNavigation(),
      page.getByRole('button', { name: button }).click(),
    ]);
    return response!;
  }

  async function createFromForm(page: Page, ruc: string, name: string, extra: Record<string, string> = {}) {
    await page.goto(url('/console/companies'));
    await page.getByLabel('RUC', { exact: true }).fill(ruc);
    await page.getByLabel('Razón social').fill(name);
    for (const [label, value] of Object.entries(extra)) await page.getByLabel(label).selectOption(value);
    return submit(page, 'Crear la empresa');
  }

  const audit = (ruc: string, action: string): Promise<AuditRow[]> =>
    s.stack.db('audit_log').where({ account_id: account.accountId, company_ruc: ruc, action }).orderBy('id');

  const itemState = (page: Page, id: string) => page.locator(`#item-${id} .check`).innerText();

  it('creates a company: a bad RUC refused beside the field, a RUC of another account confirmed first, the token shown once', async () => {
    const page = await signedIn();
    let answer = await createFromForm(page, '20100066604', 'Mala S.A.C.');
    expect(answer.status()).to.equal(422);
    expect(await page.locator('#e-ruc').innerText()).to.include('dígito verificador válido');
    expect(await page.getByLabel('RUC', { exact: true }).getAttribute('aria-invalid')).to.equal('true');
    expect(await page.getByLabel('Razón social').inputValue()).to.equal('Mala S.A.C.');

    // Externally signed through SUNAT: the API's rule, in Spanish, beside the signing field.
    answer = await createFromForm(page, randomRuc(), 'Externa S.A.C.', { Firma: 'external' });
    expect(answer.status()).to.equal(422);
    expect(await page.locator('#e-signing').innerText()).to.include(
      'solo se admite con el destino «OSE del proveedor»',
    );

    const other = await newAccountToken(s.stack);
    const held = randomRuc();
    await createCompany(s.stack, other.token, held);
    answer = await createFromForm(page, held, 'Compartida S.A.C.');
    expect(answer.status()).to.equal(409);
    expect(await page.locator('main').innerText()).to.include('ya está registrado en otra cuenta');
    answer = await submit(page, /también en mi cuenta/);
    expect(answer.status()).to.equal(201);
    const token = await page.locator('code.secret-value').innerText();
    expect(token).to.match(/^chq_/);
    // The token signs for the company: the API lists it by the account, and the token issues for it.
    const issued = await call(s.stack, 'POST', '/v1/cpe', { token, json: payload('invoice-basic.json', held) });
    expect(issued.status).to.equal(202);
    // Shown once: its company's pages never show it again.
    await page.goto(url(companyPath(held)));
    expect(await page.content()).to.not.include(token);
    const [created] = await audit(held, 'company.create');
    expect(created).to.include({ actor_kind: 'console', actor: 'test account' });
    expect(created.changes.business_name).to.deep.equal({ to: 'Compartida S.A.C.' });
    expect(await page.locator('main').innerText()).to.include('Creó la empresa');
    await page.context().close();
  });

  it('the checklist ticks SOL credentials once the API loads them, and the API’s change is audited with the password masked', async () => {
    const ruc = randomRuc();
    const page = await signedIn();
    expect((await createFromForm(page, ruc, 'Lista S.A.C.')).status()).to.equal(201);
    await page.goto(url(companyPath(ruc)));
    expect(await itemState(page, 'sol_credentials')).to.equal('Falta');
    expect(await page.locator('main').innerText()).to.include('Le falta algo para producción.');
    expect(await page.locator('#item-sol_credentials').getByRole('link').getAttribute('href')).to.equal(
      companyPath(ruc, 'credentials'),
    );

    const loaded = await call(s.stack, 'PATCH', `/v1/companies/${ruc}/sol-credentials`, {
      token: account.token,
      json: { sol_user: 'VENTAS01', sol_password: 'clave-secreta-1' },
    });
    expect(loaded.status).to.equal(200);
    await page.reload();
    expect(await itemState(page, 'sol_credentials')).to.equal('Listo');
    const [row] = await audit(ruc, 'company.sol_credentials');
    expect(row.actor_kind).to.equal('account-token');
    expect(row.changes).to.deep.equal({
      sol_user: { from: null, to: 'VENTAS01' },
      sol_password: { from: null, to: '(secreto nuevo)' },
    });
    expect(JSON.stringify(row)).to.not.include('clave-secreta-1');
    expect(await page.locator('main').innerText()).to.include('Cargó la clave SOL');
    // This month's usage: the demo document counted apart from production.
    const company = (await findCompany(s.stack.db, account.accountId, ruc))!;
    const token = (await call(s.stack, 'POST', `/v1/companies/${ruc}/token`, { token: account.token })).body.data.token;
    // Signed at once (202): the month counts it whatever SUNAT later says of VENTAS01.
    expect((await issue(s.stack, token, payload('invoice-basic.json', ruc))).status).to.equal(202);
    await page.reload();
    const usage = await page.locator('section[aria-labelledby=usage]').innerText();
    expect(usage).to.match(/Documentos firmados en producción\s+0/);
    expect(usage).to.match(/Documentos de prueba \(demo\)\s+1, no consumen saldo/);
    expect(usage).to.include('5.00');
    expect(company.production_documents).to.equal(0);
    await page.context().close();
  });

  it('settings: a change saved and audited old → new; external signing without the provider OSE refused with the API’s reason', async () => {
    const ruc = randomRuc();
    const page = await signedIn();
    await createFromForm(page, ruc, 'Ajustes S.A.C.');
    await page.goto(url(companyPath(ruc, 'settings')));
    await page.getByLabel('Envío a SUNAT').selectOption('manual');
    let answer = await submit(page, 'Guardar envío a SUNAT');
    expect(answer.status()).to.equal(200);
    expect(page.url()).to.match(/\/settings\?hecho=sending$/);
    expect(await page.locator('[role=status]').innerText()).to.include('Envío a SUNAT: guardado.');
    expect(await page.getByLabel('Envío a SUNAT').inputValue()).to.equal('manual');
    const [row] = await audit(ruc, 'company.sending');
    expect(row).to.include({ actor_kind: 'console', actor: 'test account' });
    expect(row.changes).to.deep.equal({ sending_mode: { from: 'automatic', to: 'manual' } });

    await page.getByLabel('Firma').selectOption('external');
    answer = await submit(page, 'Guardar firma');
    expect(answer.status()).to.equal(422);
    expect(await page.locator('#e-signing').innerText()).to.include(
      'solo se admite con el destino «OSE del proveedor»',
    );
    expect(await page.getByLabel('Firma').inputValue()).to.equal('external');
    expect((await findCompany(s.stack.db, account.accountId, ruc))!.signing).to.equal('provider');
    expect(await audit(ruc, 'company.signing')).to.have.length(0);
    await page.context().close();
  });

  it('deletes a company without production documents (its tokens revoked); one with them is refused and stays', async () => {
    const page = await signedIn();
    const production = await newCompany(s.stack, { environment: '02', accountToken: account });
    await until(
      s.stack,
      (await issue(s.stack, production.token, payload('invoice-basic.json', production.ruc))).body.external_id,
      ['accepted'],
    );
    await page.goto(url(companyPath(production.ruc)));
    expect(await page.locator('section[aria-labelledby=delete]').innerText()).to.include('No se puede eliminar');
    expect(await page.getByRole('button', { name: 'Eliminar la empresa' }).count()).to.equal(0);
    // A forged form is refused the same way, and nothing is deleted.
    const csrf = await page.locator('form.signout input[name=csrf]').inputValue();
    const forged = await page.request.post(url(companyPath(production.ruc)), {
      form: { csrf, accion: 'eliminar', confirmo: 'si' },
    });
    expect(forged.status()).to.equal(422);
    expect(await forged.text()).to.include('tiene documentos emitidos o enviados en producción');
    expect(await findCompany(s.stack.db, account.accountId, production.ruc)).to.not.equal(undefined);

    const doomed = await newCompany(s.stack, { accountToken: account });
    // Without the ticked confirmation (a forged form: the page's checkbox is required) nothing is deleted.
    const unconfirmed = await page.request.post(url(companyPath(doomed.ruc)), { form: { csrf, accion: 'eliminar' } });
    expect(unconfirmed.status()).to.equal(422);
    expect(await unconfirmed.text()).to.include('Marque la casilla para confirmar');
    expect(await findCompany(s.stack.db, account.accountId, doomed.ruc)).to.not.equal(undefined);
    await page.goto(url(companyPath(doomed.ruc)));
    expect(await page.locator('section[aria-labelledby=delete]').innerText()).to.include(
      'se revocan todos sus tokens de firma',
    );
    await page.getByLabel(/Entiendo que se revocan/).check();
    const answer = await submit(page, 'Eliminar la empresa');
    expect(answer.status()).to.equal(200);
    expect(await page.locator('[role=status]').innerText()).to.include(`Se eliminó la empresa con RUC ${doomed.ruc}`);
    expect(await findCompany(s.stack.db, account.accountId, doomed.ruc)).to.equal(undefined);
    const refused = await call(s.stack, 'POST', '/v1/cpe', {
      token: doomed.token,
      json: payload('invoice-basic.json', doomed.ruc),
    });
    expect(refused.status).to.equal(401);
    const [row] = await audit(doomed.ruc, 'company.delete');
    expect(row.changes.signing_tokens).to.deep.equal({ from: 1, to: 0 });
    // The API's DELETE goes through the same function: audited too, as the token that sent it.
    const byApi = await newCompany(s.stack, { accountToken: account });
    expect((await call(s.stack, 'DELETE', `/v1/companies/${byApi.ruc}`, { token: account.token })).status).to.equal(
      200,
    );
    const [apiRow] = await audit(byApi.ruc, 'company.delete');
    expect(apiRow.actor_kind).to.equal('account-token');
    expect((await audit(byApi.ruc, 'company.create'))[0].actor_kind).to.equal('account-token');
    await page.context().close();
  });

  it('another account’s company answers 404 on every tab, to a GET and to a form; support staff cannot create companies', async () => {
    const other = await newCompany(s.stack);
    const page = await signedIn();
    for (const tab of COMPANY_TABS) {
      const answer = await page.goto(url(companyPath(other.ruc, tab.id)));
      expect(answer!.status(), tab.id).to.equal(404);
    }
    const csrf = await page.locator('form.signout input[name=csrf]').inputValue();
    for (const [tab, form] of [
      ['settings', { sending: 'manual' }],
      ['overview', { accion: 'eliminar', confirmo: 'si' }],
    ] as const) {
      const answer = await page.request.post(url(companyPath(other.ruc, tab)), { form: { csrf, ...form } });
      expect(answer.status(), tab).to.equal(404);
    }
    const row = (await findCompany(s.stack.db, other.accountId, other.ruc))!;
    expect(row.sending_mode).to.equal('automatic');
    await page.context().close();
    // Support staff read every company but create none: the form is absent and a forged one refused.
    const support = await createSupportToken(s.stack.db, {
      name: `panel-${process.pid}`,
      createdBy: 'panel test',
      expiresAt: null,
    });
    const staff = await signedIn(support!.token);
    await staff.goto(url('/console/companies'));
    expect(await staff.getByRole('button', { name: 'Crear la empresa' }).count()).to.equal(0);
    const staffCsrf = await staff.locator('form.signout input[name=csrf]').inputValue();
    const ruc = randomRuc();
    const forged = await staff.request.post(url('/console/companies'), {
      form: { csrf: staffCsrf, ruc, business_name: 'Soporte S.A.C.', plan_type: '01', environment: '01' },
    });
    expect(forged.status()).to.equal(403);
    expect(await s.stack.db('companies').where({ ruc })).to.have.length(0);
    await staff.context().close();
  });

  it('every page, at 375 and 1280 px: nothing wider than the screen, no word broken mid-letter, Spanish only', async () => {
    const english = englishOnlyWords();
    const held = randomRuc();
    await createCompany(s.stack, (await newAccountToken(s.stack)).token, held);
    for (const width of [375, 1280]) {
      const page = await signedIn(account.token, width);
      const check = async (name: string, status: number, answer: Response | null) => {
        if (answer) expect(answer.status(), `${name} at ${width}`).to.equal(status);
        const problems = await pageProblems(page, english);
        expect(problems, `${name} at ${width} px`).to.deep.equal({ scrolls: 0, wide: [], split: [], english: [] });
        await screenshot(page, `panel-companies-${name}-${width}`);
      };
      await check('companies', 200, await page.goto(url('/console/companies')));
      await check('create-refused', 422, await createFromForm(page, '20100066604', 'Mala S.A.C.'));
      await check('create-confirm', 409, await createFromForm(page, held, 'Compartida S.A.C.'));
      const ruc = randomRuc();
      await check('created', 201, await createFromForm(page, ruc, 'CORPORACIÓN DE INVERSIONES DEL NORTE S.A.C.'));
      await check('created-again', 200, await createFromForm(page, ruc, 'Otra S.A.C.'));
      await check('overview', 200, await page.goto(url(companyPath(ruc))));
      await page.screenshot({ path: path.join(DOCS, `panel-checklist-${width}.png`), fullPage: true });
      await check('settings', 200, await page.goto(url(companyPath(ruc, 'settings'))));
      await page.getByLabel('Firma').selectOption('external');
      await check('settings-refused', 422, await submit(page, 'Guardar firma'));
      await page.context().close();
    }
    expect(fs.existsSync(path.join(DOCS, 'panel-checklist-375.png'))).to.equal(true);
  });
});
