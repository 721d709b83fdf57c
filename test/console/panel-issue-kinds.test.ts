/**
 * The issue form's other kinds in a real browser against the real stack (API, worker, PostgreSQL, Temporal, the
 * SUNAT simulator): a factura in USD from unit values without IGV, a debit note on it, a factura on credit whose
 * instalments must add up to the net amount, boletas to a DNI and to a customer without document, a price with IGV
 * split by each tax type's own rate, and a production company's quota: refused in Spanish at zero, charged otherwise.
 */
import { expect } from 'chai';
import Decimal from 'decimal.js';
import type { Browser, Page } from 'playwright-core';
import { getBrowser, screenshot } from '../support/browser';
import { englishOnlyWords, pageProblems } from '../support/page-checks';
import {
  accountBalances,
  newCompany,
  until,
  type IssuingStack,
  type TestCompany,
  startIssuingStack,
} from '../issuing/support';
import { limaDate } from '../../core/lima';
import { PLAN_REFUSALS } from '../../api/console/panel/issue-words';
import { fillLine, issueFormDriver } from './panel-issue-support';

describe('panel (real browser): every kind of sale the issue form makes', function () {
  this.timeout(180_000);
  let s: IssuingStack;
  let browser: Browser;
  let a: TestCompany;
  let mype: TestCompany;
  let broke: TestCompany;
  const { signedIn, issuePath, press } = issueFormDriver(
    () => s,
    () => browser,
  );

  before(async () => {
    s = await startIssuingStack({ consoleSignInRate: { limit: 1000, windowSeconds: 300 } });
    a = await newCompany(s.stack);
    browser = await getBrowser();
  });
  after(async () => s?.stop());

  const documentsOf = (company: TestCompany) =>
    s.stack.db('documents').where({ company_id: company.row.id }).orderBy('created_at');

  async function customer(page: Page, kind: string, doc: string, name: string) {
    await page.getByLabel('Documento del cliente').selectOption(kind);
    if (doc) await page.getByLabel('Número de documento').fill(doc);
    await page.getByLabel('Nombre o razón social').fill(name);
  }

  /** Emitir pressed: the document page it lands on, the row, accepted by the simulator. */
  async function issuedAndAccepted(page: Page, company: TestCompany) {
    const landed = await press(page, 'Emitir');
    expect(landed.status(), await page.locator('main').innerText()).to.equal(200);
    const id = /\/console\/documents\/([0-9a-f-]{36})\?hecho=emitido$/.exec(page.url())?.[1];
    expect(id, page.url()).to.be.a('string');
    return until(s.stack, id!, ['accepted']);
  }

  it('a factura in USD from unit values without IGV, then a debit note on it: both accepted', async () => {
    const page = await signedIn(a.accountToken);
    await page.goto(issuePath(a.ruc));
    await page.getByLabel('Moneda').selectOption('USD');
    await page.getByLabel('Precios de las líneas').selectOption('valor');
    await customer(page, '6', '20600000005', 'Importadora del Norte S.A.C.');
    await fillLine(page, 0, { what: 'Servicio de consultoría', qty: '2', price: '100' });
    // Two at 100 without IGV: 200.00 of value, 36.00 of IGV, 236.00 to pay.
    await press(page, 'Calcular');
    expect(await page.locator('.issue-totals').innerText())
      .to.include('USD 200.00')
      .and.include('USD 36.00')
      .and.include('USD 236.00');
    const invoice = await issuedAndAccepted(page, a);
    expect(invoice.currency).to.equal('USD');
    expect(invoice.totals!.PayableAmount).to.equal('236.00');

    await page.goto(issuePath(a.ruc, '?tipo=08'));
    expect(await page.getByLabel('Serie', { exact: true }).inputValue()).to.equal('FD01');
    await page.getByLabel('Moneda').selectOption('USD');
    await customer(page, '6', '20600000005', 'Importadora del Norte S.A.C.');
    await page.getByLabel('Serie y número (F001-25)').fill(`${invoice.series}-${invoice.number}`);
    await page.getByLabel('Motivo', { exact: true }).selectOption('01');
    await fillLine(page, 0, { what: 'Intereses por mora', qty: '1', price: '11.80' });
    const note = await issuedAndAccepted(page, a);
    expect(note.doc_type).to.equal('08');
    expect(note.totals!.PayableAmount).to.equal('11.80');
    await page.close();
  });

  it('a factura on credit: instalments that miss the net amount are refused in Spanish beside them, then accepted', async () => {
    const page = await signedIn(a.accountToken);
    await page.goto(issuePath(a.ruc));
    await customer(page, '6', '20600000005', 'Importadora del Norte S.A.C.');
    await fillLine(page, 0, { what: 'Mercadería al crédito', qty: '1', price: '590' });
    await page.getByLabel('Pago', { exact: true }).selectOption('Credito');
    const due = (days: number) => limaDate(new Date(Date.now() + days * 86_400_000));
    await page.getByLabel('Cuota 1: monto').fill('300');
    // An amount without its date is named beside the date.
    expect((await press(page, 'Emitir')).status()).to.equal(422);
    expect(await page.locator('#e-c0_fecha').innerText()).to.equal('Falta su fecha de pago.');
    await page.getByLabel('Cuota 1: fecha de pago').fill(due(30));
    await page.getByLabel('Cuota 2: monto').fill('200');
    await page.getByLabel('Cuota 2: fecha de pago').fill(due(60));
    const before = (await documentsOf(a)).length;
    expect((await press(page, 'Emitir')).status()).to.equal(422);
    expect(await page.locator('#e-cuotas').innerText()).to.equal(
      'La suma de las cuotas debe ser igual al Monto neto pendiente de pago (código SUNAT 3319).',
    );
    expect(await documentsOf(a)).to.have.length(before);
    // 300 + 290 is the 590.00 owed: accepted, its instalments in the signed XML.
    await page.getByLabel('Cuota 2: monto').fill('290');
    const credit = await issuedAndAccepted(page, a);
    const xml = (await s.stack.db('documents').where({ id: credit.id }).first('xml')).xml.toString();
    expect(xml).to.include('Cuota001').and.include('Cuota002').and.include('>290.00<');
    await page.close();
  });

  it('boletas: to a DNI, and to a customer without document under S/ 700 (over it refused beside the document)', async () => {
    const page = await signedIn(a.accountToken);
    await page.goto(issuePath(a.ruc, '?tipo=03'));
    expect(await page.getByLabel('Serie', { exact: true }).inputValue()).to.equal('B001');
    await customer(page, '1', '45678912', 'María Quispe Huamán');
    await fillLine(page, 0, { what: 'Polo de algodón', qty: '2', price: '35.40' });
    const toDni = await issuedAndAccepted(page, a);
    expect(toDni.customer_doc).to.equal('45678912');
    expect(toDni.totals!.PayableAmount).to.equal('70.80');

    await page.goto(issuePath(a.ruc, '?tipo=03'));
    await page.getByLabel('Documento del cliente').selectOption('-');
    await fillLine(page, 0, { what: 'Televisor', qty: '1', price: '700.01' });
    expect((await press(page, 'Emitir')).status()).to.equal(422);
    expect(await page.locator('#e-cliente_doc').innerText()).to.include('código SUNAT 2514');
    await fillLine(page, 0, { what: 'Televisor', qty: '1', price: '700.00' });
    const anonymous = await issuedAndAccepted(page, a);
    expect(anonymous.totals!.PayableAmount).to.equal('700.00');
    const xml = (await s.stack.db('documents').where({ id: anonymous.id }).first('xml')).xml.toString();
    expect(xml).to.include('Clientes varios');
    // Its '-' is no customer to propose: the DNI is.
    await page.goto(issuePath(a.ruc, '?tipo=03'));
    const proposed = await page
      .locator('datalist#clientes option')
      .evaluateAll((o) => o.map((e) => e.getAttribute('value')));
    expect(proposed).to.include('45678912').and.not.include('-');
    await page.close();
  });

  it('a price with IGV is split by each line’s own rate: IGV, IVAP, exonerated and unaffected add up to what was typed', async () => {
    const page = await signedIn(a.accountToken);
    await page.goto(issuePath(a.ruc, '?tipo=03'));
    // No special rate for a company off its register: the choice is not offered.
    expect(await page.getByLabel('Tasa del IGV').count()).to.equal(0);
    await customer(page, '1', '45678912', 'María Quispe Huamán');
    await press(page, 'Añadir línea');
    const lines = [
      { what: 'Gaseosa', qty: '2', price: '5.90', tax: '10' },
      { what: 'Arroz pilado', qty: '1', price: '104', tax: '17' },
      { what: 'Libro', qty: '1', price: '50', tax: '20' },
      { what: 'Pasaje', qty: '1', price: '30', tax: '30' },
    ];
    for (const [i, line] of lines.entries()) await fillLine(page, i, line);
    await press(page, 'Calcular');
    const totals = await page.locator('.issue-totals').innerText();
    // 10.00 + 100.00 + 50 + 30 of value; 1.80 of IGV (18 %), 4.00 of IVAP (4 %); 195.80 to pay, what was typed.
    expect(totals).to.include('PEN 190.00').and.include('PEN 1.80').and.include('PEN 4.00').and.include('PEN 195.80');
    expect(totals).to.include('Sin avisos');
    const boleta = await issuedAndAccepted(page, a);
    expect(boleta.totals).to.include({ PayableAmount: '195.80', 'TaxAmount.1000': '1.80', 'TaxAmount.1016': '4.00' });
    await page.close();
  });

  it('a price with IGV that does not divide evenly: Calcular says the total moved a cent, and why', async () => {
    const page = await signedIn(a.accountToken);
    await page.goto(issuePath(a.ruc, '?tipo=03'));
    await customer(page, '1', '45678912', 'María Quispe Huamán');
    // 10 / 1.18 = 8.4745…: a value of 8.47 and an IGV of 1.52, 9.99 to pay.
    await fillLine(page, 0, { what: 'Cuaderno', qty: '1', price: '10' });
    await press(page, 'Calcular');
    expect(await page.locator('.issue-totals').innerText())
      .to.include('PEN 9.99')
      .and.include('El importe total (9.99) difiere de la suma de los precios con IGV escritos (10.00)');
    await page.close();
  });

  it('a company on the special rate’s register chooses it: a price with IGV split by the date’s special rate', async () => {
    mype = await newCompany(s.stack, { settings: { register_igv_special_rate: true } });
    const special = s.stack.config.rules.igvRates(limaDate(new Date()), '01').special!;
    const page = await signedIn(mype.accountToken);
    await page.goto(issuePath(mype.ruc));
    await page.getByLabel('Tasa del IGV').selectOption('especial');
    await customer(page, '6', '20600000005', 'Importadora del Norte S.A.C.');
    const price = new Decimal(100).times(new Decimal(special).div(100).plus(1));
    await fillLine(page, 0, { what: 'Menú del día', qty: '1', price: price.toFixed(2) });
    const invoice = await issuedAndAccepted(page, mype);
    expect(invoice.totals).to.include({ LineExtensionAmount: '100.00', PayableAmount: price.toFixed(2) });
    const xml = (await s.stack.db('documents').where({ id: invoice.id }).first('xml')).xml.toString();
    expect(xml).to.include(`<cbc:Percent>${new Decimal(special).toFixed(2)}</cbc:Percent>`);
    await page.close();
  });

  it('production on plan 01: no signatures left is refused in Spanish, nothing issued; with some, one is charged', async () => {
    for (const quota of [0, 2]) {
      const company = await newCompany(s.stack, { environment: '02', quota });
      if (quota === 0) broke = company;
      const page = await signedIn(company.accountToken);
      await page.goto(issuePath(company.ruc));
      await customer(page, '6', '20600000005', 'Importadora del Norte S.A.C.');
      await fillLine(page, 0, { what: 'Caja de clavos', qty: '1', price: '118' });
      const answer = await press(page, 'Emitir');
      if (quota === 0) {
        expect(answer.status()).to.equal(402);
        expect(await page.getByRole('alert').innerText()).to.include(PLAN_REFUSALS.signatures);
        expect(await documentsOf(company)).to.have.length(0);
        expect(await accountBalances(s.stack, company.accountId)).to.include({ quota: 0 });
      } else {
        expect(answer.status()).to.equal(200);
        expect(page.url()).to.include('?hecho=emitido');
        expect(await documentsOf(company)).to.have.length(1);
        expect(await accountBalances(s.stack, company.accountId)).to.include({ quota: quota - 1 });
      }
      await page.close();
    }
  });

  it('walks the new states at 375 and 1280 px: the special rate, IVAP, the instalments refused, the quota refused', async () => {
    const english = englishOnlyWords();
    for (const width of [375, 1280]) {
      const visits: Array<[string, TestCompany, (page: Page) => Promise<unknown>]> = [
        ['special-rate', mype, async (page) => fillLine(page, 0, { what: 'Arroz', qty: '1', price: '104', tax: '17' })],
        [
          'instalments-refused',
          a,
          async (page) => {
            await page.getByLabel('Pago', { exact: true }).selectOption('Credito');
            await page.getByLabel('Cuota 1: monto').fill('1');
          },
        ],
        ['quota-refused', broke, async () => {}],
      ];
      for (const [name, company, fill] of visits) {
        const page = await signedIn(company.accountToken, width);
        await page.goto(issuePath(company.ruc));
        await customer(page, '6', '20600000005', 'Importadora del Norte S.A.C.');
        await fillLine(page, 0, { what: 'Caja de clavos', qty: '1', price: '118' });
        await fill(page);
        await press(page, name === 'special-rate' ? 'Calcular' : 'Emitir');
        await screenshot(page, `panel-${name}-${width}`);
        expect(await pageProblems(page, english), `${name} at ${width}`).to.deep.equal({
          scrolls: 0,
          wide: [],
          split: [],
          english: [],
        });
        await page.close();
      }
    }
  });
});
