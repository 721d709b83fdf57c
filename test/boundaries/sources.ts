/**
 * The checks read from the syntax of each source file (issue 35): status rules outside lifecycle/ (literals.ts), the
 * shape of files and functions (shape.ts) and, issue 44, where the file store is built (stores.ts), each file read and
 * parsed once. Works on any root, so the tests can feed it
 * small trees of their own, as check.ts does.
 */
import fs from 'node:fs';
import path from 'node:path';
import { sources } from './check';
import { mayDecideStatuses, statusComparisons } from './literals';
import { hasShape, shapeProblems } from './shape';
import { mayBuildStores, storeBuilds } from './stores';
import { lazyParse } from './syntax';

/** The checks of every source file under `root`, each file read and parsed once. */
export function checkSources(root: string) {
  const statusRules: string[] = [];
  const shape: string[] = [];
  const stores: string[] = [];
  for (const file of sources(root)) {
    const decides = !mayDecideStatuses(file);
    if (!decides && !hasShape(file)) continue;
    const text = fs.readFileSync(path.join(root, file), 'utf8');
    const parsed = lazyParse(file, text);
    if (decides) statusRules.push(...statusComparisons(file, parsed()));
    if (hasShape(file)) shape.push(...shapeProblems(file, text, parsed));
    if (hasShape(file) && mayBuildStores(text)) stores.push(...storeBuilds(file, parsed()));
  }
  return { statusRules, shape, stores };
}

/** A fixture's text: `{N lines}` and `{N comments}` become that many lines. */
export const expand = (text: string) =>
  text
    .replace(/\{(\d+) lines\}/g, (_, n) => '  n++;\n'.repeat(Number(n)))
    .replace(/\{(\d+) comments\}/g, (_, n) => '// a line\n'.repeat(Number(n)));
