/**
 * SUNAT's dated rules of sales documents and daily summaries (issue 24): each on both sides of its date (the day
 * before, the day itself), by default and moved, the warning window, and the issue date (not the day of sending)
 * deciding which rule judges a document.
 */
import { expect } from 'chai';
import { prepareDocument, type PrepareOptions } from '../../documents';
import { DEFAULT_CALENDAR, parseIgvRates, parseRuleDates, RuleCalendar } from '../../documents/calendar';
import { Decimal } from '../../documents/decimal';
import { readPrinted } from '../../documents/printed';
import { errors, fixture } from '../support/documents';
import { atRate, dated, withCodes } from './dated-fixtures';

describe('dated rules of sales documents', () => {
  // SUNAT Validacionesv20260212, Factura2_0 field 28 (NotaCredito2_0/NotaDebito2_0 field 26): every row starts "Si el
  // tag existe"; rows 119, 120 (4332: not 8 digits; not 00000000, 99999999 nor listed) and 122 (4337: a segment or
  // family) are observations until the rule's date and errors 3496 from it (revisions rows 6, 7: "ERR-3496, reemplaza
  // OBS-4332/OBS-4337"); row 121 observing the reserved values stays an observation.
  describe('product-code-valid (3496, 4332, 4337)', () => {
    const withCode = (doc: Record<string, any>, codigoSunat: string) => ({
      ...doc,
      items: doc.items.map((it: object, i: number) => (i === 0 ? { ...it, codigoSunat } : it)),
    });
    const built = (payload: unknown, options: PrepareOptions = {}) => prepareDocument(payload, options);

    it('takes lines without codigoSunat on both sides of the date, with no warning', () => {
      for (const date of ['2026-12-31', '2027-01-01', '2028-06-30']) {
        const doc = built(dated('invoice-decimals.json', date), { ruleWarnDays: 60 });
        expect(
          doc.warnings.filter((w) => /3496|4332|4331/.test(w)),
          date,
        ).to.deep.equal([]);
        expect(doc.xml).to.not.include('CommodityClassification');
      }
      const moved = new RuleCalendar(parseRuleDates('product-code-valid=2026-01-01'));
      expect(errors(dated('invoice-decimals.json', '2026-06-01'), { calendar: moved })).to.deep.equal([]);
    });

    it('observes an invalid code (4332) the day before the date and refuses it (3496) the day itself', () => {
      for (const code of ['12345678', '1234567', 'ABCDEFGH']) {
        const before = built(withCode(dated('invoice-decimals.json', '2026-12-31'), code));
        expect(
          before.warnings.filter((w) => w.startsWith('[SUNAT 4332] items[0].codigoSunat')),
          code,
        ).to.have.length(1);
        expect(before.warnings.find((w) => w.includes('4332'))).to.include(
          'refuses it (3496) on documents issued from 2027-01-01',
        );
        const refused = errors(withCode(dated('invoice-decimals.json', '2027-01-01'), code));
        expect(refused, code).to.have.length(1);
        expect(refused[0]).to.match(
          /^\[SUNAT 3496\] .*SUNAT's product code is not valid on documents issued from 2027-01-01.* @items\[0\]\.codigoSunat$/,
        );
      }
      expect(errors(withCode(dated('invoice-decimals.json', '2027-01-01'), '1234567'))[0]).to.include(
        "'1234567' is not a number of 8 digits",
      );
      expect(errors(withCode(dated('invoice-decimals.json', '2027-01-01'), '12345678'))[0]).to.include(
        '12345678 is not in catalog 25',
      );
    });

    it('accepts a listed code, 00000000 and 99999999 from the date (the reserved values only observed by 4332)', () => {
      const ok = built(withCode(dated('invoice-decimals.json', '2027-01-01'), '43211503'));
      expect(ok.warnings.filter((w) => /SUNAT (3496|4332|4337)/.test(w))).to.deep.equal([]);
      expect(ok.xml).to.include('listID="UNSPSC" listName="Item Classification">43211503</cbc:ItemClassificationCode>');
      for (const reserved of ['00000000', '99999999']) {
        const doc = built(withCode(dated('invoice-decimals.json', '2027-01-01'), reserved));
        expect(
          doc.warnings.some((w) => w.startsWith('[SUNAT 4332]') && w.includes(reserved)),
          reserved,
        ).to.equal(true);
        expect(doc.xml).to.include(`>${reserved}</cbc:ItemClassificationCode>`);
      }
    });

    it('observes a segment or family (4337) before the date and refuses it (3496) from it: SUNAT asks for the class', () => {
      // 43210000 is a family, 10000000 a segment SUNAT's catalog lists; 43211500 is a class, 43211503 a commodity.
      for (const code of ['43210000', '10000000']) {
        const before = built(withCode(dated('invoice-decimals.json', '2026-12-31'), code));
        expect(
          before.warnings.filter((w) => w.startsWith('[SUNAT 4337] items[0].codigoSunat')),
          code,
        ).to.have.length(1);
        expect(before.warnings.find((w) => w.startsWith('[SUNAT 4337]'))).to.include(
          'refuses it (3496) on documents issued from 2027-01-01',
        );
        const refused = errors(withCode(dated('invoice-decimals.json', '2027-01-01'), code));
        expect(refused, code).to.deep.equal([
          `[SUNAT 3496] ${code} names a UNSPSC segment or family (it ends in ${code === '10000000' ? 6 : 4} zeros); SUNAT asks for a class or a commodity: SUNAT's product code is not valid on documents issued from 2027-01-01; send a valid one (catalog 25, class level or below, 00000000 or 99999999) or leave it out @items[0].codigoSunat`,
        ]);
      }
      // One refusal a line, though the code is neither listed nor at class level.
      expect(errors(withCode(dated('invoice-decimals.json', '2027-01-01'), '12340000'))).to.have.length(1);
      expect(errors(withCode(dated('invoice-decimals.json', '2027-01-01'), '43211500'))).to.deep.equal([]);
      // The reserved 00000000 ends in 6 zeros: observed by rows 121 and 122, never refused.
      const none = built(withCode(dated('invoice-decimals.json', '2027-01-01'), '00000000'));
      expect(none.warnings.map((w) => w.slice(0, 12)).sort()).to.deep.equal(['[SUNAT 4332]', '[SUNAT 4337]']);
      const purchase = built(withCode(dated('liquidacion-compra.json', '2027-01-01'), '43210000'));
      expect(purchase.warnings.filter((w) => w.startsWith('[SUNAT 4337]'))).to.have.length(1);
    });

    it('judges receipts and notes too; a liquidación de compra only by observations (its sheet has no 3496 rows)', () => {
      for (const name of ['receipt-usd.json', 'credit-note-01.json', 'debit-note-01.json']) {
        expect(errors(withCode(dated(name, '2027-01-01'), '12345678'))[0], name).to.match(/^\[SUNAT 3496\]/);
        expect(
          errors(dated(name, '2027-01-01')).filter((e) => e.includes('3496')),
          name,
        ).to.deep.equal([]);
      }
      const purchase = built(withCode(dated('liquidacion-compra.json', '2027-01-01'), '12345678'));
      expect(purchase.warnings.some((w) => w.startsWith('[SUNAT 4332] items[0].codigoSunat'))).to.equal(true);
    });

    it('moves with the calendar, and a reported rule switched off observes only', () => {
      const calendar = new RuleCalendar(parseRuleDates('product-code-valid=2026-03-01'));
      const invalid = (date: string) => withCode(dated('invoice-decimals.json', date), '12345678');
      expect(errors(invalid('2026-02-28'), { calendar })).to.deep.equal([]);
      expect(errors(invalid('2026-03-01'), { calendar })[0]).to.match(/^\[SUNAT 3496\] .* issued from 2026-03-01/);
      const later = new RuleCalendar(parseRuleDates('product-code-valid=2027-07-01'));
      expect(errors(invalid('2027-01-01'), { calendar: later })).to.deep.equal([]);
      const off = new RuleCalendar(parseRuleDates('product-code-valid=off'));
      expect(errors(invalid('2027-06-01'), { calendar: off })).to.deep.equal([]);
      expect(built(invalid('2027-06-01'), { calendar: off }).warnings.find((w) => w.includes('4332'))).to.not.include(
        'refuses',
      );
    });

    it('judges a document by its issue date, not by the day it is sent', () => {
      const invalid = (date: string) => withCode(dated('invoice-decimals.json', date), '12345678');
      expect(errors(invalid('2026-12-31'), { today: '2027-01-03' })).to.deep.equal([]);
      expect(errors(invalid('2027-01-01'), { today: '2027-01-03' })[0]).to.match(/^\[SUNAT 3496\]/);
    });

    it('observes (4331) a line with neither code nor GTIN from a company obliged to send the code (ind_padron 12)', () => {
      const obliged = { registers: { igvSpecialRate: false, productCode: true } };
      const doc = built(dated('invoice-decimals.json', '2026-12-01'), obliged);
      const lines = fixture('invoice-decimals.json').items.length;
      expect(doc.warnings.filter((w) => w.startsWith('[SUNAT 4331]'))).to.have.length(lines);
      expect(doc.warnings.find((w) => w.startsWith('[SUNAT 4331]'))).to.include('items[0].codigoSunat');
      const coded = withCodes(dated('invoice-decimals.json', '2026-12-01'));
      expect(built(coded, obliged).warnings.filter((w) => w.includes('4331'))).to.deep.equal([]);
      const gtin = {
        ...dated('invoice-decimals.json', '2026-12-01'),
        items: fixture('invoice-decimals.json').items.map((it: object) => ({ ...it, gtin: '4006381333931' })),
      };
      expect(built(gtin, obliged).warnings.filter((w) => w.includes('4331'))).to.deep.equal([]);
      // Only the factura's sheet (and the boleta's) has the 4331 row: not the notes', nor the liquidación's.
      for (const name of ['credit-note-01.json', 'debit-note-01.json', 'liquidacion-compra.json'])
        expect(
          built(dated(name, '2026-12-01'), obliged).warnings.filter((w) => w.includes('4331')),
          name,
        ).to.deep.equal([]);
      expect(built(dated('receipt-usd.json', '2026-12-01'), obliged).warnings[0]).to.match(/^\[SUNAT 4331\]/);
      // A company not on that register, or one whose registers are not known: nothing.
      expect(
        built(dated('invoice-decimals.json', '2026-12-01'), {
          registers: { igvSpecialRate: false, productCode: false },
        }).warnings.filter((w) => w.includes('4331')),
      ).to.deep.equal([]);
    });
  });

  describe('operation 0112 (3181)', () => {
    const deductible = (codigoSunat?: string) => {
      const doc = dated('invoice-decimals.json', '2026-11-20', { tipoOperacion: '0112' });
      return {
        ...doc,
        items: doc.items.map((it: object, i: number) => (i === 0 && codigoSunat ? { ...it, codigoSunat } : it)),
      };
    };
    it('needs a line with product code 84121901 or 80131501 (Factura2_0 field 28, ERROR)', () => {
      expect(errors(deductible()).filter((e) => e.includes('3181'))).to.deep.equal([
        '[SUNAT 3181] operation 0112 (deductible expenses of a natural person) needs a line with codigoSunat 84121901 or 80131501 @items',
      ]);
      expect(errors(deductible('43211503')).filter((e) => e.includes('3181'))).to.have.length(1);
      expect(errors(deductible('84121901')).filter((e) => e.includes('3181'))).to.deep.equal([]);
      expect(errors(deductible('80131501')).filter((e) => e.includes('3181'))).to.deep.equal([]);
    });
  });

  describe('GTIN (Factura2_0 field 29)', () => {
    const withGtin = (gtin: string) => {
      const doc = dated('invoice-decimals.json', '2026-11-20');
      return { ...doc, items: doc.items.map((it: object, i: number) => (i === 0 ? { ...it, gtin } : it)) };
    };
    it('writes cac:StandardItemIdentification with the structure by length, and refuses a bad check digit', () => {
      for (const [gtin, scheme] of [
        ['96385074', 'GTIN-8'],
        ['036000291452', 'GTIN-12'],
        ['4006381333931', 'GTIN-13'],
        ['10012345678902', 'GTIN-14'],
      ]) {
        expect(prepareDocument(withGtin(gtin)).xml, gtin).to.include(
          `<cac:StandardItemIdentification><cbc:ID schemeID="${scheme}">${gtin}</cbc:ID></cac:StandardItemIdentification>`,
        );
      }
      // The printed document shows the GTIN where the line has no seller's code.
      const { codigo, ...uncoded } = fixture('invoice-decimals.json').items[0];
      const printed = readPrinted(
        prepareDocument({ ...withGtin('4006381333931'), items: [{ ...uncoded, gtin: '4006381333931' }] }).xml,
        { format: 'a4' },
      );
      expect(printed.table.rows[0][2]).to.equal('4006381333931');
      expect(codigo, 'the fixture line has its own code').to.be.a('string');
      for (const bad of ['4006381333932', '400638133393', '12345', 'ABCDEFGHIJKLM'])
        expect(errors(withGtin(bad)), bad).to.deep.equal([
          "[SUNAT 4334] 'items[0].gtin' must be a GTIN-8, GTIN-12, GTIN-13 or GTIN-14: that many digits, the last the GS1 check digit @items[0].gtin",
        ]);
    });
  });

  // Factura2_0 fields 46/47: "la tasa vigente al IGV (18.00 o 10.50) a la fecha de emisión"; OBSERV 4439 for 10.5 from
  // an issuer off the register (ind_padron 01). The 2027 step (15) is reported; the rate ends in 2028.
  describe('the special IGV rate of MYPE restaurants and hotels (3103, 4439)', () => {
    const special = (date: string, rate: number, calendar: RuleCalendar = DEFAULT_CALENDAR) =>
      errors(atRate(withCodes(dated('invoice-igv-10-reduced-rate.json', date)), rate), { calendar }).filter((e) =>
        e.includes('3103'),
      );

    it('10 until 2025-12-31, 10.5 from 2026-01-01, 15 from 2027-01-01, none from 2028-01-01', () => {
      expect(special('2025-12-31', 10)).to.deep.equal([]);
      expect(special('2025-12-31', 10.5)[0]).to.include('that date allows 18, or 10 (the special rate');
      expect(special('2026-01-01', 10.5)).to.deep.equal([]);
      expect(special('2026-01-01', 10)[0]).to.equal(
        '[SUNAT 3103] porcentajeIgv 10 is not an IGV rate of a document issued on 2026-01-01: that date allows 18, or 10.5 (the special rate of MYPE restaurants and hotels) @items[0].porcentajeIgv',
      );
      expect(special('2026-12-31', 10.5)).to.deep.equal([]);
      expect(special('2026-12-31', 15)[0]).to.include('that date allows 18, or 10.5');
      expect(special('2027-01-01', 15)).to.deep.equal([]);
      expect(special('2027-01-01', 10.5)[0]).to.include('that date allows 18, or 15 (the special rate');
      expect(special('2027-01-01', 14)).to.not.deep.equal([]);
      expect(special('2027-12-31', 15)).to.deep.equal([]);
      expect(special('2028-01-01', 15)[0]).to.include(
        'that date allows 18 (the special rate of MYPE restaurants and hotels has ended)',
      );
      expect(special('2028-01-01', 18)).to.deep.equal([]);
    });

    it('moves with the calendar, takes its values from CHASQUI_IGV_RATES, and stays at 10.5 when 2027 is off', () => {
      const moved = new RuleCalendar(parseRuleDates('mype-rate-2027=2026-06-01'));
      expect(special('2026-05-31', 10.5, moved)).to.deep.equal([]);
      expect(special('2026-06-01', 15, moved)).to.deep.equal([]);
      expect(special('2026-06-01', 10.5, moved)).to.have.length(2);
      const valued = new RuleCalendar({}, parseIgvRates('mype-rate-2027=14'));
      expect(special('2027-01-01', 14, valued)).to.deep.equal([]);
      expect(special('2027-01-01', 15, valued)).to.have.length(2);
      const off = new RuleCalendar(parseRuleDates('mype-rate-2027=off'));
      expect(special('2027-06-01', 10.5, off)).to.deep.equal([]);
      expect(special('2028-01-01', 10.5, off)).to.have.length(2);
    });

    it('taxes at 10.5 % today and writes 10.50; the printed document says IGV 10.5 %', () => {
      const doc = prepareDocument(atRate(dated('invoice-igv-10-reduced-rate.json', '2026-11-27'), 10.5));
      expect(doc.xml).to.include('<cbc:Percent>10.50</cbc:Percent>');
      expect(doc.xml).to.not.include('<cbc:Percent>10.00</cbc:Percent>');
      // Each line's IGV at 10.5 %, rounded to the cent, summed.
      const igv = fixture('invoice-igv-10-reduced-rate.json').items.reduce(
        (sum: Decimal, it: { cantidad: number; valorUnitario: number }) =>
          sum.plus(new Decimal(it.cantidad).times(it.valorUnitario).times('0.105').toDecimalPlaces(2)),
        new Decimal(0),
      );
      expect(doc.totals!['TaxAmount.1000']).to.equal(igv.toFixed(2));
      const printed = readPrinted(doc.xml, { format: 'a4' });
      expect(printed.amounts.map((a) => a.label)).to.include('IGV 10.5 %');
    });

    it("observes (4439) the special rate from a company that has not declared SUNAT's register; not at 18", () => {
      const at = (rate: number, igvSpecialRate: boolean) =>
        prepareDocument(atRate(dated('invoice-igv-10-reduced-rate.json', '2026-11-27'), rate), {
          registers: { igvSpecialRate, productCode: false },
        }).warnings.filter((w) => w.includes('4439'));
      expect(at(10.5, false)).to.deep.equal([
        "[SUNAT 4439] items[0].porcentajeIgv 10.5 is the special rate of MYPE restaurants and hotels on SUNAT's register (padrón, ind_padron 01); the company has not declared it is on it (PATCH /v1/companies/{ruc}/registers): SUNAT observes the document",
      ]);
      expect(at(10.5, true)).to.deep.equal([]);
      expect(at(18, false)).to.deep.equal([]);
    });

    it('warns within the window at the special rate that the next step follows', () => {
      const warned = prepareDocument(withCodes(atRate(dated('invoice-igv-10-reduced-rate.json', '2026-12-15'), 10.5)), {
        ruleWarnDays: 60,
      }).warnings;
      expect(warned).to.deep.equal([
        '[SUNAT 3103] porcentajeIgv 10.5 is the special rate until 2026-12-31; documents issued from 2027-01-01 use 18, or 15 (the special rate of MYPE restaurants and hotels)',
      ]);
    });

    it('the 2027 fixture taxes at 15 % and writes that rate', () => {
      const doc = prepareDocument(fixture('invoice-2027-mype-rate-15.json'));
      expect(doc.xml).to.include('<cbc:Percent>15.00</cbc:Percent>');
    });
  });

  describe('debit-note-13 (2172, 3507)', () => {
    const note = (date: string, affectation = '30') => {
      const doc = fixture('debit-note-13.json');
      return {
        ...doc,
        fechaEmision: date,
        items: doc.items.map((it: object) => ({ ...it, afectacionIgv: affectation })),
      };
    };

    it('refuses reason 13 the day before its date and takes it on unaffected lines the day itself', () => {
      expect(errors(note('2026-12-31'))).to.deep.equal([
        '[SUNAT 2172] debit note reason 13 (catalog 10) is accepted on debit notes issued from 2027-01-01; this one is dated 2026-12-31 @motivo.codigo',
      ]);
      expect(errors(note('2027-01-01'))).to.deep.equal([]);
      expect(prepareDocument(note('2027-01-01')).xml).to.match(/<cbc:ResponseCode[^>]*>13<\/cbc:ResponseCode>/);
    });

    it('takes only unaffected operations (3507)', () => {
      expect(errors(note('2027-01-01', '10'))).to.deep.equal([
        '[SUNAT 3507] a debit note of reason 13 covers unaffected (inafecta) operations only: afectacionIgv 30–37, not 10 @items[0].afectacionIgv',
      ]);
    });

    it('moves with the calendar', () => {
      const calendar = new RuleCalendar(parseRuleDates('debit-note-13=2026-10-01'));
      expect(errors(note('2026-09-30'), { calendar })[0]).to.match(/^\[SUNAT 2172\]/);
      expect(errors(note('2026-10-01'), { calendar })).to.deep.equal([]);
    });
  });

  describe('credit-note-ceiling (3286, 3503, 3261)', () => {
    // credit-note-01 modifies F001-1 for 2 360.00.
    const note = (date: string, ref = 'F001-1') =>
      withCodes(
        dated('credit-note-01.json', date, {
          documentoAfectado: { tipoDoc: ref[0] === 'F' ? '01' : '03', serieNumero: ref },
        }),
      );
    const held = (payable: string, serieNumero = 'F001-1') => ({ serieNumero, totals: { PayableAmount: payable } });

    it('caps a note by the held document from its date, not the day before', () => {
      expect(errors(note('2026-12-31'), { referenced: held('1000.00') })).to.deep.equal([]);
      expect(errors(note('2027-01-01'), { referenced: held('1000.00') })).to.deep.equal([
        "[SUNAT 3286] the credit note's total (2360.00) exceeds that of F001-1 it modifies (1000.00) @documentoAfectado",
      ]);
      expect(errors(note('2027-01-01'), { referenced: held('2360.00') })).to.deep.equal([]);
      // A document chasqui does not hold is not compared: SUNAT judges it.
      expect(errors(note('2027-01-01'), { referenced: null })).to.deep.equal([]);
    });

    it('answers 3503 for a note on a boleta', () => {
      const boletaNote = {
        ...note('2027-01-01', 'B001-1'),
        serie: 'BC01',
        cliente: { tipoDoc: '1', numDoc: '45678912', nombre: 'María Quispe' },
      };
      expect(errors(boletaNote, { referenced: held('100.00', 'B001-1') })).to.deep.equal([
        "[SUNAT 3503] the credit note's total (2360.00) exceeds that of B001-1 it modifies (100.00) @documentoAfectado",
      ]);
    });

    it('moves with the calendar', () => {
      const calendar = new RuleCalendar(parseRuleDates('credit-note-ceiling=2026-09-01'));
      expect(errors(note('2026-08-31'), { calendar, referenced: held('1.00') })).to.deep.equal([]);
      expect(errors(note('2026-09-01'), { calendar, referenced: held('1.00') })[0]).to.match(/^\[SUNAT 3286\]/);
    });

    it('takes one modified document per note (3261)', () => {
      const two = {
        ...note('2027-01-01'),
        documentoAfectado: [
          { tipoDoc: '01', serieNumero: 'F001-1' },
          { tipoDoc: '01', serieNumero: 'F001-2' },
        ],
      };
      expect(errors(two)[0]).to.match(
        /^\[SUNAT 3261\] 'documentoAfectado' is one document \{tipoDoc, serieNumero\}: a note modifies one document only/,
      );
    });
  });
});
