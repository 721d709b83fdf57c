/**
 * The IGV rate of a credit or debit note: SUNAT's notes' sheets take "la tasa vigente al IGV a la fecha de emisión
 * (18.00, 10.50 o 10.00)" because a note carries the rate of the document it modifies (NotaCredito2_0 row 298,
 * NotaDebito2_0 row 296; 4439 for "10 o 10.5" off the register, rows 302 and 300), where Factura2_0 row 313 has
 * "18.00 o 10.50". A note of 2026 modifying a 2025 invoice at 10 was refused by chasqui with 3103.
 */
import { expect } from 'chai';
import { prepareDocument } from '../../documents';
import { DEFAULT_CALENDAR, parseRuleDates, RuleCalendar } from '../../documents/calendar';
import { datedRuleFailures } from '../../validator/dated-rules';
import { errors, fixture } from '../support/documents';
import { atRate, dated } from './dated-fixtures';

const rate3103 = (list: string[]) => list.filter((e) => e.startsWith('[SUNAT 3103]'));
const credit = (date: string, rate: number) => atRate(dated('credit-note-01.json', date), rate);
const debit = (date: string, rate: number) => atRate(dated('debit-note-03.json', date), rate);

describe('the IGV rate of a note: the rates in force and the earlier special rates of the documents it modifies', () => {
  it('builds a credit or debit note of 2026 at 10, the special rate of 2025, and at 10.5; an invoice at 10 stays 3103', () => {
    for (const note of [credit, debit]) {
      for (const rate of [10, 10.5, 18]) expect(errors(note('2026-06-01', rate)), `${rate}`).to.deep.equal([]);
      expect(rate3103(errors(note('2026-06-01', 12)))).to.have.length.greaterThan(0);
    }
    expect(prepareDocument(credit('2026-06-01', 10)).xml).to.contain('<cbc:Percent>10.00</cbc:Percent>');
    expect(rate3103(errors(atRate(dated('invoice-decimals.json', '2026-06-01'), 10)))).to.have.length.greaterThan(0);
  });

  it('from mype-rate-2027 a note takes 15, and 10.5 and 10 of the documents before; before 2026 only 10', () => {
    for (const rate of [15, 10.5, 10]) expect(errors(debit('2027-03-01', rate)), `${rate}`).to.deep.equal([]);
    expect(rate3103(errors(atRate(dated('invoice-decimals.json', '2027-03-01'), 10.5)))).to.have.length.greaterThan(0);
    expect(rate3103(errors(credit('2025-12-31', 10.5)))).to.have.length.greaterThan(0);
    expect(errors(credit('2025-12-31', 10))).to.deep.equal([]);
    // A step switched off is no earlier rate: 2027 keeps 10.5 in force and knows no 15.
    const off = new RuleCalendar(parseRuleDates('mype-rate-2027=off'));
    expect(rate3103(errors(credit('2027-03-01', 15), { calendar: off }))).to.have.length.greaterThan(0);
    expect(errors(credit('2027-03-01', 10), { calendar: off })).to.deep.equal([]);
  });

  it('observes a note at an earlier special rate from a company off the register (4439)', () => {
    const off = prepareDocument(credit('2026-06-01', 10), { registers: { igvSpecialRate: false, productCode: false } });
    expect(off.warnings.filter((w) => w.startsWith('[SUNAT 4439] items[0].porcentajeIgv 10 '))).to.have.length(1);
    const on = prepareDocument(credit('2026-06-01', 10), { registers: { igvSpecialRate: true, productCode: false } });
    expect(on.warnings.filter((w) => w.includes('4439'))).to.deep.equal([]);
  });

  it('a daily summary lists a B note of 2026 at 10, and refuses a boleta at 10 (3103)', () => {
    const line = (tipoDoc: '03' | '07', serieNumero: string) => ({
      tipoDoc,
      serieNumero,
      estado: '1',
      cliente: { tipoDoc: '1', numDoc: '45678912' },
      ...(tipoDoc === '07' ? { documentoAfectado: { tipoDoc: '03', serieNumero: 'B001-1' } } : {}),
      porcentajeIgv: 10,
      totales: { gravadas: 100, igv: 10 },
    });
    const rc = (items: object[]) => ({
      ...fixture('rc-mixed.json'),
      fechaReferencia: '2026-06-01',
      fechaEmision: '2026-06-02',
      items,
    });
    expect(errors(rc([line('07', 'B001-20')]))).to.deep.equal([]);
    expect(rate3103(errors(rc([line('03', 'B001-21')])))).to.have.length(1);
  });

  it('`chasqui validate` and the simulator judge the XML the same way', () => {
    const judged = (xml: string) => datedRuleFailures(xml, DEFAULT_CALENDAR).map((f) => `${f.rule}:${f.code}`);
    expect(judged(prepareDocument(credit('2026-06-01', 10)).xml)).to.deep.equal([]);
    const invoice = prepareDocument(atRate(dated('invoice-decimals.json', '2025-12-31'), 10)).xml;
    expect(judged(invoice.replace(/2025-12-31/g, '2026-06-01'))).to.include('mype-rate-2026:3103');
    const note12 = prepareDocument(credit('2026-06-01', 10)).xml.replace(
      /<cbc:Percent>10\.00</g,
      '<cbc:Percent>12.00<',
    );
    expect(judged(note12)).to.include('mype-rate-2026:3103');
  });
});
