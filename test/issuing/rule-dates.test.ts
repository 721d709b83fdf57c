/**
 * SUNAT's dated rules through POST /v1/cpe (issues 24 and 33): the API judges with config.rules, CHASQUI_RULE_DATES as
 * core/config reads it. Dates are set relative to today so the suite means the same whatever day it runs.
 */
import { expect } from 'chai';
import {
  call,
  issue,
  newCompany,
  payload,
  startIssuingStack,
  until,
  type IssuingStack,
  type TestCompany,
} from './support';
import { loadConfig } from '../../core/config';
import { limaDate } from '../../core/lima';
import { addDays, RULES } from '../../documents/calendar';
import { Validator } from '../../validator';

const today = limaDate(new Date());
const rulesOf = (dates: string) => {
  const config = loadConfig({ CHASQUI_RULE_DATES: dates });
  return { rules: config.rules, ruleWarnDays: config.ruleWarnDays };
};

/** An invoice issued today by `ruc`, its lines without codigoSunat unless `code`, at the IGV `rate` when given. */
function invoice(ruc: string, options: { code?: string; rate?: number } = {}) {
  const doc = payload('invoice-igv-10-reduced-rate.json', ruc, { fechaEmision: today });
  doc.items = doc.items.map((item: Record<string, unknown>) => {
    const { porcentajeIgv, ...rest } = item;
    return {
      ...rest,
      ...(options.code ? { codigoSunat: options.code } : {}),
      ...(options.rate ? { porcentajeIgv: options.rate } : { porcentajeIgv }),
    };
  });
  return doc;
}

/** An invoice issued today by `company`, which chasqui then holds: its number (`F001-12`). */
async function heldInvoice(env: IssuingStack, company: TestCompany): Promise<string> {
  const held = await issue(
    env.stack,
    company.token,
    payload('invoice-basic.json', company.ruc, { fechaEmision: today }),
  );
  expect(held.status, JSON.stringify(held.body)).to.equal(202);
  return held.body.filename.split('-').slice(2).join('-');
}

describe('dated rules through the API', function () {
  this.timeout(60_000);

  // Every rule of the 2027 set brought forward to today, as an operator or a test environment would.
  describe('the 2027 set brought forward with CHASQUI_RULE_DATES', () => {
    let env: IssuingStack;
    let company: TestCompany;
    // Every rule the calendar dates in 2027, so a rule added there is brought forward too.
    const set = RULES.filter((r) => r.effective.startsWith('2027-')).map((r) => r.id);
    it('brings forward the whole 2027 set', () => {
      expect(set).to.include.members(['product-code-valid', 'mype-rate-2027', 'summary-v2', 'debit-note-13']);
    });
    const rules = rulesOf(set.map((id) => `${id}=${today}`).join(','));
    before(async function () {
      this.timeout(120_000);
      env = await startIssuingStack(rules, { worker: false });
      // Judged before signing: nothing needs sending (and a held invoice stays held, whatever an authority says).
      company = await newCompany(env.stack, { settings: { sending_mode: 'manual' } });
    });
    after(() => env?.stop());

    it('takes an invoice without product codes, no warning, and its XML passes chasqui validate with that calendar', async function () {
      this.timeout(600_000);
      const res = await issue(env.stack, company.token, invoice(company.ruc, { rate: 18 }));
      expect(res.status, JSON.stringify(res.body)).to.equal(202);
      expect(res.body).to.not.have.property('warnings');
      const xml = Buffer.from(res.body.xml, 'base64').toString('utf8');
      expect(xml).to.not.include('CommodityClassification');
      const validator = new Validator({
        cacheDir: loadConfig().validatorCacheDir,
        requireSignature: true,
        calendar: rules.rules,
      });
      const [report] = await validator.validate([{ file: `${res.body.filename}.xml`, xml }]);
      expect(report.dated_rules).to.deep.equal([]);
      expect(report.pass, JSON.stringify(report)).to.equal(true);
    });

    it('refuses an invalid product code with 422 [SUNAT 3496] naming the line; 00000000 and a listed code pass', async () => {
      for (const [code, reason] of [
        ['12345678', '12345678 is not in catalog 25 (nor 00000000 or 99999999)'],
        ['1234567', "'1234567' is not a number of 8 digits"],
      ]) {
        const refused = await issue(env.stack, company.token, invoice(company.ruc, { rate: 18, code }));
        expect(refused.status, JSON.stringify(refused.body)).to.equal(422);
        expect(refused.body.errors).to.deep.equal(
          [0, 1].map(
            () =>
              `[SUNAT 3496] ${reason}: SUNAT's product code is not valid on documents issued from ${today}; send a valid one (catalog 25, class level or below, 00000000 or 99999999) or leave it out`,
          ),
        );
        expect(refused.body.details.map((d: { path: string }) => d.path)).to.deep.equal([
          'items[0].codigoSunat',
          'items[1].codigoSunat',
        ]);
        // The legacy endpoint issues through the same path.
        const legacy = await call(env.stack, 'POST', '/api/cpe/enviar', {
          token: company.token,
          json: invoice(company.ruc, { rate: 18, code }),
        });
        expect(legacy.status).to.equal(422);
        expect(legacy.body.errors).to.deep.equal(refused.body.errors);
      }
      for (const code of ['00000000', '90101501']) {
        const accepted = await issue(env.stack, company.token, invoice(company.ruc, { rate: 18, code }));
        expect(accepted.status, `${code} ${JSON.stringify(accepted.body)}`).to.equal(202);
        expect(Buffer.from(accepted.body.xml, 'base64').toString('utf8')).to.include(
          `>${code}</cbc:ItemClassificationCode>`,
        );
      }
    });

    it('takes the 2027 special rate (15, reported) and refuses 10.5 with 3103 naming 18 and 15', async () => {
      const accepted = await issue(env.stack, company.token, invoice(company.ruc, { rate: 15 }));
      expect(accepted.status, JSON.stringify(accepted.body)).to.equal(202);
      expect(Buffer.from(accepted.body.xml, 'base64').toString('utf8')).to.include('<cbc:Percent>15.00</cbc:Percent>');
      const old = await issue(env.stack, company.token, invoice(company.ruc, { rate: 10.5 }));
      expect(old.status).to.equal(422);
      expect(old.body.errors[0]).to.equal(
        `[SUNAT 3103] porcentajeIgv 10.5 is not an IGV rate of a document issued on ${today}: that date allows 18, or 15 (the special rate of MYPE restaurants and hotels)`,
      );
    });

    it('caps a credit note by the invoice chasqui holds (3286), and leaves one it does not hold to SUNAT', async () => {
      const heldNumber = await heldInvoice(env, company);
      const note = (serieNumero: string, valorUnitario: number) =>
        payload('credit-note-01.json', company.ruc, {
          fechaEmision: today,
          documentoAfectado: { tipoDoc: '01', serieNumero },
          items: [
            {
              codigo: 'P1',
              codigoSunat: '43211503',
              descripcion: 'Devolución',
              cantidad: 1,
              valorUnitario,
              afectacionIgv: '10',
            },
          ],
        });
      const over = await issue(env.stack, company.token, note(heldNumber, 100_000));
      expect(over.status, JSON.stringify(over.body)).to.equal(422);
      expect(over.body.errors).to.have.length(1);
      expect(over.body.errors[0]).to.match(
        new RegExp(
          `^\\[SUNAT 3286\\] the credit note's total \\(118000\\.00\\) exceeds that of ${heldNumber} it modifies \\(\\d+\\.\\d\\d\\)$`,
        ),
      );
      expect((await issue(env.stack, company.token, note(heldNumber, 1))).status).to.equal(202);
      expect((await issue(env.stack, company.token, note('F999-99999999', 100_000))).status).to.equal(202);
    });
  });

  describe("SUNAT's dates (today): the special rate and the registers", () => {
    let env: IssuingStack;
    const { special } = loadConfig({}).rules.igvRates(today);
    before(async function () {
      this.timeout(120_000);
      env = await startIssuingStack(rulesOf(''), { worker: false });
    });
    after(() => env?.stop());

    it('takes the special rate of today (10.5 in 2026) and refuses 10 with 3103 naming 18 and it', async function () {
      if (today < '2027-01-01') expect(special).to.equal(10.5);
      if (special === null) this.skip();
      const company = await newCompany(env.stack, { settings: { sending_mode: 'manual' } });
      const accepted = await issue(env.stack, company.token, invoice(company.ruc, { rate: special! }));
      expect(accepted.status, JSON.stringify(accepted.body)).to.equal(202);
      expect(Buffer.from(accepted.body.xml, 'base64').toString('utf8')).to.include(
        `<cbc:Percent>${special!.toFixed(2)}</cbc:Percent>`,
      );
      const ten = await issue(env.stack, company.token, invoice(company.ruc, { rate: 10 }));
      expect(ten.status).to.equal(422);
      expect(ten.body.errors).to.deep.equal([
        `[SUNAT 3103] porcentajeIgv 10 is not an IGV rate of a document issued on ${today}: that date allows 18, or ${special} (the special rate of MYPE restaurants and hotels)`,
        `[SUNAT 3103] porcentajeIgv 10 is not an IGV rate of a document issued on ${today}: that date allows 18, or ${special} (the special rate of MYPE restaurants and hotels)`,
      ]);
    });

    it("warns 4439 at the special rate unless the company declared SUNAT's register (ind_padron 01)", async function () {
      if (special === null) this.skip();
      const off = await newCompany(env.stack, { settings: { sending_mode: 'manual' } });
      const warned = await issue(env.stack, off.token, invoice(off.ruc, { rate: special! }));
      expect(warned.status).to.equal(202);
      expect(warned.body.warnings.filter((w: string) => w.startsWith('[SUNAT 4439]'))).to.have.length(1);
      const on = await newCompany(env.stack, {
        settings: { sending_mode: 'manual', register_igv_special_rate: true },
      });
      const quiet = await issue(env.stack, on.token, invoice(on.ruc, { rate: special! }));
      expect(quiet.status).to.equal(202);
      expect((quiet.body.warnings ?? []).filter((w: string) => w.includes('4439'))).to.deep.equal([]);
      const general = await issue(env.stack, off.token, invoice(off.ruc, { rate: 18 }));
      expect(general.body).to.not.have.property('warnings');
    });

    it('warns 4331 on lines with neither code nor GTIN from a company obliged to send the code (ind_padron 12)', async () => {
      const obliged = await newCompany(env.stack, {
        settings: { sending_mode: 'manual', register_product_code: true },
      });
      const warned = await issue(env.stack, obliged.token, invoice(obliged.ruc, { rate: 18 }));
      expect(warned.status).to.equal(202);
      expect(warned.body.warnings.map((w: string) => w.split(':')[0])).to.deep.equal([
        '[SUNAT 4331] items[0].codigoSunat',
        '[SUNAT 4331] items[1].codigoSunat',
      ]);
      const coded = await issue(env.stack, obliged.token, invoice(obliged.ruc, { rate: 18, code: '90101501' }));
      expect(coded.body).to.not.have.property('warnings');
    });

    it('refuses a note dated before the invoice chasqui holds (2885, NotaCredito2_0 row 84)', async () => {
      const company = await newCompany(env.stack, { settings: { sending_mode: 'manual' } });
      const heldNumber = await heldInvoice(env, company);
      const early = await issue(
        env.stack,
        company.token,
        payload('credit-note-01.json', company.ruc, {
          fechaEmision: addDays(today, -1),
          documentoAfectado: { tipoDoc: '01', serieNumero: heldNumber },
        }),
      );
      expect(early.status, JSON.stringify(early.body)).to.equal(422);
      expect(early.body.errors).to.deep.equal([
        `[SUNAT 2885] fechaEmision ${addDays(today, -1)} is before ${today}, the issue date of ${heldNumber} this note modifies`,
      ]);
    });

    it('warns a credit note above the invoice chasqui holds (3286, NotaCredito2_0 row 85) before credit-note-ceiling', async function () {
      if (
        !loadConfig({})
          .rules.upcoming(today, 3650)
          .some((r) => r.id === 'credit-note-ceiling')
      )
        this.skip();
      const company = await newCompany(env.stack, { settings: { sending_mode: 'manual' } });
      const heldNumber = await heldInvoice(env, company);
      const note = (codigo: string) => ({
        ...payload('credit-note-01.json', company.ruc, { fechaEmision: today }),
        motivo: { codigo, descripcion: 'Devolución' },
        documentoAfectado: { tipoDoc: '01', serieNumero: heldNumber },
        items: [{ codigo: 'P1', descripcion: 'Devolución', cantidad: 1, valorUnitario: 100_000, afectacionIgv: '10' }],
      });
      const over = await issue(env.stack, company.token, note('07'));
      expect(over.status, JSON.stringify(over.body)).to.equal(202);
      expect(over.body.warnings.filter((w: string) => w.startsWith('[SUNAT 3286]'))).to.have.length(1);
      expect(over.body.warnings.join('\n')).to.contain(`exceeds that of ${heldNumber} it modifies`);
      // Reason 10 is never compared (rows 85 and 86: "diferente de '10'").
      const other = await issue(env.stack, company.token, note('10'));
      expect(other.status, JSON.stringify(other.body)).to.equal(202);
      expect((other.body.warnings ?? []).filter((w: string) => w.includes('3286'))).to.deep.equal([]);
    });
  });

  describe('before a rule: the warning window (CHASQUI_RULE_WARN_DAYS, default 60)', () => {
    let env: IssuingStack;
    let company: TestCompany;
    const effective = addDays(today, 30);
    before(async function () {
      this.timeout(120_000);
      env = await startIssuingStack(rulesOf(`product-code-valid=${effective}`), { worker: false });
      company = await newCompany(env.stack, { settings: { sending_mode: 'manual' } });
    });
    after(() => env?.stop());

    it('answers 202 without warnings for lines without a code; an invalid code is warned with 4332 and the date', async () => {
      const clean = await issue(env.stack, company.token, invoice(company.ruc, { rate: 18 }));
      expect(clean.status, JSON.stringify(clean.body)).to.equal(202);
      expect(clean.body).to.not.have.property('warnings');
      const warned = await issue(env.stack, company.token, invoice(company.ruc, { rate: 18, code: '12345678' }));
      expect(warned.status).to.equal(202);
      expect(warned.body.warnings).to.deep.equal(
        [0, 1].map(
          (i) =>
            `[SUNAT 4332] items[${i}].codigoSunat: 12345678 is not in catalog 25 (nor 00000000 or 99999999); SUNAT observes it and refuses it (3496) on documents issued from ${effective}: send a valid one or leave it out`,
        ),
      );
    });
  });

  describe('SUNAT (the simulator) under the same calendar', () => {
    let env: IssuingStack;
    let company: TestCompany;
    before(async function () {
      this.timeout(120_000);
      env = await startIssuingStack(rulesOf(`product-code-valid=${today},mype-rate-2027=${today}`));
      company = await newCompany(env.stack);
    });
    after(() => env?.stop());

    it('accepts an invoice at the 2027 rate, without product codes, issued on the day the rules start', async () => {
      const res = await issue(env.stack, company.token, invoice(company.ruc, { rate: 15 }));
      expect(res.status, JSON.stringify(res.body)).to.equal(202);
      const row = await until(env.stack, res.body.external_id, ['accepted', 'rejected']);
      expect(row.status, JSON.stringify(row.result)).to.equal('accepted');
    });
  });

  describe("SUNAT (the simulator) by SUNAT's dates", () => {
    let env: IssuingStack;
    let company: TestCompany;
    before(async function () {
      this.timeout(120_000);
      env = await startIssuingStack(rulesOf(''));
      company = await newCompany(env.stack, { settings: { register_igv_special_rate: true } });
    });
    after(() => env?.stop());

    it('accepts an invoice at the special rate of today (10.5 in 2026)', async function () {
      const { special } = loadConfig({}).rules.igvRates(today);
      if (special === null) this.skip();
      const res = await issue(env.stack, company.token, invoice(company.ruc, { rate: special! }));
      expect(res.status, JSON.stringify(res.body)).to.equal(202);
      const row = await until(env.stack, res.body.external_id, ['accepted', 'rejected']);
      expect(row.status, JSON.stringify(row.result)).to.equal('accepted');
    });
  });
});
