/**
 * The panel's e-mail tab (issue 42 item 8) in a real browser against the real stack and real SMTP servers
 * (test/buyers/support.ts): the SMTP setting in its five parts with the password never shown, the logo with its
 * preview, and a test e-mail that arrives, bounded by the address check and the per-company rate.
 */
import { expect } from 'chai';
import { startSmtpServer, type SmtpServerHandle } from '../buyers/support';
import { testConfig } from '../support/services';
import { testPng } from '../support/pdf-tools';
import { issue, payload, until } from '../issuing/support';
import { call } from '../companies/helpers';
import { panelWorld } from './panel-support';

describe('panel: e-mail to buyers (real browser)', function () {
  this.timeout(180_000);
  let service: SmtpServerHandle;
  let own: SmtpServerHandle;
  before(async () => {
    [service, own] = await Promise.all([startSmtpServer(), startSmtpServer()]);
  });
  after(async () => Promise.all([service?.close(), own?.close()]));
  const { world, signedIn, submit, walk } = panelWorld(() => ({
    webhookAllowPrivate: true,
    buyers: { ...testConfig().buyers, smtpUrl: service.url(), mailFrom: 'Facturación <facturas@chasqui.test>' },
    consoleTestEmailRate: { limit: 3, windowSeconds: 3600 },
  }));
  const email = () => `/console/companies/${world.a.ruc}/email`;
  const audit = (action: string) =>
    world.s.stack.db('audit_log').where({ company_id: world.a.row.id, action }).orderBy('id');

  it("sends a test e-mail through the service's server that arrives, named after the company", async () => {
    const page = await signedIn(375, email());
    expect(await page.locator('main').innerText()).to.include('Se envía con el servidor de chasqui');
    await page.getByLabel('Enviar a').fill('contabilidad@cliente.pe');
    const landed = await submit(page, 'Enviar correo de prueba');
    expect(landed.status()).to.equal(200);
    expect(await page.locator('[role=status]').innerText()).to.include('Correo de prueba enviado');
    expect(service.mails).to.have.length(1);
    const [mail] = service.mails;
    expect(mail.recipients).to.deep.equal(['contabilidad@cliente.pe']);
    expect(mail.parsed.subject).to.equal(`Correo de prueba de ${world.a.row.business_name}`);
    expect(mail.parsed.from!.text).to.include('facturas@chasqui.test');
    await walk(page, 'email-test-sent');
    await page.context().close();
  });

  it('stores its own SMTP server from five parts, never shows the password, keeps it for the same server, audits it masked', async () => {
    const page = await signedIn(1280, email());
    await page.getByLabel('Servidor de salida').selectOption('own');
    await page.getByLabel('Servidor (nombre o dirección)').fill('127.0.0.1');
    await page.getByLabel('Puerto').fill(String(own.port));
    await page.getByLabel('Usuario', { exact: true }).fill('ventas');
    await page.getByLabel('Clave', { exact: true }).fill('clave-smtp-9');
    await page.getByLabel('Remitente').fill('Ventas <ventas@empresa.pe>');
    expect((await submit(page, 'Guardar correo')).status()).to.equal(200);
    const main = await page.locator('main').innerText();
    expect(main).to.include('Configuración de correo guardada.');
    expect(main).to.include(
      `Servidor propio: 127.0.0.1, puerto ${own.port} (STARTTLS); usuario ventas; clave guardada.`,
    );
    expect(await page.content()).to.not.include('clave-smtp-9');
    const [record] = await audit('company.email');
    expect(record.actor_kind).to.equal('console');
    expect(record.changes.smtp_url.to).to.equal(`smtp://ventas:****@127.0.0.1:${own.port}`);
    expect(JSON.stringify(record.changes)).to.not.include('clave-smtp-9');
    // The API reads what the panel stored: the same settings, the password masked.
    const api = await call(world.s.stack, 'GET', `/v1/companies/${world.a.ruc}/email`, { token: world.a.accountToken });
    expect(api.body.data.email).to.include({
      smtp_url: `smtp://ventas:****@127.0.0.1:${own.port}`,
      from: 'Ventas <ventas@empresa.pe>',
    });
    // Saved again with the password left empty and the same server: the stored password stays.
    await page.getByLabel('Responder a').fill('respuestas@empresa.pe');
    expect((await submit(page, 'Guardar correo')).status()).to.equal(200);
    const stored = await world.s.stack.db('company_email_settings').where({ company_id: world.a.row.id }).first();
    expect(world.s.stack.secrets.open(stored.smtp_url_sealed)).to.equal(
      `smtp://ventas:clave-smtp-9@127.0.0.1:${own.port}`,
    );
    expect(stored.reply_to).to.equal('respuestas@empresa.pe');
    // Another port with the password left empty: the stored password never goes to a server it was not given for.
    await page.getByLabel('Puerto').fill(String(own.port + 1));
    expect((await submit(page, 'Guardar correo')).status()).to.equal(200);
    const moved = await world.s.stack.db('company_email_settings').where({ company_id: world.a.row.id }).first();
    expect(world.s.stack.secrets.open(moved.smtp_url_sealed)).to.equal(`smtp://ventas@127.0.0.1:${own.port + 1}`);
    await walk(page, 'email-own-server');
    await page.context().close();
  });

  it('refuses what the API refuses beside the field, in Spanish; a test e-mail to a bad address or past the rate is refused', async () => {
    const page = await signedIn(375, email());
    await page.getByLabel('Remitente').fill('');
    const refused = await submit(page, 'Guardar correo');
    expect(refused.status()).to.equal(422);
    expect(await page.locator('#smtp-from-error').innerText()).to.include('Con servidor propio, escriba el remitente');
    await page.getByLabel('Puerto').fill('99999');
    expect((await submit(page, 'Guardar correo')).status()).to.equal(422);
    expect(await page.locator('#smtp-port-error').innerText()).to.equal('El puerto es un número de 1 a 65535.');
    await walk(page, 'email-refused');
    await page.goto(`${world.s.stack.url}${email()}`);
    await page.getByLabel('Enviar a').evaluate((input) => input.setAttribute('type', 'text'));
    await page.getByLabel('Enviar a').fill('no es un correo');
    expect((await submit(page, 'Enviar correo de prueba')).status()).to.equal(422);
    expect(await page.locator('#test-to-error').innerText()).to.include('dirección de correo válida');
    // The company's own server (user removed: the test server takes no AUTH) gets the rest; the rate allows 3 an hour.
    await page.getByLabel('Usuario', { exact: true }).fill('');
    await page.getByLabel('Puerto').fill(String(own.port));
    await page.getByLabel('Remitente').fill('Ventas <ventas@empresa.pe>');
    expect((await submit(page, 'Guardar correo')).status()).to.equal(200);
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      await page.getByLabel('Enviar a').fill('caja@cliente.pe');
      statuses.push((await submit(page, 'Enviar correo de prueba')).status());
    }
    expect(statuses).to.deep.equal([200, 200, 429]);
    expect(await page.locator('#test-to-error').innerText()).to.match(/podrá enviar otro en \d+ minuto/);
    expect(own.mails.map((m) => m.parsed.from!.value[0])).to.deep.equal([
      { address: 'ventas@empresa.pe', name: 'Ventas' },
      { address: 'ventas@empresa.pe', name: 'Ventas' },
    ]);
    expect(service.mails).to.have.length(1);
    await page.context().close();
  });

  it('uploads, previews, replaces and removes the logo; a file that is no image is refused in Spanish', async () => {
    const { s, a } = world;
    const accepted = await until(
      s.stack,
      (await issue(s.stack, a.token, payload('invoice-basic.json', a.ruc))).body.external_id,
      ['accepted'],
    );
    const page = await signedIn(1280, email());
    await page.setInputFiles('#logo-logo', {
      name: 'logo.txt',
      mimeType: 'image/png',
      buffer: Buffer.from('no soy un png'),
    });
    expect((await submit(page, 'Subir logo')).status()).to.equal(422);
    expect(await page.locator('#logo-logo-error').innerText()).to.include('PNG o JPEG');
    const logo = testPng(160, 60);
    await page.setInputFiles('#logo-logo', { name: 'logo.png', mimeType: 'image/png', buffer: logo });
    expect((await submit(page, 'Subir logo')).status()).to.equal(200);
    expect(await page.locator('[role=status]').innerText()).to.include('Logo guardado');
    const image = await page.request.get(`${s.stack.url}${email()}/logo`);
    expect(image.headers()['content-type']).to.equal('image/png');
    expect(Buffer.from(await image.body()).equals(logo)).to.equal(true);
    const preview = page.getByRole('link', { name: 'el PDF del último documento' });
    expect(await preview.getAttribute('href')).to.equal(`/console/documents/${accepted.id}/pdf`);
    const pdf = await page.request.get(`${s.stack.url}/console/documents/${accepted.id}/pdf`);
    expect(
      Buffer.from(await pdf.body())
        .subarray(0, 5)
        .toString(),
    ).to.equal('%PDF-');
    await walk(page, 'email-logo');
    expect((await submit(page, 'Quitar el logo')).status()).to.equal(200);
    expect(await page.locator('main').innerText()).to.include('Sin logo');
    expect((await audit('company.logo')).map((r) => r.changes.logo.to)).to.deep.equal(['image/png 160×60', null]);
    await page.context().close();
  });

  it("another account's company answers 404 to its e-mail tab and its forms", async () => {
    const page = await signedIn(1280, email());
    const csrf = await page.locator('input[name=csrf]').first().getAttribute('value');
    const other = `/console/companies/${world.b.ruc}/email`;
    expect((await page.goto(`${world.s.stack.url}${other}`))!.status()).to.equal(404);
    const forged = await page.request.post(`${world.s.stack.url}${other}/test`, {
      form: { csrf: csrf!, to: 'x@cliente.pe' },
    });
    expect(forged.status()).to.equal(404);
    expect((await page.request.get(`${world.s.stack.url}${other}/logo`)).status()).to.equal(404);
    await page.context().close();
  });
});
