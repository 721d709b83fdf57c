/**
 * Issue 42's newcomer path, end to end, in a real browser at a phone's and a desktop's width (375 and 1280 px) against
 * the real stack (API, worker, PostgreSQL, Temporal, the SUNAT simulator, a local https webhook receiver): from an
 * account's token alone to a company that issued, voided and exported its month. Each tab's own tests cover its
 * refusals; this file proves the tabs lead into each other as a newcomer walks them, with the refusals that cost
 * nothing here.
 */
import fs from 'node:fs';
import { expect } from 'chai';
import { unzipSync } from 'fflate';
import type { Browser, Page } from 'playwright-core';
import { getBrowser } from '../support/browser';
import { englishOnlyWords, pageProblems } from '../support/page-checks';
import { startIssuingStack, until, type IssuingStack } from '../issuing/support';
import { call, createCompany, newAccountToken, randomRuc } from '../companies/helpers';
import { eventually, localTlsCertificate, startReceiver, type Receiver } from '../webhooks/support';
import { webhookSignature } from '../../activities/webhooks';
import { generateTestCertificate } from '../../documents/signing';
import { displayPrefix } from '../../db/tokens';
import { csvFields } from '../../documents/csv';
import { companyPath } from '../../api/console/panel/frame';
import { limaDate } from '../../core/lima';
import { fillLine, issueFormDriver } from './panel-issue-support';
import { fillCertificateForm } from './panel-support';

const BUYER = { doc: '20600000005', name: 'Distribuidora del Sur S.A.' };
// The SOL users the newcomer loads, known to the simulator for its RUC: nothing SUNAT is asked with them is refused.
const SOL = { user: 'VENTAS01', password: 'clave-sol-principal', secondary: 'ENVIOS02', secondaryPassword: 'clave-2' };

for (const width of [375, 1280])
  describe(`panel: a newcomer from an account token to an exported month (real browser, ${width} px)`, function () {
    this.timeout(180_000);
    const tls = localTlsCertificate();
    const ruc = randomRuc();
    const today = limaDate(new Date());
    let s: IssuingStack;
    let receiver: Receiver;
    let browser: Browser;
    let account: { accountId: string; token: string };
    let page: Page;
    let invoiceId: string;
    let noteId: string;
    let webhookSecret: string;
    const certificate = generateTestCertificate({ ruc, commonName: 'FERRETERIA NUEVA SAC' });

    before(async function () {
      this.timeout(120_000);
      receiver = await startReceiver(tls);
      s = await startIssuingStack(
        {
          consoleSignInRate: { limit: 1000, windowSeconds: 300 },
          webhookAllowPrivate: true,
          webhookCaFile: tls.certFile,
        },
        {
          simulator: {
            credentials: [
              { ruc, user: SOL.user, password: SOL.password },
              { ruc, user: SOL.secondary, password: SOL.secondaryPassword },
            ],
          },
        },
      );
      account = await newAccountToken(s.stack);
      browser = await getBrowser();
      page = await browser.newPage({ viewport: { width, height: 900 }, locale: 'es-PE' });
    });
    after(async () => {
      await s?.stop();
      await receiver?.close();
    });

    const url = (p: string) => `${s.stack.url}${p}`;
    const { issuePath, press } = issueFormDriver(
      () => s,
      () => browser,
    );
    const main = () => page.locator('main').innerText();
    const itemState = (id: string) => page.locator(`#item-${id} .check`).innerText();
    const documents = () =>
      s.stack
        .db('documents')
        .join('companies', 'companies.id', 'documents.company_id')
        .where({ 'companies.ruc': ruc, 'companies.account_id': account.accountId })
        .select('documents.*');

    /** The open page fits the phone's screen, breaks no word mid-letter and speaks Spanish only. */
    async function fitsThePhone(name: string): Promise<void> {
      expect(await pageProblems(page, englishOnlyWords()), name).to.deep.equal({
        scrolls: 0,
        wide: [],
        split: [],
        english: [],
      });
    }

    async function createFromForm(typedRuc: string, name: string, signing = 'provider') {
      await page.goto(url('/console/companies'));
      await page.getByLabel('RUC', { exact: true }).fill(typedRuc);
      await page.getByLabel('Razón social').fill(name);
      await page.getByLabel('Plan', { exact: true }).selectOption('02');
      await page.getByLabel('Firma', { exact: true }).selectOption(signing);
      return press(page, 'Crear la empresa');
    }

    it('signs in with the account token; a bad RUC and external signing refused beside their field; the company created by the form', async () => {
      await page.goto(url('/console/login'));
      await page.getByLabel('Token de acceso').fill(account.token);
      await press(page, 'Entrar');
      expect(page.url()).to.not.include('/login');

      expect((await createFromForm('20100066604', 'Ferretería Nueva S.A.C.')).status()).to.equal(422);
      expect(await page.locator('#e-ruc').innerText()).to.include('dígito verificador válido');
      expect(await page.getByLabel('RUC', { exact: true }).getAttribute('aria-invalid')).to.equal('true');
      expect(await page.getByLabel('Razón social').inputValue()).to.equal('Ferretería Nueva S.A.C.');
      // External signing goes only through the provider's OSE: the API's rule, in Spanish, beside the field.
      expect((await createFromForm(ruc, 'Ferretería Nueva S.A.C.', 'external')).status()).to.equal(422);
      expect(await page.locator('#e-signing').innerText()).to.include(
        'solo se admite con el destino «OSE del proveedor»',
      );
      expect(await s.stack.db('companies').where({ account_id: account.accountId })).to.have.length(0);

      expect((await createFromForm(ruc, 'Ferretería Nueva S.A.C.')).status()).to.equal(201);
      expect(await page.locator('code.secret-value').innerText()).to.match(/^chq_sig_/);
      await fitsThePhone('created');
    });

    it('the checklist says what is missing; a certificate (after a wrong password) and SOL credentials loaded, it ticks them', async () => {
      await page.goto(url(companyPath(ruc)));
      // Plan 02 signs with the company's own certificate: needed before the first document.
      expect(await itemState('certificate')).to.equal('Falta');
      expect(await itemState('sol_credentials')).to.equal('Falta');
      expect(await main()).to.include('Falta algo para su primer documento aceptado.');

      await page.locator('#item-certificate').getByRole('link').click();
      expect(page.url()).to.equal(url(companyPath(ruc, 'certificate')));
      await fillCertificateForm(page, certificate.pfx('clave-del-pfx'), 'otra-clave');
      expect((await press(page, 'Subir certificado')).status()).to.equal(422);
      expect(await page.locator('#cert-password-error').innerText()).to.equal(
        'La contraseña no abre este certificado.',
      );
      await fillCertificateForm(page, certificate.pfx('clave-del-pfx'), 'clave-del-pfx');
      expect((await press(page, 'Subir certificado')).status()).to.equal(200);
      expect(await page.locator('dl.facts').innerText()).to.include('FERRETERIA NUEVA SAC');

      await page.goto(url(companyPath(ruc, 'credentials')));
      await page.getByLabel('Usuario SOL principal').fill(SOL.user);
      await page.getByLabel('Clave SOL principal').fill(SOL.password);
      await page.getByLabel('Usuario SOL secundario (opcional)').fill(SOL.secondary);
      await page.getByLabel('Clave del usuario secundario').fill(SOL.secondaryPassword);
      expect((await press(page, 'Guardar clave SOL')).status()).to.equal(200);
      expect(await main()).to.include('Clave SOL: guardada. No se volverá a mostrar.');

      await page.goto(url(companyPath(ruc)));
      for (const item of ['certificate', 'sol_credentials', 'sol_secondary'])
        expect(await itemState(item), item).to.equal('Listo');
      expect(await main()).to.include('Puede emitir su primer documento.');
      await fitsThePhone('checklist');
    });

    it('creates a token shown once, then listed by its prefix only; rolled without overlap, the old one answers 401', async () => {
      await page.goto(url(companyPath(ruc, 'tokens')));
      await page.getByLabel('Nombre del token').fill('caja 1');
      expect((await press(page, 'Crear token')).status()).to.equal(200);
      const token = await page.locator('code.secret').innerText();
      expect(token).to.match(/^chq_sig_[\w-]{43}$/);
      await page.goto(url(companyPath(ruc, 'tokens')));
      expect(await page.content()).to.not.include(token);
      expect(await page.locator('tbody tr', { hasText: 'caja 1' }).innerText()).to.include(`${displayPrefix(token)}…`);
      const use = async (t: string) => (await call(s.stack, 'GET', '/v1/cpe?limit=1', { token: t })).status;
      expect(await use(token)).to.equal(200);

      const row = page.locator('tbody tr', { hasText: 'caja 1' });
      await row.getByLabel('Rotar: el actual sigue').selectOption('none');
      const [rolledPage] = await Promise.all([
        page.waitForNavigation(),
        row.getByRole('button', { name: 'Rotar' }).click(),
      ]);
      expect(rolledPage!.status()).to.equal(200);
      const rolled = await page.locator('code.secret').innerText();
      expect([await use(token), await use(rolled)]).to.deep.equal([401, 200]);
    });

    it('sets the webhook to the local receiver and sends a test notice it verifies by its X-Firma', async () => {
      await page.goto(url(companyPath(ruc, 'webhook')));
      await page.getByLabel('URL del webhook (https)').fill(receiver.url);
      expect((await press(page, 'Guardar la URL')).status()).to.equal(200);
      webhookSecret = await page.locator('code.secret').innerText();
      await press(page, 'Enviar un aviso de prueba');
      expect(await page.locator('[role=status]').innerText()).to.include('Aviso de prueba en camino');
      const got = await eventually(() => receiver.requests.find((r) => r.headers['x-evento'] === 'webhook.prueba'));
      expect(got.headers['x-firma']).to.equal(webhookSignature(webhookSecret, got.body));
      expect(JSON.parse(got.body)).to.include({ event: 'webhook.test', test: true });
    });

    it('issues a factura by form: Calcular shows the totals, Emitir twice issues one, accepted, its PDF opens', async () => {
      await page.goto(issuePath(ruc));
      expect(await page.getByLabel('Serie', { exact: true }).inputValue()).to.equal('F001');
      await page.getByLabel('Número de documento').fill(BUYER.doc);
      await page.getByLabel('Nombre o razón social').fill(BUYER.name);
      await fillLine(page, 0, { what: 'Caja de clavos', qty: '2', price: '118' });
      expect((await press(page, 'Calcular')).status()).to.equal(200);
      const totals = await page.locator('.issue-totals').innerText();
      expect(totals).to.include('PEN 200.00').and.include('PEN 36.00').and.include('PEN 236.00');
      expect(await documents()).to.have.length(0);
      await fitsThePhone('calculated');

      // Emitir twice: the form's first press (sent as the browser sends it), then the button itself.
      const fields = await page
        .locator('form.issue-form')
        .evaluate((f) => Object.fromEntries(new FormData(f as HTMLFormElement) as unknown as [string, string][]));
      const first = await page.request.post(issuePath(ruc), { form: { ...fields, accion: 'emitir' }, maxRedirects: 0 });
      expect((await press(page, 'Emitir')).status()).to.equal(200);
      const issued = await documents();
      expect(issued).to.have.length(1);
      invoiceId = issued[0].id;
      expect(first.headers().location).to.equal(`/console/documents/${invoiceId}?hecho=emitido`);
      expect(page.url()).to.equal(url(`/console/documents/${invoiceId}?hecho=emitido`));

      await until(s.stack, invoiceId, ['accepted']);
      await page.reload();
      expect(await main()).to.include('aceptado');
      await fitsThePhone('issued');
      const pdf = await page.request.get(url(`/console/documents/${invoiceId}/pdf`));
      expect(pdf.status()).to.equal(200);
      expect((await pdf.body()).subarray(0, 5).toString()).to.equal('%PDF-');
      // The webhook the newcomer set is told of the resolution, signed with its secret.
      const notice = await eventually(() => receiver.requests.find((r) => r.headers['x-evento'] === 'cpe.resuelto'));
      expect(JSON.parse(notice.body).document.external_id).to.equal(invoiceId);
      expect(notice.headers['x-firma']).to.equal(webhookSignature(webhookSecret, notice.body));
    });

    it('issues a nota de crédito by form referencing the factura; it is accepted', async () => {
      await page.goto(issuePath(ruc, '?tipo=07'));
      expect(await page.getByLabel('Serie', { exact: true }).inputValue()).to.equal('FC01');
      await page.getByLabel('Número de documento').fill(BUYER.doc);
      await page.getByLabel('Nombre o razón social').fill(BUYER.name);
      await fillLine(page, 0, { what: 'Caja de clavos', qty: '2', price: '118' });
      await page.getByLabel('Serie y número (F001-25)').fill('F001-1');
      await page.getByLabel('Motivo', { exact: true }).selectOption('01');
      await page.getByLabel('Sustento (en sus palabras)').fill('Anulación de la operación');
      expect((await press(page, 'Emitir')).status()).to.equal(200);
      const note = (await documents()).find((d) => d.doc_type === '07')!;
      noteId = note.id;
      expect(page.url()).to.include(`/console/documents/${noteId}`);
      await until(s.stack, noteId, ['accepted']);
    });

    it('voids the factura from its page with the reason typed', async () => {
      await page.goto(url(`/console/documents/${invoiceId}`));
      await page.getByLabel('Motivo de la anulación').fill('Error en el precio');
      await press(page, 'Anular el documento');
      expect(page.url()).to.equal(url(`/console/documents/${invoiceId}?hecho=anulado`));
      const [voided] = await s.stack.db('document_voids').where({ document_id: invoiceId });
      expect(voided).to.include({ reason: 'Error en el precio', via: 'ra' });
      expect(await main()).to.include('Solicitada el');
    });

    it("exports the month: the CSV has the documents' rows, the ZIP their XML and CDR", async () => {
      const month = today.slice(0, 7);
      await page.goto(url(companyPath(ruc, 'export')));
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: 'Descargar el registro (CSV)' }).click(),
      ]);
      const rows = fs
        .readFileSync(await download.path(), 'utf8')
        .slice(1)
        .trimEnd()
        .split('\r\n')
        .map(csvFields);
      const row = (type: string) => rows.filter((r) => r[0] === type).map((r) => r.slice(1, 8));
      expect(row('Factura')).to.deep.equal([['F001', '1', today, BUYER.doc, 'PEN', '36.00', '236.00']]);
      expect(row('Nota de crédito')).to.deep.equal([['FC01', '1', today, BUYER.doc, 'PEN', '36.00', '236.00']]);

      const zip = await page.request.get(url(`${companyPath(ruc, 'export')}/archivos.zip?mes=${month}`));
      expect(zip.status()).to.equal(200);
      const entries = unzipSync(new Uint8Array(await zip.body()));
      const issued = await s.stack.db('documents').whereIn('id', [invoiceId, noteId]);
      expect(Object.keys(entries)).to.include.members(
        issued.flatMap((d) => [`${d.filename}.xml`, `R-${d.filename}.zip`]),
      );
      // Plan 02: each was signed with the certificate the newcomer uploaded.
      const der = certificate.certificatePem.replace(/-----[A-Z ]+-----|\s/g, '');
      for (const d of issued)
        expect(Buffer.from(entries[`${d.filename}.xml`]).toString('utf8').replace(/\s/g, ''), d.filename).to.include(
          der,
        );
    });

    it("another account's company is unknown (404) to a look and to a form", async () => {
      const otherRuc = randomRuc();
      await createCompany(s.stack, (await newAccountToken(s.stack)).token, otherRuc);
      expect((await page.goto(url(companyPath(otherRuc))))!.status()).to.equal(404);
      await page.goto(url(companyPath(ruc)));
      const csrf = await page.locator('form.signout input[name=csrf]').inputValue();
      const forged = await page.request.post(url(companyPath(otherRuc, 'settings')), {
        form: { csrf, sending: 'manual' },
      });
      expect(forged.status()).to.equal(404);
      const theirs = await s.stack.db('companies').where({ ruc: otherRuc }).first();
      expect(theirs.sending_mode).to.equal('automatic');
    });
  });
