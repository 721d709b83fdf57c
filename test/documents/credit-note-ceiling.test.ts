/**
 * A credit note's total against the document it modifies, as NotaCredito2_0 judges it today: row 85, ERROR 3286 on a
 * factura, row 86, OBSERV 4028 on a boleta, both for every reason but 10 and "no aplica para OSE"; from
 * credit-note-ceiling (reported) 3286 and 3503 refuse (sunat/rules/revisions.csv rows 13 and 14, also "diferente de
 * '10'"). chasqui compared nothing before the rule and compared reason 10 too from it.
 */
import { expect } from 'chai';
import { prepareDocument, type PrepareOptions } from '../../documents';
import { parseRuleDates, RuleCalendar } from '../../documents/calendar';
import { sheetRow } from '../../validator/sheets';
import { errors } from '../support/documents';
import { dated } from './dated-fixtures';

// credit-note-01 (reason 01) modifies F001-1 for 2 360.00.
const note = (date: string, reason = '01', ref = 'F001-1') => {
  const doc = dated('credit-note-01.json', date, {
    documentoAfectado: { tipoDoc: ref[0] === 'F' ? '01' : '03', serieNumero: ref },
  });
  const onBoleta =
    ref[0] === 'B' ? { serie: 'BC01', cliente: { tipoDoc: '1', numDoc: '45678912', nombre: 'Ana' } } : {};
  return { ...doc, ...onBoleta, motivo: { ...doc.motivo, codigo: reason } };
};
const held = (payable: string, serieNumero = 'F001-1') => ({
  referenced: { serieNumero, totals: { PayableAmount: payable } },
});
const ceilingWarnings = (payload: unknown, options: PrepareOptions) =>
  prepareDocument(payload, options).warnings.filter((w) => /^\[SUNAT (3286|4028)\]/.test(w));

describe("a credit note's total against the document it modifies (NotaCredito2_0 rows 85 and 86)", () => {
  it('reads the rows it applies: every reason but 10, and not at an OSE', () => {
    for (const row of [85, 86]) {
      expect(sheetRow('NotaCredito2_0', row)!.condition).to.contain("es diferente de '10'");
      expect(sheetRow('NotaCredito2_0', row)!.condition).to.contain('no aplica para OSE');
    }
    expect(sheetRow('NotaCredito2_0', 85)).to.deep.include({ codes: ['3286'], severity: 'ERROR' });
    expect(sheetRow('NotaCredito2_0', 86)).to.deep.include({ codes: ['4028'], severity: 'OBSERV' });
  });

  it('before credit-note-ceiling warns a note above its factura (3286) or boleta (4028), and builds it', () => {
    expect(ceilingWarnings(note('2026-12-31'), held('1000.00'))).to.deep.equal([
      "[SUNAT 3286] the credit note's total (2360.00) exceeds that of F001-1 it modifies (1000.00): SUNAT refuses it (an OSE does not apply the rule); chasqui refuses it on credit notes issued from 2027-01-01",
    ]);
    expect(ceilingWarnings(note('2026-12-31', '01', 'B001-1'), held('100.00', 'B001-1'))).to.deep.equal([
      "[SUNAT 4028] the credit note's total (2360.00) exceeds that of B001-1 it modifies (100.00): SUNAT observes it; chasqui refuses it on credit notes issued from 2027-01-01",
    ]);
    expect(ceilingWarnings(note('2026-12-31'), held('2360.00'))).to.deep.equal([]);
  });

  it('never compares a note of reason 10, before or from the date', () => {
    for (const date of ['2026-12-31', '2027-01-01']) {
      expect(errors(note(date, '10'), held('1.00')), date).to.deep.equal([]);
      expect(ceilingWarnings(note(date, '10'), held('1.00')), date).to.deep.equal([]);
    }
    expect(errors(note('2027-01-01', '07'), held('1.00'))[0]).to.match(/^\[SUNAT 3286\]/);
  });

  it('switched off, the warning stays (the rows are in force) without announcing a refusal', () => {
    const calendar = new RuleCalendar(parseRuleDates('credit-note-ceiling=off'));
    expect(errors(note('2027-06-01'), { calendar, ...held('1000.00') })).to.deep.equal([]);
    expect(ceilingWarnings(note('2027-06-01'), { calendar, ...held('1000.00') })).to.deep.equal([
      "[SUNAT 3286] the credit note's total (2360.00) exceeds that of F001-1 it modifies (1000.00): SUNAT refuses it (an OSE does not apply the rule)",
    ]);
  });
});
