import { expect } from 'chai';
import { dec, money, type Decimal } from '../../documents/decimal';
import type { Adjustment, IgvAffectation, SaleItem } from '../../documents/sales/types';
import { icbperRate } from '../../documents/tax/rates';
import * as calendarIcbper from '../../documents/calendar/icbper';
import { computeTotals, type DocumentTotals } from '../../documents/tax/totals';

function line(
  qty: number | string,
  value: number | string,
  extra: Partial<Omit<SaleItem, 'cantidad' | 'valorUnitario'>> = {},
): SaleItem {
  return {
    descripcion: 'item',
    unidad: 'NIU',
    afectacionIgv: '10' as IgvAffectation,
    icbper: false,
    ...extra,
    cantidad: dec(qty),
    valorUnitario: dec(value),
  };
}

const adj = (codigo: string, monto: number | string): Adjustment => ({ codigo, monto: dec(monto) });

function totals(
  items: SaleItem[],
  extra: {
    descuentos?: Adjustment[];
    cargos?: Adjustment[];
    anticipos?: { monto: Decimal; baseImponible?: Decimal }[];
    fechaEmision?: string;
  } = {},
): DocumentTotals {
  return computeTotals({
    items,
    descuentos: extra.descuentos,
    cargos: extra.cargos,
    anticipos: extra.anticipos?.map((a) => ({ tipoDoc: '02' as const, serieNumero: 'F001-1', ...a })),
    fechaEmision: extra.fechaEmision ?? '2024-03-15',
  });
}

/** The amounts a test cares about, as two-decimal strings. */
function summary(t: DocumentTotals) {
  return {
    valorVenta: money(t.valorVenta),
    igv: money(t.igv),
    totalImpuestos: money(t.totalImpuestos),
    precioVenta: money(t.precioVenta),
    importeTotal: money(t.importeTotal),
  };
}

describe('SUNAT arithmetic (tax/totals)', () => {
  it('rounds half-up, never half-even, and never through binary floats', () => {
    // 0.125 → 0.13 (half-even would give 0.12); 0.1 + 0.2 stays 0.30 exactly.
    const t = totals([
      line(1, '0.125', { afectacionIgv: '20' }),
      line(1, 0.1, { afectacionIgv: '20' }),
      line(1, 0.2, { afectacionIgv: '20' }),
    ]);
    expect(t.lines.map((l) => money(l.lineExtension))).to.deep.equal(['0.13', '0.10', '0.20']);
    expect(money(t.importeTotal)).to.equal('0.43');
    // IGV of a 0.25 line: 0.045 → 0.05.
    expect(money(totals([line(1, 0.25)]).igv)).to.equal('0.05');
  });

  it('rounds each line to 2 decimals before summing, with unit values of up to 10 decimals', () => {
    const t = totals([line(3, '33.333333'), line('1234.5', '0.0847457627')]);
    expect(t.lines.map((l) => money(l.lineExtension))).to.deep.equal(['100.00', '104.62']);
    expect(t.lines.map((l) => money(l.igv))).to.deep.equal(['18.00', '18.83']);
    expect(summary(t)).to.deep.equal({
      valorVenta: '204.62',
      igv: '36.83',
      totalImpuestos: '36.83',
      precioVenta: '241.45',
      importeTotal: '241.45',
    });
  });

  it('computes ISC first and taxes it with IGV (golden isc_sistemaAlValor)', () => {
    const t = totals([line(2, 100, { isc: { sistema: '01', tasa: dec(17) } }), line(2, 100)]);
    const [withIsc] = t.lines;
    expect([money(withIsc.isc), money(withIsc.igvBase), money(withIsc.igv), money(withIsc.taxAmount)]).to.deep.equal([
      '34.00',
      '234.00',
      '42.12',
      '76.12',
    ]);
    expect(withIsc.referencePrice.toFixed(2)).to.equal('138.06');
    expect(summary(t)).to.deep.equal({
      valorVenta: '400.00',
      igv: '78.12',
      totalImpuestos: '112.12',
      precioVenta: '512.12',
      importeTotal: '512.12',
    });
    expect(t.subtotals.map((s) => [s.scheme, money(s.taxable), money(s.amount)])).to.deep.equal([
      ['2000', '200.00', '34.00'],
      ['1000', '400.00', '78.12'],
    ]);
  });

  it('applies ISC system 03 to the suggested retail price, not to the line value', () => {
    const [l] = totals([line(2, 80, { isc: { sistema: '03', tasa: dec(10), precioSugerido: dec(100) } })]).lines;
    expect([money(l.iscBase), money(l.isc), money(l.igv)]).to.deep.equal(['200.00', '20.00', '32.40']);
  });

  it('keeps free transfers out of the payable total but reports their IGV under 9996', () => {
    const t = totals([line(1, 100), line(2, 50, { afectacionIgv: '11' }), line(1, 30, { afectacionIgv: '31' })]);
    expect(summary(t)).to.deep.equal({
      valorVenta: '100.00',
      igv: '18.00',
      totalImpuestos: '18.00',
      precioVenta: '118.00',
      importeTotal: '118.00',
    });
    expect(money(t.gratuitas)).to.equal('130.00');
    expect(money(t.igvGratuitas)).to.equal('18.00');
    const [, bonus, sample] = t.lines;
    expect([money(bonus.taxAmount), money(bonus.priceAmount), bonus.referencePrice.toString()]).to.deep.equal([
      '0.00',
      '0.00',
      '50',
    ]);
    expect(money(sample.igv)).to.equal('0.00');
    const free = t.subtotals.find((s) => s.scheme === '9996')!;
    expect([money(free.taxable), money(free.amount)]).to.deep.equal(['130.00', '18.00']);
  });

  it('uses 10 % for the reduced MYPE rate and 4 % for IVAP', () => {
    expect(money(totals([line(3, '25.50', { porcentajeIgv: 10 })]).igv)).to.equal('7.65');
    const ivap = totals([line(1, '113.46', { afectacionIgv: '17' })]);
    expect([money(ivap.igvIvap), money(ivap.importeTotal)]).to.deep.equal(['4.54', '118.00']);
    expect(ivap.subtotals.map((s) => s.scheme)).to.deep.equal(['1016']);
  });

  it('charges ICBPER per bag at the rate of the issue year, outside the IGV base', () => {
    expect(
      ['2018-12-31', '2019-08-01', '2020-01-01', '2021-06-30', '2022-02-02', '2023-01-01', '2030-01-01'].map((d) =>
        icbperRate(d).toFixed(2),
      ),
    ).to.deep.equal(['0.10', '0.10', '0.20', '0.30', '0.40', '0.50', '0.50']);
    // A dated value: the calendar's table, the one the totals read (issue 35).
    expect(icbperRate).to.equal(calendarIcbper.icbperRate);
    const t = totals([line(1, 50), line(3, '0.10', { icbper: true })], { fechaEmision: '2024-01-10' });
    const bags = t.lines[1];
    expect([money(bags.icbper), money(bags.igv), money(bags.taxAmount)]).to.deep.equal(['1.50', '0.05', '1.55']);
    // The unit price with taxes leaves ICBPER out (golden with-precioUnitario-ICB).
    expect(bags.referencePrice.toFixed(4)).to.equal('0.1167');
    expect(summary(t)).to.deep.equal({
      valorVenta: '50.30',
      igv: '9.05',
      totalImpuestos: '10.55',
      precioVenta: '60.85',
      importeTotal: '60.85',
    });
  });

  it('line discounts 00 and charges 47 change the base; 01 and 48 only the payable total', () => {
    const t = totals([
      line(1, 2500, { descuentos: [adj('00', 250)] }),
      line(1, 800, { descuentos: [adj('01', 50)], cargos: [adj('48', 5)] }),
      line(1, 300, { cargos: [adj('47', 30)] }),
    ]);
    expect(t.lines.map((l) => money(l.lineExtension))).to.deep.equal(['2250.00', '800.00', '330.00']);
    expect(summary(t)).to.deep.equal({
      valorVenta: '3380.00',
      igv: '608.40',
      totalImpuestos: '608.40',
      precioVenta: '3988.40',
      importeTotal: '3943.40',
    });
    expect([money(t.descuentos), money(t.cargos)]).to.deep.equal(['50.00', '5.00']);
  });

  it('global discount 02 and charge 49 change the IGV base; 03 and 50 only the payable total', () => {
    expect(summary(totals([line(1, 100)], { descuentos: [adj('02', 50)] }))).to.deep.equal({
      valorVenta: '50.00',
      igv: '9.00',
      totalImpuestos: '9.00',
      precioVenta: '59.00',
      importeTotal: '59.00',
    });
    expect(summary(totals([line(1, 100)], { descuentos: [adj('03', 50)] }))).to.deep.equal({
      valorVenta: '100.00',
      igv: '18.00',
      totalImpuestos: '18.00',
      precioVenta: '118.00',
      importeTotal: '68.00',
    });
    expect(summary(totals([line(10, 150)], { cargos: [adj('49', 100), adj('50', 20)] }))).to.deep.equal({
      valorVenta: '1600.00',
      igv: '288.00',
      totalImpuestos: '288.00',
      precioVenta: '1888.00',
      importeTotal: '1908.00',
    });
  });

  it('deducts prepayments from the IGV base and the payable total, with a default base of the amount without IGV', () => {
    const t = totals([line(1, 10000)], { anticipos: [{ monto: dec(5900) }] });
    expect(t.globalAdjustments.map((a) => [a.code, money(a.amount)])).to.deep.equal([['04', '5000.00']]);
    expect(summary(t)).to.deep.equal({
      valorVenta: '10000.00',
      igv: '900.00',
      totalImpuestos: '900.00',
      precioVenta: '11800.00',
      importeTotal: '5900.00',
    });
    expect(money(t.gravadas)).to.equal('5000.00');
  });

  it('sums exonerated, unaffected and export lines into their own buckets with no tax', () => {
    const t = totals([
      line(2, 10, { afectacionIgv: '20' }),
      line(1, 5, { afectacionIgv: '30' }),
      line(1, 7, { afectacionIgv: '40' }),
    ]);
    expect([
      money(t.exoneradas),
      money(t.inafectas),
      money(t.exportacion),
      money(t.totalImpuestos),
      money(t.importeTotal),
    ]).to.deep.equal(['20.00', '5.00', '7.00', '0.00', '32.00']);
    expect(t.subtotals.map((s) => s.scheme)).to.deep.equal(['9995', '9997', '9998']);
  });
});
