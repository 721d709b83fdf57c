/**
 * A guide received long after its issue date: SUNAT answers 2108 (an integrator's log shows it for a guide sent four
 * days late; the 2018 GuiaRemitente XSL names the rule, "mayor al límite del listado", without the limit). No sheet
 * or XSL found states a guide's window, so chasqui warns past the sales documents' window and never refuses.
 */
import { expect } from 'chai';
import { prepareDocument } from '../../documents';
import { addDays } from '../../documents/calendar';
import { errors, fixture } from '../support/documents';

const today = '2026-11-30';
const guide = (age: number) => {
  const doc = fixture('gre-09-venta-privado.json');
  const fechaEmision = addDays(today, -age);
  return { ...doc, fechaEmision, envio: { ...doc.envio, fechaInicio: fechaEmision } };
};
const late = (age: number, sendingWindowDays = 3) =>
  prepareDocument(guide(age), { today, sendingWindowDays }).warnings.filter((w) => w.startsWith('[SUNAT 2108]'));

describe('a guide past the sending window: a 2108 warning, never a refusal', () => {
  it('warns a guide four days old, as the log SUNAT refused, and builds it', () => {
    expect(late(4)).to.deep.equal([
      `[SUNAT 2108] fechaEmision 2026-11-26 is 4 days before today (${today}): SUNAT may refuse a guide received that long after its issue date (2108, "Presentacion fuera de fecha"); issue it with today's date`,
    ]);
    expect(errors(guide(10), { today, sendingWindowDays: 3 })).to.deep.equal([]);
  });

  it('says nothing within the window, with the window off, or without today', () => {
    expect(late(3)).to.deep.equal([]);
    expect(late(0)).to.deep.equal([]);
    expect(late(10, 0)).to.deep.equal([]);
    expect(prepareDocument(guide(10)).warnings.filter((w) => w.includes('2108'))).to.deep.equal([]);
  });
});
