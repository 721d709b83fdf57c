/**
 * The panel's export tab in a real browser against the real stack: a month's CSV register (one row per document, UTF-8
 * with BOM, decimals as strings, formulas disarmed) and the ZIP of its XML and CDR, each refused past its bound.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { unzipSync } from 'fflate';
import type { Browser, Page } from 'playwright-core';
import { getBrowser, screenshot } from '../support/browser';
import { englishOnlyWords, pageProblems } from '../support/page-checks';
import { csvFields } from '../../documents/csv';
import { csvField } from '../../api/console/panel/export';
import { limaDate } from '../../core/lima';
import {
  issue,
  newCompany,
  payload,
  startIssuingStack,
  until,
  type IssuingStack,
  type TestCompany,
} from '../issuing/support';

describe('panel (real browser): export of a month', function () {
  this.timeout(180_000);
  let s: IssuingStack;
  let browser: Browser;
  let a: TestCompany;
  let b: TestCompany;
  const month = limaDate(new Date()).slice(0, 7);
  const today = limaDate(new Date());
  let page: Page;

  before(async () => {
    s = await startIssuingStack({ consoleSignInRate: { limit: 1000, windowSeconds: 300 } });
    [a, b] = [await newCompany(s.stack), await newCompany(s.stack)];
    for (const fixture of ['invoice-basic.json', 'invoice-basic.json']) {
      const sent = await issue(s.stack, a.token, payload(fixture, a.ruc, { fechaEmision: today }));
      await until(s.stack, sent.body.external_id, ['accepted']);
    }
    browser = await getBrowser();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${s.stack.url}/console`);
    await page.getByLabel('Token de acceso').fill(a.accountToken);
    await page.getByRole('button', { name: 'Entrar' }).click();
  });
  after(async () => s?.stop());

  const exportUrl = (ruc: string, file = '', query = '') =>
    `${s.stack.url}/console/companies/${ruc}/export${file ? `/${file}` : ''}${query}`;

  it('writes the month register as CSV: BOM, a header and one row per document with its totals as strings', async () => {
    await page.goto(exportUrl(a.ruc));
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Descargar el registro (CSV)' }).click(),
    ]);
    expect(download.suggestedFilename()).to.equal(`${a.ruc}-${month}.csv`);
    const text = fs.readFileSync(await download.path(), 'utf8');
    expect(text.charCodeAt(0)).to.equal(0xfeff);
    const rows = text.slice(1).trimEnd().split('\r\n').map(csvFields);
    expect(rows[0]).to.deep.equal([
      'Tipo',
      'Serie',
      'Número',
      'Fecha de emisión',
      'Cliente',
      'Moneda',
      'Tributos',
      'Total',
      'Estado',
    ]);
    const docs = await s.stack.db('documents').where({ company_id: a.row.id }).orderBy('created_at', 'desc');
    expect(rows.slice(1)).to.deep.equal(
      docs.map((d) => [
        'Factura',
        'F001',
        String(d.number),
        today,
        '20600000005',
        'PEN',
        '18.00',
        '118.00',
        'aceptado',
      ]),
    );
  });

  it('disarms a value a spreadsheet would run as a formula', () => {
    expect(csvField('=HYPERLINK("x")')).to.equal(`"'=HYPERLINK(""x"")"`);
    expect(csvField('-')).to.equal(`"'-"`);
    expect(csvField('F001')).to.equal('"F001"');
  });

  it('streams the month ZIP: each document’s XML and its CDR', async () => {
    const res = await page.request.get(exportUrl(a.ruc, 'archivos.zip', `?mes=${month}`));
    expect(res.status()).to.equal(200);
    expect(res.headers()['content-type']).to.equal('application/zip');
    const entries = unzipSync(new Uint8Array(await res.body()));
    const docs = await s.stack.db('documents').where({ company_id: a.row.id }).orderBy('created_at', 'desc');
    expect(Object.keys(entries)).to.deep.equal(docs.flatMap((d) => [`${d.filename}.xml`, `R-${d.filename}.zip`]));
    expect(Buffer.from(entries[`${docs[0].filename}.xml`]).toString('utf8')).to.include('<ds:Signature');
  });

  it('refuses past its bounds (documents, then bytes) and a month that is not one, with the reason in Spanish', async () => {
    const bounds = s.stack.config.consoleExport;
    const saved = { ...bounds };
    try {
      bounds.maxDocuments = 1;
      let res = await page.goto(exportUrl(a.ruc, 'registro.csv', `?mes=${month}`));
      expect(res!.status()).to.equal(413);
      expect(await page.locator('[role=alert]').innerText()).to.include('se exportan hasta 1 a la vez');
      bounds.maxDocuments = saved.maxDocuments;
      bounds.maxBytes = 1000;
      res = await page.goto(exportUrl(a.ruc, 'archivos.zip', `?mes=${month}`));
      expect(res!.status()).to.equal(413);
      expect(await page.locator('[role=alert]').innerText()).to.include('el ZIP lleva hasta');
      await screenshot(page, 'panel-export-refused-1280');
    } finally {
      Object.assign(bounds, saved);
    }
    const res = await page.goto(exportUrl(a.ruc, 'registro.csv', '?mes=2026-13'));
    expect(res!.status()).to.equal(400);
    expect(await page.locator('[role=alert]').innerText()).to.include('Elija un mes');
  });

  it("another account's company is unknown (404)", async () => {
    for (const file of ['', 'registro.csv', 'archivos.zip'])
      expect((await page.goto(exportUrl(b.ruc, file, `?mes=${month}`)))!.status(), file).to.equal(404);
  });

  it('walks the export page at 375 and 1280 px: nothing wider, no split word, Spanish only', async () => {
    const english = englishOnlyWords();
    for (const width of [375, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      for (const [name, url] of [
        ['export', exportUrl(a.ruc)],
        ['export-bad-month', exportUrl(a.ruc, 'registro.csv', '?mes=2026-13')],
      ]) {
        await page.goto(url);
        await screenshot(page, `panel-${name}-${width}`);
        const problems = await pageProblems(page, english);
        expect(problems, `${name} at ${width}`).to.deep.equal({ scrolls: 0, wide: [], split: [], english: [] });
      }
    }
  });
});
