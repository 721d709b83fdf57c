/**
 * SUNAT's dated rules through POST /v1/cpe (issue 24): the API judges with config.rules, CHASQUI_RULE_DATES as
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
import { addDays } from '../../documents/calendar';

const today = limaDate(new Date());
const rulesOf = (dates: string) => {
  const config = loadConfig({ CHASQUI_RULE_DATES: dates });
  return { rules: config.rules, ruleWarnDays: config.ruleWarnDays };
};

/** An invoice issued today by `ruc`, its lines without codigoSunat unless `codes`, at the IGV `rate` when given. */
function invoice(ruc: string, options: { codes?: boolean; rate?: number } = {}) {
  const doc = payload('invoice-igv-10-reduced-rate.json', ruc, { fechaEmision: today });
  doc.items = doc.items.map((item: Record<string, unknown>) => {
    const { porcentajeIgv, ...rest } = item;
    return {
      ...rest,
      ...(options.codes ? { codigoSunat: '90101501' } : {}),
      ...(options.rate ? { porcentajeIgv: options.rate } : { porcentajeIgv }),
    };
  });
  return doc;
}

describe('dated rules through the API', function () {
  this.timeout(60_000);

  describe('the 2027 set brought forward with CHASQUI_RULE_DATES', () => {
    let env: IssuingStack;
    let company: TestCompany;
    before(async function () {
      this.timeout(120_000);
      const set = ['product-code-required', 'summary-v2', 'debit-note-13', 'credit-note-ceiling', 'mype-rate-2027'];
      env = await startIssuingStack(rulesOf(set.map((id) => `${id}=${today}`).join(',')), { worker: false });
      // Judged before signing: nothing needs sending (and a held invoice stays held, whatever an authority says).
      company = await newCompany(env.stack, { settings: { sending_mode: 'manual' } });
    });
    after(() => env?.stop());

    it('makes a line without codigoSunat a 422 naming the line, and 14 % an accepted rate', async () => {
      const refused = await issue(env.stack, company.token, invoice(company.ruc, { rate: 14 }));
      expect(refused.status, JSON.stringify(refused.body)).to.equal(422);
      expect(refused.body.errors).to.deep.equal(
        [0, 1].map(
          (i) =>
            `[SUNAT 3496] items[${i}].codigoSunat (SUNAT's product code, catalog 25) is required on every line of documents issued from ${today}`,
        ),
      );
      expect(refused.body.details.map((d: { path: string }) => d.path)).to.deep.equal([
        'items[0].codigoSunat',
        'items[1].codigoSunat',
      ]);

      const accepted = await issue(env.stack, company.token, invoice(company.ruc, { codes: true, rate: 14 }));
      expect(accepted.status, JSON.stringify(accepted.body)).to.equal(202);
      expect(Buffer.from(accepted.body.xml, 'base64').toString('utf8')).to.include('<cbc:Percent>14.00</cbc:Percent>');

      // The legacy endpoint issues through the same path.
      const legacy = await call(env.stack, 'POST', '/api/cpe/enviar', {
        token: company.token,
        json: invoice(company.ruc, { rate: 14 }),
      });
      expect(legacy.status).to.equal(422);
      expect(legacy.body.errors).to.deep.equal(refused.body.errors);

      const ten = await issue(env.stack, company.token, invoice(company.ruc, { codes: true, rate: 10 }));
      expect(ten.status).to.equal(422);
      expect(ten.body.errors[0]).to.equal(
        `[SUNAT 3103] porcentajeIgv 10 is not an IGV rate of a document issued on ${today}: that date allows 18, or 14 (the reduced MYPE rate of Ley 31556)`,
      );
    });

    it('caps a credit note by the invoice chasqui holds (3286), and leaves one it does not hold to SUNAT', async () => {
      const held = await issue(
        env.stack,
        company.token,
        payload('invoice-basic.json', company.ruc, { fechaEmision: today }),
      );
      expect(held.status, JSON.stringify(held.body)).to.equal(202);
      const heldNumber = held.body.filename.split('-').slice(2).join('-');
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

  describe('before a rule: the warning window (CHASQUI_RULE_WARN_DAYS, default 60)', () => {
    let env: IssuingStack;
    let company: TestCompany;
    const effective = addDays(today, 30);
    before(async function () {
      this.timeout(120_000);
      env = await startIssuingStack(rulesOf(`product-code-required=${effective}`), { worker: false });
      company = await newCompany(env.stack, { settings: { sending_mode: 'manual' } });
    });
    after(() => env?.stop());

    it('answers 202 with a warning naming 3496 and the date; none when every line has its code', async () => {
      const warned = await issue(env.stack, company.token, invoice(company.ruc, { rate: 18 }));
      expect(warned.status, JSON.stringify(warned.body)).to.equal(202);
      expect(warned.body.warnings).to.deep.equal([
        `[SUNAT 3496] from ${effective} SUNAT refuses lines without codigoSunat (catalog 25); this document's items[0], items[1] have none`,
      ]);
      const clean = await issue(env.stack, company.token, invoice(company.ruc, { codes: true, rate: 18 }));
      expect(clean.status).to.equal(202);
      expect(clean.body).to.not.have.property('warnings');
    });
  });

  describe('SUNAT (the simulator) under the same moved calendar', () => {
    let env: IssuingStack;
    let company: TestCompany;
    before(async function () {
      this.timeout(120_000);
      env = await startIssuingStack(rulesOf(`product-code-required=${today},mype-rate-2027=${today}`));
      company = await newCompany(env.stack);
    });
    after(() => env?.stop());

    it('accepts an invoice at the 14 % rate with every product code, issued on the day the rules start', async () => {
      const res = await issue(env.stack, company.token, invoice(company.ruc, { codes: true, rate: 14 }));
      expect(res.status, JSON.stringify(res.body)).to.equal(202);
      const row = await until(env.stack, res.body.external_id, ['accepted', 'rejected']);
      expect(row.status, JSON.stringify(row.result)).to.equal('accepted');
    });
  });
});
