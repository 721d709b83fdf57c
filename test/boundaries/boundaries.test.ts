import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { mayImport, roomOf, ROOMS } from './rooms';

const ROOT = path.resolve(__dirname, '../..');
const SKIPPED = new Set(['node_modules', '.git', 'sunat', 'deploy', 'examples']);

/** Every TypeScript source of the repository, as paths from its root. */
function sources(dir = ROOT): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return SKIPPED.has(entry.name) ? [] : sources(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path.relative(ROOT, full)] : [];
  });
}

interface Import {
  from: string;
  target: string;
  typeOnly: boolean;
}

// Static imports and re-exports (with what they name, to tell type-only ones), side-effect imports, import() and require().
const IMPORT =
  /(?:^|\n)[ \t]*(?:import|export)\s+(type\s+)?([^;'"]*?)\bfrom\s*['"]([^'"]+)['"]|(?:^|\n)[ \t]*import\s*['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)|\brequire\(\s*['"]([^'"]+)['"]\s*\)/g;

/** `{ type A, type B }`: every name imported as a type. */
const onlyTypes = (names: string) =>
  /^\{[^}]*\}$/.test(names.trim()) &&
  names
    .trim()
    .slice(1, -1)
    .split(',')
    .filter((n) => n.trim())
    .every((n) => /^type\s/.test(n.trim()));

function resolve(from: string, spec: string): string {
  const base = path.normalize(path.join(path.dirname(from), spec));
  return (
    [`${base}.ts`, path.join(base, 'index.ts'), base].find((candidate) => fs.existsSync(path.join(ROOT, candidate))) ??
    base
  );
}

function importsOf(file: string): Import[] {
  const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
  return [...text.matchAll(IMPORT)].flatMap((m) => {
    const spec = m[3] ?? m[4] ?? m[5] ?? m[6];
    if (!spec.startsWith('.')) return [];
    return [{ from: file, target: resolve(file, spec), typeOnly: !!m[1] || (m[2] !== undefined && onlyTypes(m[2])) }];
  });
}

/** Groups of files that import each other, directly or round about (Tarjan's strongly connected components). */
function cycles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (stack.includes(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const group: string[] = [];
      let w: string;
      do group.push((w = stack.pop()!));
      while (w !== v);
      if (group.length > 1) found.push(group.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

/**
 * `npm run check:boundaries` (and part of `npm test`): docs/architecture.md's "may import" table (test/boundaries/rooms.ts)
 * holds for every import in the repository, and no module imports itself round about.
 */
describe('boundaries: the rooms and what they may import', () => {
  const files = sources();
  const imports = files.flatMap(importsOf);

  it('every source file belongs to a room of the table', () => {
    expect(
      files.filter((f) => !roomOf(f)),
      'add its room to test/boundaries/rooms.ts and docs/architecture.md',
    ).to.deep.equal([]);
  });

  it('every import is one its room may make', () => {
    const broken = imports
      .filter((i) => !mayImport(i.from, i.target, i.typeOnly))
      .map(
        (i) =>
          `${i.from} → ${i.target}${i.typeOnly ? ' (type)' : ''}: ${roomOf(i.from)} (${ROOMS[roomOf(i.from)!]?.holds}) may import ${ROOMS[roomOf(i.from)!]?.may.join(', ') || 'only its own files'}`,
      );
    expect(broken).to.deep.equal([]);
  });

  it('no import cycles, not even through types (a types module breaks one)', () => {
    const graph = new Map<string, string[]>(files.map((f) => [f, []]));
    for (const i of imports) graph.get(i.from)!.push(i.target);
    expect(cycles(graph)).to.deep.equal([]);
  });

  it('docs/architecture.md shows the same table', () => {
    const doc = fs.readFileSync(path.join(ROOT, 'docs/architecture.md'), 'utf8');
    const section = doc.slice(doc.indexOf('## Rooms'), doc.indexOf('\n## ', doc.indexOf('## Rooms') + 1));
    // | `room` | what lives there | `a/`, `b/` (types: `c/`) |
    const rows = new Map(
      [...section.matchAll(/^\| `([^`]+)` \|[^\n]*\| ([^|\n]*) \|$/gm)].map((m) => [
        m[1],
        [...m[2].matchAll(/`([^`]+)`/g)].map((x) => x[1]),
      ]),
    );
    for (const [key, room] of Object.entries(ROOMS)) {
      expect(rows.has(key), `docs/architecture.md's Rooms table has no row for \`${key}\``).to.equal(true);
      expect(rows.get(key), `the docs' "may import" of \`${key}\``).to.deep.equal([...room.may, ...(room.types ?? [])]);
    }
  });

  it('the checker catches what it is meant to', () => {
    expect(mayImport('db/documents.ts', 'workflows/document-types.ts', true)).to.equal(false);
    expect(mayImport('cli/support/index.ts', 'api/errors.ts', false)).to.equal(false);
    expect(mayImport('workflows/document.ts', 'activities/documents.ts', false)).to.equal(false);
    expect(mayImport('workflows/document.ts', 'activities/documents.ts', true)).to.equal(true);
    expect(mayImport('lifecycle/transitions.ts', 'db/knex.ts', true)).to.equal(false);
    expect(mayImport('lifecycle/actions.ts', 'lifecycle/transitions.ts', false)).to.equal(true);
    expect(mayImport('cli/commands/start.ts', 'cli/support/index.ts', false)).to.equal(true);
    expect(
      cycles(
        new Map([
          ['a', ['b']],
          ['b', ['a']],
          ['c', ['a']],
        ]),
      ),
    ).to.deep.equal([['a', 'b']]);
  });
});
