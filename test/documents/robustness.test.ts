/**
 * Malformed payloads never crash the library: every fixture, mutated field by field (removed, null, wrong type,
 * empty), either still builds or throws DocumentValidationError with a path — never a TypeError or a joi exception.
 */
import { readdirSync } from 'node:fs';
import { expect } from 'chai';
import { DocumentValidationError, prepareDocument } from '../../documents';
import { inThread } from '../support/thread';
import { FIXTURES, tallyMutations, type MutationTally } from './mutations';

describe('malformed payloads', () => {
  const names = readdirSync(FIXTURES).filter((f) => f.endsWith('.json') && !f.startsWith('gre-'));
  it(`every mutation of ${names.length} fixtures gives a document or a DocumentValidationError`, async function () {
    this.timeout(120_000);
    // Half in a worker thread beside the other half here (CPU only; two cores).
    const half = Math.ceil(names.length / 2);
    const thread = inThread<MutationTally>(require.resolve('./mutations'), names.slice(half));
    const tallies = [tallyMutations(names.slice(0, half)), await thread];
    const mutations = tallies.reduce((n, t) => n + t.mutations, 0);
    const rejected = tallies.reduce((n, t) => n + t.rejected, 0);
    expect(
      tallies.flatMap((t) => t.wrong),
      'refused otherwise than by a DocumentValidationError with issues',
    ).to.deep.equal([]);
    expect(rejected).to.be.greaterThan(mutations / 2);
  });

  it('answers a non-object payload with a validation error', () => {
    for (const payload of [null, 'text', 5, [], undefined]) {
      expect(() => prepareDocument(payload)).to.throw(DocumentValidationError);
    }
  });
});
