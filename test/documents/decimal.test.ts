import { expect } from 'chai';
import { dec, money, unitValue } from '../../documents/decimal';

describe('decimal formatting (money, unitValue)', () => {
  it('writes amounts with exactly two decimals, rounding half-up only when there are more', () => {
    const cases: [string, string][] = [
      ['5', '5.00'],
      ['5.1', '5.10'],
      ['5.25', '5.25'],
      ['1.005', '1.01'],
      ['2.675', '2.68'],
      ['-0.5', '-0.50'],
      ['-1.005', '-1.01'],
      ['1234567.899', '1234567.90'],
    ];
    for (const [value, text] of cases) expect(money(dec(value)), value).to.equal(text);
  });

  it('writes unit values and quantities with at least two and at most ten decimals', () => {
    const cases: [string, string][] = [
      ['3', '3.00'],
      ['3.1', '3.10'],
      ['3.14159', '3.14159'],
      ['0.0847457627', '0.0847457627'],
      ['0.12345678905', '0.1234567891'],
      ['100.00000000001', '100.00'],
    ];
    for (const [value, text] of cases) expect(unitValue(dec(value)), value).to.equal(text);
    expect(unitValue(dec('0.123456'), 5)).to.equal('0.12346');
  });
});
