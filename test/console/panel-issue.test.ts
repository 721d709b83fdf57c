/**
 * The panel's issue form, void and page walk in a real browser against the real stack (API, worker, PostgreSQL,
 * Temporal, the SUNAT simulator): a newcomer issues a factura by form, once however often it is sent, then a credit
 * note referencing it, voids it; refusals keep the form; another account's company is unknown.
 */
import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { getBrowser, screenshot } from '../support/browser';
import { englishOnlyWords, pageProblems } from '../support/page-checks';
import { newCompany, until, type IssuingStack, type TestCompany, startIssuingStack } from '../issuing/support';
import { fillLine, issueFormDriver } from './panel-issue-support';

const WIDTHS = [375, 1280];

describe('panel (real browser): issue by form and void', function () {
  this.timeout(180_000);
  let s: IssuingStack;
  let browser: Browser;
  let a: TestCompany;
  let b: TestCompany;
  let invoiceId: string;
  let noteId: string;

  before(async () => {
    s = await startIssuingStack({ consoleSignInRate: { limit: 1000, windowSeconds: 300 } });
    a = await newCompany(s.stack);
    b = await newCompany(s.stack);
    browser = await getBrowser();
  });
  after(async () => s?.stop());

  const { signedIn, issuePath, press } = issueFormDriver(
    () => s,
    () => browser,
  );
  const main = (page: Page) => page.locator('main').innerText();
  const companyDocuments = () => s.stack.db('documents').where({ company_id: a.row.id }).orderBy('created_at');

  async function fillSale(page: Page, customer: { doc: string; name: string }, line: { what: string; price: string }) {
    await page.getByLabel('Número de documento').fill(customer.doc);
    await page.getByLabel('Nombre o razón social').fill(customer.name);
    await fillLine(page, 0, { what: line.what, qty: '2', price: line.price });
  }

  it('a newcomer issues a factura: Calcular shows the totals, Emitir sent three times issues one, accepted, its PDF opens', async () => {
    const page = await signedIn(a.accountToken);
    await page.goto(issuePath(a.ruc));
    // A company without documents is proposed SUNAT's first series and number 1.
    expect(await page.getByLabel('Serie', { exact: true }).inputValue()).to.equal('F001');
    expect(await page.getByLabel('Número', { exact: true }).inputValue()).to.equal('1');
    await fillSale(
      page,
      { doc: '20600000005', name: 'Distribuidora del Sur S.A.' },
      { what: 'Caja de clavos', price: '118' },
    );

    // "Añadir línea" re-renders with one more row and keeps what was typed.
    expect(await page.locator('fieldset.issue-line').count()).to.equal(3);
    await press(page, 'Añadir línea');
    expect(await page.locator('fieldset.issue-line').count()).to.equal(4);
    expect(await page.locator('fieldset.issue-line').first().getByLabel('Descripción').inputValue()).to.equal(
      'Caja de clavos',
    );

    // Two at 118 with IGV: 200.00 of value, 36.00 of IGV, 236.00 to pay, as the engine computes; nothing issued.
    expect((await press(page, 'Calcular')).status()).to.equal(200);
    const totals = await page.locator('.issue-totals').innerText();
    expect(totals).to.include('PEN 200.00').and.include('PEN 36.00').and.include('PEN 236.00');
    expect(await companyDocuments()).to.have.length(0);
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      await screenshot(page, `panel-issue-${width}`);
    }
    await page.setViewportSize({ width: 1280, height: 900 });

    // A double submit: the same form posted twice at once, then pressed once more; one document.
    const fields = await page
      .locator('form.issue-form')
      .evaluate((f) => Object.fromEntries(new FormData(f as HTMLFormElement) as unknown as [string, string][]));
    const posted = await Promise.all(
      [1, 2].map(() => page.request.post(issuePath(a.ruc), { form: { ...fields, accion: 'emitir' }, maxRedirects: 0 })),
    );
    const landed = await press(page, 'Emitir');
    expect(landed.status()).to.equal(200);
    const docs = await companyDocuments();
    expect(docs).to.have.length(1);
    invoiceId = docs[0].id;
    for (const r of posted) {
      expect(r.status()).to.equal(303);
      expect(r.headers().location).to.equal(`/console/documents/${invoiceId}?hecho=emitido`);
    }
    expect(page.url()).to.equal(`${s.stack.url}/console/documents/${invoiceId}?hecho=emitido`);
    expect(await main(page)).to.include('Documento emitido');
    expect(docs[0].totals.PayableAmount).to.equal('236.00');

    await until(s.stack, invoiceId, ['accepted']);
    await page.reload();
    expect(await main(page)).to.include('aceptado');
    const pdf = await page.request.get(`${s.stack.url}/console/documents/${invoiceId}/pdf`);
    expect(pdf.status()).to.equal(200);
    expect(pdf.headers()['content-type']).to.include('application/pdf');
    expect((await pdf.body()).subarray(0, 5).toString()).to.equal('%PDF-');
    // The next form proposes the number after it.
    await page.goto(issuePath(a.ruc));
    expect(await page.getByLabel('Número', { exact: true }).inputValue()).to.equal('2');
    // The customers it invoiced and the series it used are proposed (datalists).
    expect(
      await page.locator('datalist#clientes option').evaluateAll((o) => o.map((e) => e.getAttribute('value'))),
    ).to.deep.equal(['20600000005']);
    expect(
      await page.locator('datalist#series option').evaluateAll((o) => o.map((e) => e.getAttribute('value'))),
    ).to.deep.equal(['F001']);
    await page.close();
  });

  it('a credit note by form references the factura and is accepted', async () => {
    const page = await signedIn(a.accountToken);
    await page.goto(issuePath(a.ruc, '?tipo=07'));
    expect(await page.getByLabel('Serie', { exact: true }).inputValue()).to.equal('FC01');
    await fillSale(
      page,
      { doc: '20600000005', name: 'Distribuidora del Sur S.A.' },
      { what: 'Caja de clavos', price: '118' },
    );
    await page.getByLabel('Serie y número (F001-25)').fill('F001-1');
    await page.getByLabel('Motivo', { exact: true }).selectOption('01');
    await page.getByLabel('Sustento (en sus palabras)').fill('Anulación de la operación');
    await press(page, 'Emitir');
    const note = (await companyDocuments()).find((d) => d.doc_type === '07')!;
    noteId = note.id;
    expect(page.url()).to.include(`/console/documents/${noteId}`);
    expect(note.series).to.equal('FC01');
    await until(s.stack, noteId, ['accepted']);
    await page.close();
  });

  it('a refused document keeps the form: each reason in Spanish beside its field, nothing issued', async () => {
    const page = await signedIn(a.accountToken);
    await page.goto(issuePath(a.ruc));
    // The number the factura already holds, a RUC with a wrong check digit: refused, the values kept.
    await page.getByLabel('Número', { exact: true }).fill('1');
    await fillSale(page, { doc: '20600000006', name: 'Cliente Equivocado S.A.' }, { what: 'Tornillos', price: '59' });
    const refused = await press(page, 'Emitir');
    expect(refused.status()).to.equal(422);
    // SUNAT's own words for its code, without the XML element its catalog names first.
    expect(await page.locator('#e-cliente_doc').innerText()).to.equal(
      'El dato ingresado no cumple con el estandar (código SUNAT 1005).',
    );
    expect(await page.locator('fieldset.issue-line').first().getByLabel('Descripción').inputValue()).to.equal(
      'Tornillos',
    );
    expect(await page.getByLabel('Nombre o razón social').inputValue()).to.equal('Cliente Equivocado S.A.');
    // Fixed the customer, the number is still taken: SUNAT's 1033, beside the number.
    await page.getByLabel('Número de documento').fill('20600000005');
    expect((await press(page, 'Emitir')).status()).to.equal(422);
    expect(await page.locator('#e-numero').innerText()).to.include('código SUNAT 1033');
    expect(await companyDocuments()).to.have.length(2);
    await page.close();
  });

  it('voids the accepted factura from its page with the reason typed; the page then says where the void stands', async () => {
    const page = await signedIn(a.accountToken);
    await page.goto(`${s.stack.url}/console/documents/${invoiceId}`);
    // An empty reason is the API's refusal too: nothing voided.
    await page.getByLabel('Motivo de la anulación').evaluate((i) => i.removeAttribute('required'));
    expect((await press(page, 'Anular el documento')).status()).to.equal(422);
    expect(await s.stack.db('document_voids').where({ document_id: invoiceId })).to.have.length(0);
    await page.getByLabel('Motivo de la anulación').fill('Error en el precio');
    await press(page, 'Anular el documento');
    expect(page.url()).to.equal(`${s.stack.url}/console/documents/${invoiceId}?hecho=anulado`);
    const [voided] = await s.stack.db('document_voids').where({ document_id: invoiceId });
    expect(voided.reason).to.equal('Error en el precio');
    expect(voided.via).to.equal('ra');
    // Who asked, from where, recorded with the void in its transaction.
    const [audited] = await s.stack.db('audit_log').where({ company_id: a.row.id, action: 'document.void' });
    expect(audited.actor_kind).to.equal('console');
    expect(audited.changes.reason).to.deep.equal({ to: 'Error en el precio' });
    expect(await main(page))
      .to.include('Solicitada el')
      .and.include('Error en el precio');
    expect(await page.getByLabel('Motivo de la anulación').count()).to.equal(0);
    await page.close();
  });

  it("another account's company is unknown (404) to GET and POST; a document it may not see neither", async () => {
    const page = await signedIn(b.accountToken);
    expect((await page.goto(issuePath(a.ruc)))!.status()).to.equal(404);
    const csrf = await page.locator('form.signout input[name=csrf]').inputValue();
    const post = await page.request.post(issuePath(a.ruc), {
      form: { csrf, accion: 'emitir', tipo: '01' },
      maxRedirects: 0,
    });
    expect(post.status()).to.equal(404);
    const voiding = await page.request.post(`${s.stack.url}/console/documents/${noteId}/anular`, {
      form: { csrf, motivo: 'no es mío' },
      maxRedirects: 0,
    });
    expect(voiding.status()).to.equal(404);
    expect(await s.stack.db('document_voids').where({ document_id: noteId })).to.have.length(0);
    await page.close();
  });

  it('walks every page of the issue form at 375 and 1280 px: nothing wider, no split word, Spanish only', async () => {
    const english = englishOnlyWords();
    for (const width of WIDTHS) {
      const page = await signedIn(a.accountToken, width);
      const visits: Array<[string, () => Promise<unknown>]> = [
        ['factura', () => page.goto(issuePath(a.ruc))],
        ['boleta', () => page.goto(issuePath(a.ruc, '?tipo=03'))],
        ['nota-credito', () => page.goto(issuePath(a.ruc, '?tipo=07'))],
        ['nota-debito', () => page.goto(issuePath(a.ruc, '?tipo=08'))],
        [
          'refused',
          async () => {
            await page.goto(issuePath(a.ruc));
            await page.getByLabel('Número', { exact: true }).fill('1');
            await page.getByLabel('Pago', { exact: true }).selectOption('Credito');
            return press(page, 'Emitir');
          },
        ],
        ['voided', () => page.goto(`${s.stack.url}/console/documents/${invoiceId}?hecho=anulado`)],
        ['void-form', () => page.goto(`${s.stack.url}/console/documents/${noteId}`)],
      ];
      for (const [name, open] of visits) {
        await open();
        await screenshot(page, `panel-${name}-${width}`);
        const problems = await pageProblems(page, english);
        expect(problems, `${name} at ${width}`).to.deep.equal({ scrolls: 0, wide: [], split: [], english: [] });
      }
      await page.close();
    }
  });
});
