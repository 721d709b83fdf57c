/**
 * The panel's credentials and certificate tabs (issue 42 items 4 and 5) in a real browser against the real stack:
 * credentials saved once and never shown again, refusals in Spanish beside their field, the certificate upload
 * (multipart, CSRF inside it, the API's bounds) and what the page says of the certificate, another account's 404.
 */
import { expect } from 'chai';
import { generateTestCertificate } from '../../documents/signing';
import { findCompany } from '../../db/companies';
import { SECRET_SET } from '../../db/audit';
import { call } from '../companies/helpers';
import { fillCertificateForm, panelWorld } from './panel-support';

describe('panel: credentials and certificate (real browser)', function () {
  this.timeout(180_000);
  const { world, signedIn, submit, walk } = panelWorld();
  const credentials = () => `/console/companies/${world.a.ruc}/credentials`;
  const certificate = () => `/console/companies/${world.a.ruc}/certificate`;
  const audit = (action: string) =>
    world.s.stack.db('audit_log').where({ company_id: world.a.row.id, action }).orderBy('id');

  it('saves SOL credentials, then shows only when and by whom, never the values; audits the secret as set', async () => {
    const page = await signedIn(1280, credentials());
    expect(await page.locator('#sol-title + p').innerText()).to.equal('Sin configurar.');
    await page.getByLabel('Usuario SOL principal').fill('VENTAS01');
    await page.getByLabel('Clave SOL principal').fill('clave-secreta-123');
    await page.getByLabel('Usuario SOL secundario (opcional)').fill('ENVIOS02');
    await page.getByLabel('Clave del usuario secundario').fill('otra-clave-456');
    const landed = await submit(page, 'Guardar clave SOL');
    expect(landed.status()).to.equal(200);
    expect(page.url()).to.match(/\/credentials\?hecho=sol$/);
    const text = await page.locator('main').innerText();
    expect(text).to.include('Clave SOL: guardada. No se volverá a mostrar.');
    expect(text).to.match(/Configurado el \d\d\/\d\d\/\d{4} \d\d:\d\d \(hora de Lima\) por .+ \(consola\)\./);
    const source = await page.content();
    for (const value of ['VENTAS01', 'clave-secreta-123', 'ENVIOS02', 'otra-clave-456'])
      expect(source, value).to.not.include(value);
    const row = (await findCompany(world.s.stack.db, world.a.accountId, world.a.ruc))!;
    expect([row.sol_user, row.sol_secondary_user]).to.deep.equal(['VENTAS01', 'ENVIOS02']);
    expect(world.s.stack.secrets.open(row.sol_password_sealed!)).to.equal('clave-secreta-123');
    const [record] = await audit('company.sol_credentials');
    expect(record.actor_kind).to.equal('console');
    expect(record.changes.sol_password).to.deep.equal({ from: null, to: SECRET_SET });
    expect(record.changes.secondary_password).to.deep.equal({ from: null, to: SECRET_SET });
    expect(JSON.stringify(record.changes)).to.not.include('clave');
    // The portal procedures started with the credentials: their progress is beside them.
    expect(await page.locator('table').innerText()).to.include('autorización del PSE');
    await walk(page, 'credentials-saved');
    await page.context().close();
  });

  it('refuses what the API refuses, in Spanish beside the field, and changes nothing', async () => {
    const page = await signedIn(375, credentials());
    await page.getByLabel('ID de la aplicación (API de SUNAT)').fill('../token');
    await page.getByLabel('Clave de la aplicación').fill('s3cret');
    const refused = await submit(page, 'Guardar credenciales GRE');
    expect(refused.status()).to.equal(422);
    expect(await page.locator('#gre-client_id-error').innerText()).to.include('empieza con letra o dígito');
    expect(await page.getByLabel('ID de la aplicación (API de SUNAT)').getAttribute('aria-invalid')).to.equal('true');
    // What was typed stays in the field to be corrected, the secret does not.
    expect(await page.getByLabel('ID de la aplicación (API de SUNAT)').inputValue()).to.equal('../token');
    expect(await page.getByLabel('Clave de la aplicación').inputValue()).to.equal('');
    await walk(page, 'credentials-refused');
    await page.getByLabel('Dirección del servicio de la OSE').fill('http://10.0.0.5/ose');
    await page.getByLabel('Usuario de la OSE').fill('OSEUSER');
    await page.getByLabel('Clave de la OSE').fill('ose-pass');
    expect((await submit(page, 'Guardar credenciales de la OSE')).status()).to.equal(422);
    expect(await page.locator('#ose-url-error').innerText()).to.include('https://');
    const row = (await findCompany(world.s.stack.db, world.a.accountId, world.a.ruc))!;
    expect([row.gre_client_id, row.ose_user]).to.deep.equal([null, null]);
    expect(await audit('company.gre_credentials')).to.have.length(0);
    await page.context().close();
  });

  it("the API's PATCH goes through the same function: audited as the token's, and the page says so", async () => {
    const res = await call(world.s.stack, 'PATCH', `/v1/companies/${world.a.ruc}/gre-credentials`, {
      token: world.a.accountToken,
      json: { client_id: 'a1b2c3d4-e5f6', client_secret: 'gre-secret' },
    });
    expect(res.status).to.equal(200);
    expect(res.body.message).to.equal('GRE credentials stored');
    const [record] = await audit('company.gre_credentials');
    expect(record.actor_kind).to.equal('account-token');
    expect(record.changes.client_secret).to.deep.equal({ from: null, to: SECRET_SET });
    const page = await signedIn(1280, credentials());
    expect(await page.locator('#gre-title + p').innerText()).to.include('por la API con el token de la cuenta');
    expect(await page.content()).to.not.include('a1b2c3d4-e5f6');
    await page.context().close();
  });

  it('refuses a wrong certificate password in Spanish beside the field; a good one shows holder, serial and days left', async () => {
    const made = generateTestCertificate({ ruc: world.a.ruc, commonName: 'EMPRESA DE PRUEBA SAC', validDays: 20 });
    const page = await signedIn(375, certificate());
    expect(await page.locator('main').innerText()).to.include('aún no tiene certificado propio');
    await fillCertificateForm(page, made.pfx('la-buena'), 'la-mala');
    expect((await submit(page, 'Subir certificado')).status()).to.equal(422);
    expect(await page.locator('#cert-password-error').innerText()).to.equal('La contraseña no abre este certificado.');
    await walk(page, 'certificate-wrong-password');
    await fillCertificateForm(page, made.pfx('la-buena'), 'la-buena');
    const landed = await submit(page, 'Subir certificado');
    expect(landed.status()).to.equal(200);
    expect(page.url()).to.match(/\/certificate\?hecho=uploaded$/);
    const facts = await page.locator('dl.facts').innerText();
    expect(facts).to.include('EMPRESA DE PRUEBA SAC');
    expect(facts).to.include(world.a.ruc);
    const row = await world.s.stack
      .db('certificates')
      .where({ id: (await findCompany(world.s.stack.db, world.a.accountId, world.a.ruc))!.certificate_id })
      .first();
    expect(facts).to.include(row.serial_number);
    // 20 days left is within the expiry check's warning (CHASQUI_CERT_WARN_DAYS, 30 by default).
    expect(facts).to.match(/aviso\s+20 días/);
    const [record] = await audit('company.certificate');
    expect(record.changes.serial_number).to.deep.equal({ from: null, to: row.serial_number });
    await walk(page, 'certificate-uploaded');
    await page.context().close();
    const wide = await signedIn(1280, certificate());
    await walk(wide, 'certificate-uploaded');
    await wide.context().close();
  });

  it('an upload without its CSRF field is refused (403), one past the bounds is 413, and nothing is stored', async () => {
    const page = await signedIn(1280, certificate());
    const before = await audit('company.certificate');
    const pfx = generateTestCertificate({ ruc: world.a.ruc }).pfx('x');
    const post = (multipart: Record<string, unknown>) =>
      page.request.post(`${world.s.stack.url}${certificate()}`, { multipart: multipart as never });
    const csrf = await page.locator('input[name=csrf]').first().getAttribute('value');
    const noCsrf = await post({
      certificate: { name: 'a.pfx', mimeType: 'application/x-pkcs12', buffer: pfx },
      password: 'x',
    });
    expect(noCsrf.status()).to.equal(403);
    expect(await noCsrf.text()).to.include('Falta el token del formulario (CSRF)');
    const huge = Buffer.alloc(world.s.stack.config.certificateMaxBytes + 128 * 1024, 1);
    const tooLarge = await post({
      csrf: csrf!,
      certificate: { name: 'a.pfx', mimeType: 'application/x-pkcs12', buffer: huge },
    });
    expect(tooLarge.status()).to.equal(413);
    expect(await audit('company.certificate')).to.have.length(before.length);
    await page.context().close();
  });

  it("another account's company answers 404 on every tab and form, as an unknown one", async () => {
    const page = await signedIn(1280, `/console/companies/${world.b.ruc}/credentials`);
    for (const tab of ['credentials', 'certificate']) {
      const answer = await page.goto(`${world.s.stack.url}/console/companies/${world.b.ruc}/${tab}`);
      expect(answer!.status(), tab).to.equal(404);
    }
    await page.goto(`${world.s.stack.url}${credentials()}`);
    const csrf = await page.locator('input[name=csrf]').first().getAttribute('value');
    const forged = await page.request.post(`${world.s.stack.url}/console/companies/${world.b.ruc}/credentials/sol`, {
      form: { csrf: csrf!, sol_user: 'VENTAS01', sol_password: 'x' },
    });
    expect(forged.status()).to.equal(404);
    expect((await findCompany(world.s.stack.db, world.b.accountId, world.b.ruc))!.sol_user).to.equal(null);
    await page.context().close();
  });
});
