/**
 * People of an account in a real browser (Chromium under playwright-core) against the real API, PostgreSQL and an SMTP
 * server (issue 43): the owner invites, the invited person accepts by the e-mailed link, enrols TOTP from the page's
 * QR key and signs in with it; the owner requires a second factor and a new user is sent to enrol; the audit log shows
 * who did what. Then every people page at 375 and 1280 px: nothing wider than the screen, no split word, no English.
 */
import path from 'node:path';
import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { closeBrowser, getBrowser, screenshot } from '../support/browser';
import { englishOnlyWords, pageProblems } from '../support/page-checks';
import { codeNow, mailedLink, peopleWorld } from './people';

describe('console people (real browser)', function () {
  this.timeout(300_000);
  const world = peopleWorld();
  let browser: Browser;
  const owner = `duena-navegador.${process.pid}@people.test`;
  const contador = `contador.${process.pid}@people.test`;
  const password = `la frase de la duena ${process.pid}`;
  let secret = '';
  /** The pages the walk visits with the owner user's session, and those without one. */
  const walk: Array<{ name: string; path: string }> = [];
  const open: Array<{ name: string; path: string }> = [];

  before(async () => {
    browser = await getBrowser();
  });
  after(closeBrowser);

  const url = (p: string) => `${world.s.stack.url}${p}`;
  async function signIn(page: Page, email: string, pw: string) {
    await page.goto(url('/console/login'));
    await page.getByLabel('Correo').fill(email);
    await page.getByLabel('Contraseña').fill(pw);
    await page.getByRole('button', { name: 'Iniciar sesión con su usuario' }).click();
  }
  async function accept(page: Page, email: string, pw: string) {
    const { path: link, text } = await mailedLink(world, email);
    await page.goto(url(link));
    await page.getByLabel('Nueva contraseña').fill(pw);
    await page.getByRole('button', { name: 'Guardar la contraseña' }).click();
    await page.waitForURL('**/console/login?listo=1');
    return text;
  }

  it('invite → accept → enrol TOTP → sign in with it', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'es-PE' });
    const page = await context.newPage();
    await page.goto(url('/console/login'));
    await page.getByLabel('Token de acceso').fill(world.a.accountToken);
    await page.getByRole('button', { name: 'Entrar' }).click();
    await page.goto(url('/console/users'));
    await page.getByLabel('Correo').fill(owner);
    await page.getByLabel('Rol').selectOption('owner');
    await page.getByRole('button', { name: 'Enviar la invitación' }).click();
    expect(await page.locator('main').innerText()).to.include('Invitación enviada.');
    await screenshot(page, 'people-users-1280');

    const invited = await browser.newContext({ viewport: { width: 375, height: 812 }, locale: 'es-PE' });
    const phone = await invited.newPage();
    const { path: link } = await mailedLink(world, owner);
    open.push({ name: 'invitation', path: link });
    const mail = await accept(phone, owner, password);
    expect(mail).to.include('con el rol propietario');
    expect(mail).to.include('En todas las empresas de la cuenta.');
    await signIn(phone, owner, password);
    await phone.waitForURL('**/console/documents');
    await phone.goto(url('/console/2fa/alta'));
    expect(await phone.locator('svg.qr').count()).to.equal(1);
    await screenshot(phone, 'people-enrol-375');
    secret = (await phone.locator('code.secret').innerText()).trim();
    await phone.getByLabel('Código que muestra la aplicación').fill(codeNow(world, secret));
    await phone.getByRole('button', { name: 'Activar' }).click();
    expect(await phone.locator('ul.codes li').count()).to.equal(10);
    await screenshot(phone, 'people-recovery-codes-375');
    // The codes are shown on that answer only: the enrolment page now goes to the code instead.
    await phone.goto(url('/console/2fa/alta'));
    expect(phone.url()).to.match(/\/console\/2fa$/);

    // A new sign-in asks for the code (of the next 30 s: the one used to enrol is spent).
    world.advance(30_000);
    await invited.clearCookies();
    await signIn(phone, owner, password);
    await phone.waitForURL('**/console/2fa');
    await phone.getByLabel('Código de su aplicación').fill(codeNow(world, secret));
    await phone.getByRole('button', { name: 'Confirmar' }).click();
    await phone.waitForURL('**/console/documents');
    expect(await phone.locator('header').innerText()).to.include(`${owner} (propietario)`);
    await invited.close();
    await context.close();
  });

  it('the owner requires a second factor: a contador limited to one company is sent to enrol', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'es-PE' });
    const page = await context.newPage();
    world.advance(30_000);
    await signIn(page, owner, password);
    await page.getByLabel('Código de su aplicación').fill(codeNow(world, secret));
    await page.getByRole('button', { name: 'Confirmar' }).click();
    await page.goto(url('/console/users'));
    await page.getByLabel('Exigir segundo factor a todos los usuarios').check();
    await page.getByRole('button', { name: 'Guardar', exact: true }).click();
    expect(await page.locator('main').innerText()).to.include('Ajustes guardados.');
    await page.getByLabel('Correo').fill(contador);
    await page.getByLabel('Rol').selectOption('contador');
    await page.getByLabel('Solo las marcadas').check();
    await page.locator(`input[name=company][value="${world.a.row.id}"]`).check();
    await page.getByRole('button', { name: 'Enviar la invitación' }).click();
    expect(await page.locator('main').innerText()).to.include('Invitación enviada.');
    const user = await world.s.stack.db('account_users').where({ email: contador }).first();
    walk.push({ name: 'user', path: `/console/users/${user.id}` });

    const other = await browser.newContext({ viewport: { width: 375, height: 812 }, locale: 'es-PE' });
    const phone = await other.newPage();
    const mail = await accept(phone, contador, `la frase del contador ${process.pid}`);
    expect(mail).to.include('con el rol contador');
    expect(mail).to.include(`Solo en las empresas: ${world.a.row.business_name} (RUC ${world.a.ruc}).`);
    await signIn(phone, contador, `la frase del contador ${process.pid}`);
    await phone.waitForURL('**/console/2fa/alta');
    await phone.goto(url('/console/documents'));
    expect(phone.url(), 'nothing opens before the enrolment').to.match(/\/console\/2fa\/alta$/);
    await other.close();

    // The audit log names who did each of these, in the page and in its CSV.
    await page.goto(url('/console/audit'));
    const log = await page.locator('main').innerText();
    expect(log).to.include('Invitó a un usuario');
    expect(log).to.include('Cambió los ajustes de usuarios');
    expect(log).to.include(`${owner} (usuario)`);
    const csv = await (await page.request.get(url('/console/audit.csv'))).text();
    expect(csv.split('\r\n')[0]).to.equal('"at","actor_kind","actor","address","action","company_ruc","changes"');
    expect(csv).to.include(`"user","${owner}"`);
    expect(csv).to.include(`"user.invite"`);
    expect(csv).to.not.include(password);
    await context.close();
  });

  it('every people page, at 375 and 1280 px: nothing wider than the screen, no word broken, no English', async () => {
    walk.push(
      { name: 'users', path: '/console/users' },
      { name: 'audit', path: '/console/audit' },
      { name: 'audit-company', path: `/console/audit?empresa=${world.a.ruc}` },
      { name: 'second-factor', path: '/console/2fa?volver=%2Fconsole%2Fusers' },
    );
    open.push(
      { name: 'sign-in', path: '/console/login' },
      { name: 'forgot', path: '/console/olvido' },
      { name: 'link-unknown', path: '/console/restablecer?t=nada' },
    );
    const english = englishOnlyWords();
    const clean = async (page: Page, name: string, width: number) => {
      const problems = await pageProblems(page, english);
      expect(problems, `${name} at ${width}`).to.deep.equal({ scrolls: 0, wide: [], split: [], english: [] });
      await screenshot(page, `people-${name}-${width}`);
    };
    for (const width of [375, 1280]) {
      const context = await browser.newContext({ viewport: { width, height: 900 }, locale: 'es-PE' });
      const page = await context.newPage();
      for (const { name, path: p } of open) {
        await page.goto(url(p));
        await clean(page, name, width);
      }
      world.advance(30_000);
      await signIn(page, owner, password);
      await page.getByLabel('Código de su aplicación').fill(codeNow(world, secret));
      await page.getByRole('button', { name: 'Confirmar' }).click();
      for (const { name, path: p } of walk) {
        const answer = await page.goto(url(p));
        expect(answer!.status(), name).to.equal(200);
        await clean(page, name, width);
      }
      await context.close();
    }
  });
});
