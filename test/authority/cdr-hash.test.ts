import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { readCdrXml } from '../../authority/cdr';

const SAMPLES = path.resolve(__dirname, '../../sunat/samples/cdr');

/** Whose document a CDR is about: OSE CDRs carry its hash, SUNAT's invoice CDRs do not (docs/delivery.md). */
describe('authority/cdr DocumentHash', () => {
  it('reads the DocumentHash an OSE CDR carries (efact sample)', () => {
    const read = readCdrXml(fs.readFileSync(path.join(SAMPLES, 'efact_cdr1.xml'), 'utf8'));
    expect(read.ok).to.equal(true);
    expect(read.ok && read.cdr.documentHash).to.equal('RwNDwdsWs4XMKM4BoTAf5MKh3T8=');
  });

  it('is null for a SUNAT invoice CDR, which carries none', () => {
    const read = readCdrXml(fs.readFileSync(path.join(SAMPLES, 'R-20600995805-01-F001-1.xml'), 'utf8'));
    expect(read.ok).to.equal(true);
    expect(read.ok && read.cdr.documentHash).to.equal(null);
  });
});
