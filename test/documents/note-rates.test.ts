/**
 * The IGV rates of a credit or debit note (issue 33): besides the rates of its issue date, a note carries the rate of
 * the document it modifies, so the special rates of earlier dates (documents/calendar/igv-rates.ts).
 */
import { expect } from 'chai';
import { prepareDocument } from '../../documents';
import { DEFAULT_CALENDAR, parseIgvRates, RuleCalendar } from '../../documents/calendar';
import { errors } from '../support/documents';
import { atRate, dated, withCodes } from './dated-fixtures';

describe('the IGV rates of a note: the earlier special rates too', () => {
  // NotaCredito2_0 row 298 / NotaDebito2_0 row 296: "(18.00, 10.50 o 10.00) … la tasa del IGV del 'Documento que se
  // modifica' es 10%, 10.5% o 18%"; their 4439 rows (302, 300): "es igual a 10 o 10.5".
  it('takes on a note the earlier special rate, that of the document it modifies, and observes it (4439)', () => {
    const note = (name: string, date: string, rate: number, calendar = DEFAULT_CALENDAR) =>
      errors(atRate(withCodes(dated(name, date)), rate), { calendar }).filter((e) => e.includes('3103'));
    for (const name of ['credit-note-01.json', 'debit-note-01.json']) {
      expect(note(name, '2026-01-01', 10), name).to.deep.equal([]);
      expect(note(name, '2026-01-01', 10.5), name).to.deep.equal([]);
      expect(note(name, '2025-12-31', 10.5), name).to.not.deep.equal([]);
      expect(note(name, '2027-01-01', 10.5), name).to.deep.equal([]);
      expect(note(name, '2028-01-01', 15), name).to.deep.equal([]);
      expect(note(name, '2026-06-01', 15)[0], name).to.include(
        'that date allows 18, or 10.5 (the special rate of MYPE restaurants and hotels), or 10 (an earlier special rate, that of the document the note modifies)',
      );
    }
    expect(
      note('invoice-igv-10-reduced-rate.json', '2026-01-01', 10),
      'an invoice modifies no document',
    ).to.have.length(2);
    // The earlier rates follow CHASQUI_IGV_RATES too.
    const valued = new RuleCalendar({}, parseIgvRates('mype-rate-2026=11'));
    expect(note('credit-note-01.json', '2027-01-01', 11, valued)).to.deep.equal([]);
    expect(note('credit-note-01.json', '2027-01-01', 10.5, valued)).to.not.deep.equal([]);
    const observed = (igvSpecialRate: boolean) =>
      prepareDocument(atRate(withCodes(dated('credit-note-01.json', '2026-06-01')), 10), {
        registers: { igvSpecialRate, productCode: false },
      }).warnings;
    expect(observed(false).filter((w) => w.startsWith('[SUNAT 4439] items[0].porcentajeIgv 10 '))).to.have.length(1);
    expect(observed(true)).to.deep.equal([]);
  });
});
