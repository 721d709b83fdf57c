/**
 * Catalog 54 codes 038, 042, 043, 046 and 047 (detraction-codes-2026, reported from 2026-09-01: sunat/rules/
 * revisions.csv row 21, Factura2_0 row 492 for 3033): accepted on documents issued from the date, refused with 3033
 * before it, as chasqui refused them all before issue 33. Their rates are not known: the document states one.
 */
import { expect } from 'chai';
import { prepareDocument } from '../../documents';
import { DEFAULT_CALENDAR, parseRuleDates, RuleCalendar } from '../../documents/calendar';
import { datedRuleFailures } from '../../validator/dated-rules';
import { errors, fixture } from '../support/documents';

/** invoice-detraccion (operation 1001) with another catalog 54 code, on a date; null: no porcentaje. */
function invoice(codigo: string, fechaEmision: string, porcentaje: number | null = 12): Record<string, any> {
  const doc = fixture('invoice-detraccion.json');
  return {
    ...doc,
    fechaEmision,
    items: doc.items.map((it: object) => ({ ...it, codigoSunat: '43211503' })),
    detraccion: { ...doc.detraccion, codigo, ...(porcentaje === null ? {} : { porcentaje }) },
  };
}

describe('catalog 54 codes of 2026 (detraction-codes-2026, 3033)', () => {
  it('accepts each from 2026-09-01 with the rate the document states, and writes it', () => {
    for (const code of ['038', '042', '043', '046', '047']) {
      expect(errors(invoice(code, '2026-09-01')), code).to.deep.equal([]);
    }
    const xml = prepareDocument(invoice('042', '2026-11-20', 12)).xml;
    expect(xml).to.match(/<cbc:PaymentMeansID[^>]*>042<\/cbc:PaymentMeansID>/);
    expect(xml).to.match(/<cbc:PaymentPercent>12(\.00)?<\/cbc:PaymentPercent>/);
  });

  it('refuses them the day before, and moves with CHASQUI_RULE_DATES', () => {
    expect(errors(invoice('038', '2026-08-31'))).to.deep.equal([
      '[SUNAT 3033] detraccion.codigo 038 is in catalog 54 for documents issued from 2026-09-01; this one is dated 2026-08-31 @detraccion.codigo',
    ]);
    const calendar = new RuleCalendar(parseRuleDates('detraction-codes-2026=2026-10-01'));
    expect(errors(invoice('038', '2026-09-30'), { calendar })[0]).to.match(/^\[SUNAT 3033\] detraccion.codigo 038/);
    expect(errors(invoice('038', '2026-10-01'), { calendar })).to.deep.equal([]);
  });

  it('needs the rate of a code whose rate chasqui does not know; a known code still takes the catalog rate', () => {
    expect(errors(invoice('046', '2026-11-20', null))).to.deep.equal([
      "[chasqui BR_DETRACTION_RATE] 'detraccion.porcentaje' is required for a catalog 54 code of 2026: chasqui does not know its rate @detraccion.porcentaje",
    ]);
    expect(errors(invoice('037', '2026-11-20', null))).to.deep.equal([]);
    expect(errors(invoice('044', '2026-11-20'))[0]).to.match(/^\[SUNAT 3033\] 'detraccion.codigo' must be a good/);
  });

  it('the simulator and `chasqui validate` judge the same on the issue date', () => {
    const xml = prepareDocument(invoice('043', '2026-09-01')).xml;
    const judged = (at: string) => datedRuleFailures(xml, DEFAULT_CALENDAR, { at }).map((f) => `${f.rule}:${f.code}`);
    expect(judged('2026-08-31')).to.deep.equal(['detraction-codes-2026:3033']);
    expect(judged('2026-09-01')).to.deep.equal([]);
    const known = prepareDocument(invoice('037', '2026-09-01')).xml;
    expect(datedRuleFailures(known, DEFAULT_CALENDAR, { at: '2026-08-31' })).to.deep.equal([]);
  });
});
