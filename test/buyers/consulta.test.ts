import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import got from 'got';
import type { BrowserContext, Page } from 'playwright-core';
import {
  startIssuingStack,
  newCompany,
  payload,
  issue,
  until,
  type IssuingStack,
  type TestCompany,
} from '../issuing/support';
import { eventually } from '../webhooks/support';
import { startSmtpServer, type SmtpServerHandle } from './support';
import { getBrowser, closeBrowser, screenshot } from '../support/browser';
import { testConfig } from '../support/services';
import { findDocument, type DocumentRow } from '../../db/documents';
import { CONSULTA_FLOOR_MS } from '../../api/consulta/routes';
import { signedFilePath } from '../../buyers/links';
import { englishOnlyWords, pageProblems } from '../support/page-checks';

/**
 * The buyers' consultation page in a real browser (Chromium under playwright-core, found by runtime/browser.ts) over
 * the real API, worker, PostgreSQL, Temporal and SUNAT simulator, as a buyer uses it on a 375 px phone.
 */
describe('consultation page (/consulta) in Chromium', function () {
  this.timeout(120_000);
  let env: IssuingStack;
  let smtp: SmtpServerHandle;
  let company: TestCompany;
  let doc: DocumentRow;
  let context: BrowserContext;
  let page: Page;

  const BROWSER_ADDRESS = `198.51.100.${1 + (process.pid % 250)}`;

  before(async () => {
    smtp = await startSmtpServer();
    const base = testConfig();
    env = await startIssuingStack({
      buyers: {
        ...base.buyers,
        smtpUrl: smtp.url(),
        mailFrom: 'facturas@chasqui.test',
        consultaRate: { limit: 8, windowSeconds: 60 },
      },
      // As behind the production proxy (one hop): the address the proxy appended is the client's.
      trustProxy: 1,
    });
    company = await newCompany(env.stack);
    const body = payload('invoice-basic.json', company.ruc);
    body.cliente = { ...body.cliente, correo: 'compras@cliente.pe' };
    const res = await issue(env.stack, company.token, body);
    doc = await until(env.stack, res.body.external_id, ['accepted']);
    context = await (
      await getBrowser()
    ).newContext({
      viewport: { width: 375, height: 812 },
      deviceScaleFactor: 1,
      acceptDownloads: true,
      locale: 'es-PE',
      // The lookups are counted per client address in the run's shared database, where other suites' requests from
      // 127.0.0.1 (the API fuzzers) count too: this browser comes from an address of its own (the stack trusts one
      // proxy, CHASQUI_TRUST_PROXY=1, as behind the production proxy).
      extraHTTPHeaders: { 'X-Forwarded-For': BROWSER_ADDRESS },
    });
    page = await context.newPage();
  });
  after(async () => {
    await context?.close();
    await closeBrowser();
    await env?.stop();
    await smtp?.close();
  });

  /** Fills the form as a buyer types what is printed on the document and submits it. */
  async function consult(
    facts: { ruc: string; tipo: string; serie: string; numero: string; fecha: string; total: string },
    tab = page,
  ) {
    await tab.goto(`${env.stack.url}/consulta`);
    await tab.fill('input[name=ruc]', facts.ruc);
    await tab.selectOption('select[name=tipo]', facts.tipo);
    await tab.fill('input[name=serie]', facts.serie);
    await tab.fill('input[name=numero]', facts.numero);
    await tab.fill('input[name=fecha]', facts.fecha);
    await tab.fill('input[name=total]', facts.total);
    const started = Date.now();
    const [response] = await Promise.all([tab.waitForNavigation(), tab.click('button[type=submit]')]);
    return { status: response!.status(), ms: Date.now() - started, main: await tab.locator('main').innerText() };
  }

  const facts = () => ({
    ruc: company.ruc,
    tipo: '01',
    serie: 'F001',
    numero: String(Number(doc.number)),
    fecha: '2024-03-15',
    total: '118.00',
  });

  it('shows an accepted invoice from the six printed facts, with a PDF link that downloads the PDF', async () => {
    const found = await consult(facts());
    expect(found.status).to.equal(200);
    expect(found.main).to.include('Aceptado');
    expect(found.main).to.include(company.row.business_name);
    expect(found.main).to.include(`F001-${Number(doc.number)}`);
    expect(found.main).to.include('S/ 118.00');
    await screenshot(page, 'consulta-found');

    const [download] = await Promise.all([page.waitForEvent('download'), page.click('text=Descargar PDF')]);
    expect(download.suggestedFilename()).to.equal(`${doc.filename}.pdf`);
    const bytes = fs.readFileSync((await download.path())!);
    expect(bytes.subarray(0, 5).toString('latin1')).to.equal('%PDF-');
    const [xml] = await Promise.all([page.waitForEvent('download'), page.click('text=Descargar XML')]);
    expect(fs.readFileSync((await xml.path())!, 'utf8')).to.equal((await findDocument(env.stack.db, doc.id))!.xml);
  });

  it("serves the XML, CDR and PDF as the API does: the same bytes, type and SUNAT's file name (api/download.ts)", async () => {
    for (const kind of ['xml', 'cdr', 'pdf'] as const) {
      const api = await got(`${env.stack.url}/v1/cpe/${doc.id}/${kind}`, {
        headers: { authorization: `Bearer ${company.token}` },
        responseType: 'buffer',
      });
      const consulta = await got(`${env.stack.url}${signedFilePath(env.stack.secrets, doc.id, kind)}`, {
        headers: { 'X-Forwarded-For': BROWSER_ADDRESS },
        responseType: 'buffer',
      });
      expect(consulta.headers['content-type'], kind).to.equal(api.headers['content-type']);
      // The PDF is offered inline on the page, as an attachment by the API: the same name either way.
      const name = (res: typeof api) => /filename="([^"]+)"/.exec(res.headers['content-disposition'] ?? '')?.[1];
      expect(name(consulta), kind).to.equal(name(api)).and.to.be.a('string');
      if (kind !== 'pdf') {
        expect(consulta.headers['content-disposition'], kind).to.equal(api.headers['content-disposition']);
        expect(consulta.body.equals(api.body), kind).to.equal(true);
      }
    }
  });

  it('a wrong total reads exactly like a number that does not exist: same status, same page, similar time', async () => {
    const wrongTotal = await consult({ ...facts(), total: '118.01' });
    await screenshot(page, 'consulta-not-found');
    const unknown = await consult({ ...facts(), numero: '99999999', total: '118.01' });
    expect(wrongTotal.status).to.equal(404);
    expect(unknown.status).to.equal(wrongTotal.status);
    // The page echoes what was typed: with the same typed facts but the number, the pages differ only there.
    expect(unknown.main.replace('99999999', String(Number(doc.number)))).to.equal(wrongTotal.main);
    expect(wrongTotal.main).to.include('No encontramos un comprobante con esos datos');
    const wrongDate = await consult({ ...facts(), fecha: '2024-03-16' });
    expect(wrongDate.status).to.equal(404);
    for (const answer of [wrongTotal, unknown, wrongDate]) expect(answer.ms).to.be.at.least(CONSULTA_FLOOR_MS);
  });

  it('serves a page without any script, inline style or foreign resource, usable at 375 px', async () => {
    const res = await got(`${env.stack.url}/consulta`);
    expect(res.headers['content-security-policy']).to.include("default-src 'none'");
    expect(res.headers['content-security-policy']).not.to.include('unsafe-inline');
    expect(res.body).not.to.match(/<script|style=|https?:\/\/(?!chasqui)/i);
    await page.goto(`${env.stack.url}/consulta`);
    const overflow = await page.evaluate('document.documentElement.scrollWidth > document.documentElement.clientWidth');
    expect(overflow, 'no horizontal scrolling at 375 px').to.equal(false);
    await screenshot(page, 'consulta-form');
  });

  it('download links are signed and expire: a changed signature or document gets the expired-link page', async () => {
    await consult(facts());
    const href = (await page.getAttribute('text=Descargar PDF', 'href'))!;
    const url = new URL(href, env.stack.url);
    const ok = await got(url.toString(), { responseType: 'buffer', throwHttpErrors: false });
    expect(ok.statusCode).to.equal(200);
    const tampered = new URL(url);
    tampered.searchParams.set('vence', String(Number(url.searchParams.get('vence')) + 3600));
    const other = new URL(url.toString().replace(doc.id, '00000000-0000-4000-8000-000000000000'));
    const expired = new URL(url);
    expired.searchParams.set('vence', String(Math.floor(Date.now() / 1000) - 1));
    for (const bad of [tampered, other, expired]) {
      const res = await got(bad.toString(), { throwHttpErrors: false });
      expect(res.statusCode, bad.toString()).to.equal(404);
      expect(res.body).to.include('El enlace de descarga venció o no es válido');
    }
  });

  it('limits lookups per client address (CHASQUI_CONSULTA_RATE) with a 429 page', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 9; i++) {
      const res = await got.post(`${env.stack.url}/consulta`, {
        form: facts(),
        throwHttpErrors: false,
        headers: { 'X-Forwarded-For': '203.0.113.9' },
      });
      statuses.push(res.statusCode);
    }
    expect(statuses.slice(0, 8).every((s) => s === 200)).to.equal(true);
    expect(statuses[8]).to.equal(429);
  });

  /**
   * A browser tab of its own client address: lookups are limited per address (the 429 test's business), and each
   * test below makes a few.
   */
  const tabs: BrowserContext[] = [];
  async function tabFrom(address: string): Promise<Page> {
    const view = await (
      await getBrowser()
    ).newContext({
      viewport: { width: 375, height: 812 },
      locale: 'es-PE',
      extraHTTPHeaders: { 'X-Forwarded-For': address },
    });
    tabs.push(view);
    return view.newPage();
  }
  after(() => Promise.all(tabs.map((t) => t.close())));

  it('offers the invoice (01) first in the type list', async () => {
    await page.goto(`${env.stack.url}/consulta`);
    const codes = await page
      .locator('select[name=tipo] option')
      .evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value).filter(Boolean));
    expect(codes).to.deep.equal(['01', '03', '07', '08', '04', '09', '31']);
  });

  it('takes the total as printed: S/ 118.00, 118.00, S/118.00, 118; and 1,180.00 for a document of 1,180.00', async () => {
    const tab = await tabFrom('192.0.2.10');
    for (const total of ['S/ 118.00', '118.00', 'S/118.00', 's/. 118.00', '118']) {
      const found = await consult({ ...facts(), total }, tab);
      expect(found.status, total).to.equal(200);
      expect(found.main, total).to.include('Aceptado').and.to.include('S/ 118.00');
    }
    // Ten boxes: 1,180.00 as printed, commas between thousands.
    const big = payload('invoice-basic.json', company.ruc);
    big.items = [{ ...big.items[0], cantidad: 10 }];
    const thousand = await until(env.stack, (await issue(env.stack, company.token, big)).body.external_id, [
      'accepted',
    ]);
    const numero = String(Number(thousand.number));
    for (const total of ['1,180.00', 'S/ 1,180.00']) {
      const found = await consult({ ...facts(), numero, total }, tab);
      expect(found.status, total).to.equal(200);
      expect(found.main, total).to.include('Aceptado').and.to.include('S/ 1,180.00');
    }
    // Read as printed, 1,180.00 is 1180: not the 118.00 document.
    expect((await consult({ ...facts(), total: '1,180.00' }, tab)).status).to.equal(404);
  });

  it('answers a total that reads two ways (118,00) or is malformed (1,18.00) with a hint and the form as typed', async () => {
    const tab = await tabFrom('192.0.2.11');
    for (const [total, hint] of [
      ['118,00', 'con punto antes de los céntimos'],
      ['1,18.00', 'No entendimos el importe'],
      ['118.000', 'No entendimos el importe'],
      ['ciento dieciocho', 'No entendimos el importe'],
    ]) {
      const answer = await consult({ ...facts(), total }, tab);
      expect(answer.status, total).to.equal(200);
      expect(answer.main, total).to.include(hint).and.to.include(`«${total}»`);
      expect(answer.main, total).to.not.include('No encontramos');
      // The form comes back as typed, to correct the total only.
      expect(await tab.inputValue('input[name=ruc]'), total).to.equal(company.ruc);
      expect(await tab.inputValue('input[name=total]'), total).to.equal(total);
      expect(await tab.inputValue('select[name=tipo]'), total).to.equal('01');
    }
  });

  it('says once that the links expire', async () => {
    const tab = await tabFrom('192.0.2.13');
    await consult(facts(), tab);
    const text = await tab.locator('body').innerText();
    expect(text.match(/venc|expir|caduc/gi), text).to.deep.equal(['venc']);
  });

  it('a rejected invoice says plainly it is not valid and offers no PDF; a signed PDF link gets none either', async () => {
    env.sim.addRule({ operation: 'sendBill', ruc: company.ruc, fault: { kind: 'reject', code: '2335' }, times: 1 });
    const rejected = await until(
      env.stack,
      (await issue(env.stack, company.token, payload('invoice-basic.json', company.ruc))).body.external_id,
      ['rejected'],
    );
    env.sim.clearRules();
    const tab = await tabFrom('192.0.2.14');
    const answer = await consult({ ...facts(), numero: String(Number(rejected.number)) }, tab);
    expect(answer.status).to.equal(200);
    expect(await tab.locator('.status').innerText()).to.equal('Rechazado: no es válido');
    expect(await tab.getByRole('alert').innerText()).to.include('Este comprobante no es válido: SUNAT lo rechazó');
    const links = await tab
      .locator('main a')
      .evaluateAll((anchors) => anchors.map((a) => [a.textContent, (a as HTMLAnchorElement).pathname]));
    expect(links.map(([text]) => text)).to.deep.equal([
      'XML tal como fue emitido',
      'Respuesta de SUNAT (CDR)',
      'Hacer otra consulta',
    ]);
    expect(links.filter(([, href]) => /\/pdf$/.test(href!))).to.deep.equal([]);
    expect(answer.main).to.not.match(/PDF|Descargar/);
    const pdf = await got(`${env.stack.url}${signedFilePath(env.stack.secrets, rejected.id, 'pdf')}`, {
      throwHttpErrors: false,
    });
    expect(pdf.statusCode).to.equal(404);
    rejectedNumber = String(Number(rejected.number));
  });
  let rejectedNumber = '';

  it('every page at 375 and 1280 px: nothing wider than the screen, no word broken mid-letter, no English', async () => {
    const english = englishOnlyWords();
    for (const width of [375, 1280]) {
      const view = await (
        await getBrowser()
      ).newContext({
        viewport: { width, height: 900 },
        locale: 'es-PE',
        extraHTTPHeaders: { 'X-Forwarded-For': `192.0.2.${20 + (width % 200)}` },
      });
      const tab = await view.newPage();
      const check = async (name: string, fields?: Record<string, string>) => {
        await tab.goto(`${env.stack.url}/consulta`);
        if (fields) {
          for (const [key, value] of Object.entries(fields))
            if (key === 'tipo') await tab.selectOption('select[name=tipo]', value);
            else await tab.fill(`input[name=${key}]`, value);
          await Promise.all([tab.waitForNavigation(), tab.click('button[type=submit]')]);
        }
        const problems = await pageProblems(tab, english);
        expect(problems, `${name} at ${width} px`).to.deep.equal({ scrolls: 0, wide: [], split: [], english: [] });
        await screenshot(tab, `consulta-${name}-${width}`);
      };
      await check('form');
      await check('found', { ...facts(), total: 'S/ 118.00' });
      await check('not-found', { ...facts(), total: '118.01' });
      await check('hint', { ...facts(), total: '118,00' });
      if (rejectedNumber) await check('rejected', { ...facts(), numero: rejectedNumber });
      await view.close();
    }
  });

  it("renders the buyer's e-mail (its HTML part) for a look", async () => {
    const mail = await eventually(() => smtp.mails.find((m) => m.recipients.includes('compras@cliente.pe')));
    // A blank page of its own: written into the consultation page, the message would live under that page's CSP.
    const view = await context.newPage();
    await view.setContent(String(mail.parsed.html));
    await screenshot(view, 'email');
    expect(await view.locator('body').innerText()).to.include(`FACTURA ELECTRÓNICA F001-${Number(doc.number)}`);
    await view.close();
  });
});
