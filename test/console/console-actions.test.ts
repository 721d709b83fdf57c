/**
 * The support console's actions in a real browser against the real stack (test/console/support.ts): which apply,
 * running one and its audit, a refusing delivery service, and the layout of every page once an action has run.
 */
import { expect } from 'chai';
import type { Browser } from 'playwright-core';
import { until, type IssuingStack, type TestCompany } from '../issuing/support';
import { englishOnlyWords, pageProblems } from '../support/page-checks';
import { Client } from '@temporalio/client';
import { actionRun } from '../../api/console/actions';
import { viewerOf } from '../../api/console/context';
import { listDocuments } from '../../db/document-lists';
import type { DocumentRow } from '../../db/documents';
import { consoleWorld } from './support';
import { everyConsolePage } from './pages';

describe('support console (real browser): actions', function () {
  this.timeout(180_000);
  const { world, signIn, shot, confirm } = consoleWorld();
  let s: IssuingStack;
  let browser: Browser;
  let a: TestCompany;
  let docA: DocumentRow;
  let lost: DocumentRow;
  let supportToken: string;
  before(() => ({ s, browser, a, docA, lost, supportToken } = world));

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

    // Its company's webhook removed since: redeliver is disabled with the reason, before anyone clicks.
    const companies = s.stack.db('companies').where({ id: a.row.id });
    await companies.clone().update({ webhook_url: null });
    await page.goto(`${s.stack.url}/console/documents/${docA.id}`);
    expect(await page.getByRole('button', { name: 'Entregar el webhook de nuevo' }).isDisabled()).to.equal(true);
    expect(await page.locator('#why-redeliver').innerText()).to.include('La empresa no tiene webhook configurado');
    await companies.clone().update({ webhook_url: 'https://hooks.example.test/cpe' });
    // B never had a webhook: no delivery to redo, said as such.
    await page.goto(`${s.stack.url}/console/documents/${world.docB.id}`);
    expect(await page.locator('#why-redeliver').innerText()).to.include('la empresa no tenía webhook');
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
    const setup = await browser.newPage();
    const pages = await everyConsolePage(world, signIn, confirm, setup);
    await setup.close();
    for (const width of [375, 1280]) {
      const context = await browser.newContext({ viewport: { width, height: 900 }, locale: 'es-PE' });
      const page = await context.newPage();
      let signedIn = false;
      for (const { name, status, shows, ownSession, open } of pages) {
        if (!ownSession && !signedIn) await signIn(page, supportToken);
        signedIn = !ownSession;
        const answer = await open(page);
        if (answer) expect(answer.status(), `${name} at ${width} px`).to.equal(status);
        const text = await page.locator('body').innerText();
        for (const said of shows ?? []) expect(text, name).to.include(said);
        const problems = await pageProblems(page, english);
        expect(problems, `${name} at ${width} px`).to.deep.equal({ scrolls: 0, wide: [], split: [], english: [] });
        await shot(page, `console-${name}-${width}`);
      }
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
      idHash: 'unused',
      pending: null,
      secondFactorAt: null,
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
});
