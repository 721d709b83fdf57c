import { expect } from 'chai';
import { dec } from '../../documents/decimal';
import { amountInWords, integerInWords } from '../../documents/tax/words';

describe('amount in words (legend 1000)', () => {
  it('writes the payable amount as SUNAT documents print it', () => {
    expect(amountInWords(dec(118), 'PEN')).to.equal('SON CIENTO DIECIOCHO CON 00/100 SOLES');
    expect(amountInWords(dec('1250.5'), 'USD')).to.equal('SON MIL DOSCIENTOS CINCUENTA CON 50/100 DÓLARES AMERICANOS');
    expect(amountInWords(dec(0), 'PEN')).to.equal('SON CERO CON 00/100 SOLES');
    expect(amountInWords(dec('0.995'), 'PEN')).to.equal('SON UNO CON 00/100 SOLES');
  });

  it('handles the irregular Spanish forms', () => {
    const cases: [number, string][] = [
      [1, 'UNO'],
      [15, 'QUINCE'],
      [16, 'DIECISÉIS'],
      [21, 'VEINTIUNO'],
      [22, 'VEINTIDÓS'],
      [31, 'TREINTA Y UNO'],
      [100, 'CIEN'],
      [101, 'CIENTO UNO'],
      [500, 'QUINIENTOS'],
      [999, 'NOVECIENTOS NOVENTA Y NUEVE'],
      [1000, 'MIL'],
      [1001, 'MIL UNO'],
      [21000, 'VEINTIÚN MIL'],
      [31000, 'TREINTA Y UN MIL'],
      [100000, 'CIEN MIL'],
      [101000, 'CIENTO UN MIL'],
      [1_000_000, 'UN MILLÓN'],
      [2_500_000, 'DOS MILLONES QUINIENTOS MIL'],
      [21_000_001, 'VEINTIÚN MILLONES UNO'],
      [1_000_000_000, 'MIL MILLONES'],
    ];
    for (const [n, words] of cases) expect(integerInWords(n), String(n)).to.equal(words);
  });
});
