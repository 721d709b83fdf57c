/**
 * The mutations test/documents/robustness.test.ts judges: each fixture with every value in turn removed or replaced by
 * a wrong type, given to prepareDocument. A module of its own so that part of the fixtures can be judged in a worker
 * thread beside the rest: the work is CPU only, and CI has two cores.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { DocumentValidationError, prepareDocument } from '../../documents';
import { threadData } from '../support/thread';

export const FIXTURES = path.resolve(__dirname, '../fixtures/documents');
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

export interface MutationTally {
  mutations: number;
  rejected: number;
  /** Each mutation refused otherwise than by a DocumentValidationError naming at least one issue. */
  wrong: string[];
}

/** Every mutation of these fixtures (file names in FIXTURES), given to prepareDocument. */
export function tallyMutations(names: string[]): MutationTally {
  const tally: MutationTally = { mutations: 0, rejected: 0, wrong: [] };
  for (const name of names) {
    const payload = JSON.parse(readFileSync(path.join(FIXTURES, name), 'utf8'));
    for (const at of paths(payload).filter((p) => p.length > 0)) {
      for (const replacement of REPLACEMENTS) {
        tally.mutations++;
        try {
          prepareDocument(mutate(payload, at, replacement));
        } catch (e) {
          tally.rejected++;
          if (!(e instanceof DocumentValidationError) || e.issues.length === 0)
            tally.wrong.push(`${name} ${at.join('.')} = ${JSON.stringify(replacement)}: ${String(e)}`);
        }
      }
    }
  }
  return tally;
}

const thread = threadData<string[]>(__filename);
if (thread) thread.answer(tallyMutations(thread.data));
