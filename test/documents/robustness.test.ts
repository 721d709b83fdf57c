/**
 * Malformed payloads never crash the library: every fixture, mutated field by field (removed, null, wrong type,
 * empty), either still builds or throws DocumentValidationError with a path — never a TypeError or a joi exception.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { DocumentValidationError, prepareDocument } from '../../documents';

const FIXTURES = path.resolve(__dirname, '../fixtures/documents');
const REPLACEMENTS: unknown[] = [undefined, null, 42, 'x', '', [], {}, -1, '1e400', true];

/** Every path to a value in the payload (objects and arrays included). */
function paths(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  if (value === null || typeof value !== 'object') return [prefix];
  const entries = Array.isArray(value)
    ? value.map((v, i) => [i, v] as const)
    : Object.entries(value as Record<string, unknown>);
  return [prefix, ...entries.flatMap(([k, v]) => paths(v, [...prefix, k]))];
}

function mutate(payload: unknown, at: (string | number)[], replacement: unknown): unknown {
  const copy = structuredClone(payload) as Record<string | number, unknown>;
  let node = copy;
  for (const key of at.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  const last = at[at.length - 1];
  if (replacement === undefined) delete node[last];
  else node[last] = replacement;
  return copy;
}

describe('malformed payloads', () => {
  const names = readdirSync(FIXTURES).filter((f) => f.endsWith('.json') && !f.startsWith('gre-'));
  it(`every mutation of ${names.length} fixtures gives a document or a DocumentValidationError`, function () {
    this.timeout(120_000);
    let mutations = 0;
    let rejected = 0;
    for (const name of names) {
      const payload = JSON.parse(readFileSync(path.join(FIXTURES, name), 'utf8'));
      for (const at of paths(payload).filter((p) => p.length > 0)) {
        for (const replacement of REPLACEMENTS) {
          mutations++;
          try {
            prepareDocument(mutate(payload, at, replacement));
          } catch (e) {
            expect(e, `${name} ${at.join('.')} = ${JSON.stringify(replacement)}`).to.be.instanceOf(
              DocumentValidationError,
            );
            expect((e as DocumentValidationError).issues.length).to.be.greaterThan(0);
            rejected++;
          }
        }
      }
    }
    expect(rejected).to.be.greaterThan(mutations / 2);
  });

  it('answers a non-object payload with a validation error', () => {
    for (const payload of [null, 'text', 5, [], undefined]) {
      expect(() => prepareDocument(payload)).to.throw(DocumentValidationError);
    }
  });
});
