import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { ALREADY_REPORTED_CODES, codeCategory, SERVICE_UNAVAILABLE_CODES } from '../../authority/classify';
import { codeKind, codesDoing, sunatCode } from '../../documents/sunat-codes';
import { messageFor } from '../../simulator/codes';
import { sunatMessage } from '../../validator/codes';

const csvCodes = fs
  .readFileSync(path.resolve(__dirname, '../../sunat/codes/return-codes.csv'), 'utf8')
  .split('\n')
  .slice(1)
  .map((line) => line.split(',')[0])
  .filter(Boolean);
const everyCode = [
  ...new Set([
    '0',
    ...Array.from({ length: 10000 }, (_, n) => String(n).padStart(4, '0')),
    ...csvCodes,
    'GRE-ERROR',
    '',
  ]),
];
const SIMULATOR_CODES = everyCode.filter((c) => !messageFor(c).endsWith('(simulated)'));

describe('SUNAT codes: the catalog answers as the four old tables did', () => {
  it('kinds and the classifier sets', () => {
    for (const code of everyCode) {
      expect(codeKind(code), code).to.equal(codeCategory(code));
      expect(codesDoing('query').includes(code), code).to.equal(ALREADY_REPORTED_CODES.has(code));
      expect(codesDoing('retry').includes(code), code).to.equal(SERVICE_UNAVAILABLE_CODES.has(code));
    }
  });
  it('the credentials and not-found codes', () => {
    expect(codesDoing('credentials')).to.deep.equal(['0101', '0102', '0103', '0104', '0111']);
    expect(codesDoing('send')).to.deep.equal(['0011', '0127']);
  });
  it("the validator's and the simulator's texts", () => {
    for (const code of everyCode) expect(sunatCode(code).text, code).to.equal(sunatMessage(code));
    expect(SIMULATOR_CODES).to.have.length(32, SIMULATOR_CODES.join());
    for (const code of SIMULATOR_CODES) expect(sunatCode(code).answer, code).to.equal(messageFor(code));
  });
});
