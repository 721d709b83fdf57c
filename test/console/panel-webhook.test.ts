import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { webhookSignature } from '../../activities/webhooks';
import { openOriginalDelivery } from '../../db/webhooks';
import { eventually, resolvedDocument } from '../webhooks/support';
import { panelWorld } from './panel-world';

/**
 * Issue 42, item 7, in a real browser: the webhook tab sets the URL with the API's checks (refusals in Spanish beside
 * the field), shows its secret once, rotates it, sends a test notice a local receiver verifies with that secret,
 * redelivers from the delivery log through the support action's function, disables the webhook, and answers another
 * account's company as unknown; its pages at 375 and 1280 px.
 */
describe('panel: webhook (real browser, local receiver)', function () {
  this.timeout(120_000);
  const { world, url, signedIn, submit, walk, expectUnknownCompany } = panelWorld();
  const webhookPath = () => `/console/companies/${world.ruc}/webhook`;
  const company = () =>
    world.stack.db('companies').where({ ruc: world.ruc, account_id: world.account.accountId }).first();
  let secret: string;

  async function saveUrl(page: Page, typed: string) {
    await page.goto(url(webhookPath()));
    await page.getByLabel('URL del webhook (https)').fill(typed);
    return submit(page, () => page.getByRole('button', { name: 'Guardar la URL' }).click());
  }
  const click = (page: Page, name: string) => submit(page, () => page.getByRole('button', { name }).click());

  it('refuses a URL the API refuses, in Spanish beside the field, and changes nothing', async () => {
    const page = await signedIn();
    for (const [typed, says] of [
      ['http://93.184.215.14/hook', 'Debe usar https'],
      ['https://user:pw@93.184.215.14/', 'No debe llevar usuario ni contraseña'],
    ]) {
      expect((await saveUrl(page, typed)).status(), typed).to.equal(422);
      expect(await page.locator('#webhook-url-error').innerText()).to.include(says);
      expect(await page.getByLabel('URL del webhook (https)').getAttribute('aria-describedby')).to.equal(
        'webhook-url-error',
      );
    }
    expect((await company()).webhook_url).to.equal(null);
    await page.context().close();
  });

  it('sets the URL and shows its secret once; the page never shows it again', async () => {
    const page = await signedIn();
    expect((await saveUrl(page, world.receiver.url)).status()).to.equal(200);
    secret = await page.locator('code.secret').innerText();
    const row = await company();
    expect(row.webhook_url).to.equal(world.receiver.url);
    expect(world.stack.secrets.open(row.webhook_secret_sealed)).to.equal(secret);
    await page.goto(url(webhookPath()));
    expect(await page.content()).to.not.include(secret);
    const [audit] = await world.stack.db('audit_log').where({ action: 'webhook.set', company_ruc: world.ruc });
    expect(audit.actor_kind).to.equal('console');
    expect(JSON.stringify(audit.changes)).to.not.include(secret);
    await page.context().close();
  });

  it('rotates the secret: a new one shown once, the old one no longer stored', async () => {
    const page = await signedIn();
    await page.goto(url(webhookPath()));
    expect((await click(page, 'Generar un secreto nuevo')).status()).to.equal(200);
    const rotated = await page.locator('code.secret').innerText();
    expect(rotated).to.not.equal(secret);
    expect(world.stack.secrets.open((await company()).webhook_secret_sealed)).to.equal(rotated);
    secret = rotated;
    await page.context().close();
  });

  it('sends a test notice the receiver verifies with the secret; the log shows it delivered with its answer', async () => {
    const page = await signedIn();
    await page.goto(url(webhookPath()));
    const seen = world.receiver.requests.length;
    await click(page, 'Enviar un aviso de prueba');
    expect(await page.locator('[role=status]').innerText()).to.include('Aviso de prueba en camino');
    const got = await eventually(() => world.receiver.requests[seen]);
    expect(got.headers['x-firma']).to.equal(webhookSignature(secret, got.body));
    expect(got.headers['x-evento']).to.equal('webhook.prueba');
    expect(JSON.parse(got.body)).to.include({ event: 'webhook.test', test: true });
    await eventually(async () => {
      await page.goto(url(webhookPath()));
      const text = await page.locator('tbody tr').first().innerText();
      return /aviso de prueba/.test(text) && /entregado/.test(text) ? text : undefined;
    });
    expect(await page.locator('tbody tr').first().locator('td[data-label=Respuesta]').innerText()).to.equal('200');
    await page.context().close();
  });

  it("redelivers a document's notice from the log with the support action's function, recorded in its history", async () => {
    const row = await company();
    const doc = await resolvedDocument(world.stack.db, row);
    const delivery = await openOriginalDelivery(world.stack.db, doc, 'cpe.resolved');
    await world.stack
      .db('webhook_deliveries')
      .where({ id: delivery.id })
      .update({ status: 'failed', attempts: 5, completed_at: world.stack.db.fn.now() });
    const page = await signedIn();
    await page.goto(url(webhookPath()));
    const logged = page.locator('tbody tr', { hasText: doc.filename });
    expect(await logged.locator('td[data-label=Estado]').innerText()).to.equal('fallido');
    const seen = world.receiver.requests.length;
    await submit(page, () => logged.getByRole('button', { name: 'Entregar de nuevo' }).click());
    expect(await page.locator('[role=status]').innerText()).to.include('Entrega nueva en camino');
    const got = await eventually(() => world.receiver.requests[seen]);
    expect(got.headers['x-evento']).to.equal('cpe.resuelto');
    expect(got.headers['x-entrega']).to.not.equal(delivery.id);
    expect(JSON.parse(got.body).document.external_id).to.equal(doc.id);
    expect(got.headers['x-firma']).to.equal(webhookSignature(secret, got.body));
    const [action] = await world.stack.db('support_actions').where({ document_id: doc.id, action: 'redeliver' });
    expect(action).to.include({ operator: 'console:test account', result: 'done' });
    await page.context().close();
  });

  it("answers another account's company as unknown (404), for a look and for a form", async () => {
    const seen = world.receiver.requests.length;
    await expectUnknownCompany('webhook', '', { url: world.receiver.url });
    await expectUnknownCompany('webhook', '/test', {});
    const theirs = await world.stack.db('companies').where({ ruc: world.otherRuc }).first();
    expect(theirs.webhook_url).to.equal(null);
    expect(world.receiver.requests.length).to.equal(seen);
  });

  it('every webhook page at 375 and 1280 px: nothing past the screen, no split word, Spanish only', async () => {
    await walk([
      { name: 'webhook', status: 200, open: (p) => p.goto(url(webhookPath())) },
      {
        name: 'webhook-url-refused',
        status: 422,
        open: (p) => saveUrl(p, 'http://hooks.tienda-de-ejemplo-con-nombre-largo.com.pe/recibir/avisos/chasqui'),
      },
      {
        name: 'webhook-secret',
        status: 200,
        open: async (p) => (await p.goto(url(webhookPath())), click(p, 'Generar un secreto nuevo')),
      },
    ]);
  });

  it('disables the webhook: no URL left, the change audited', async () => {
    const page = await signedIn();
    await page.goto(url(webhookPath()));
    await click(page, 'Desactivar el webhook');
    expect(await page.locator('[role=status]').innerText()).to.include('Webhook desactivado');
    expect((await company()).webhook_url).to.equal(null);
    expect(await page.locator('main').innerText()).to.include('Sin webhook');
    const [audit] = await world.stack.db('audit_log').where({ action: 'webhook.disable', company_ruc: world.ruc });
    expect(audit.changes.secret).to.deep.equal({ from: '(secreto)', to: null });
    await page.context().close();
  });
});
