import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { parse } from 'yaml';
import { check, tableDifferences, typeCheckGaps } from './check';
import { diagramDifferences } from './diagram';
import { checkSources, expand } from './sources';
import { mayImport, ROOMS } from './rooms';

const ROOT = path.resolve(__dirname, '../..');

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
  const findings = check(ROOT);

  it('every source file belongs to a room of the table, and the rooms of data hold none', () => {
    expect(findings.unroomed, 'add its room to test/boundaries/rooms.ts and docs/architecture.md').to.deep.equal([]);
    expect(findings.inData).to.deep.equal([]);
  });

  it('every import is one its room may make', () => {
    expect(findings.broken).to.deep.equal([]);
  });

  it('every dynamic import names its path, or is allowed with a reason (and every allowance is still used)', () => {
    expect(findings.unread).to.deep.equal([]);
    expect(findings.stale, 'remove from DYNAMIC_IMPORTS').to.deep.equal([]);
  });

  it('no import cycles, not even through types (a types module breaks one)', () => {
    const graph = new Map<string, string[]>(findings.files.map((f) => [f, []]));
    for (const i of findings.imports) graph.get(i.from)!.push(i.target);
    expect(cycles(graph)).to.deep.equal([]);
  });

  it('docs/architecture.md shows the same table, row for row', () => {
    expect(tableDifferences(fs.readFileSync(path.join(ROOT, 'docs/architecture.md'), 'utf8'))).to.deep.equal([]);
  });

  it("docs/architecture.md's Mermaid drawings of the rooms and of documents/' parts draw exactly rooms.ts's arrows", () => {
    expect(diagramDifferences(fs.readFileSync(path.join(ROOT, 'docs/architecture.md'), 'utf8'))).to.deep.equal([]);
  });

  it("tsconfig.json's type check includes every top-level folder of TypeScript sources", () => {
    expect(typeCheckGaps(ROOT, findings.files), "add it to tsconfig.json's include").to.deep.equal([]);
  });

  it('the checker catches what it is meant to', () => {
    expect(mayImport('db/documents.ts', 'workflows/document-types.ts', true)).to.equal(false);
    expect(mayImport('cli/support/index.ts', 'api/errors.ts', false)).to.equal(false);
    expect(mayImport('workflows/document.ts', 'activities/documents.ts', false)).to.equal(false);
    expect(mayImport('workflows/document.ts', 'activities/documents.ts', true)).to.equal(true);
    expect(mayImport('lifecycle/transitions.ts', 'db/knex.ts', true)).to.equal(false);
    expect(mayImport('support/actions.ts', 'lifecycle/transitions.ts', false)).to.equal(true);
    expect(mayImport('lifecycle/result.ts', 'db/knex.ts', true)).to.equal(false);
    expect(mayImport('cli/commands/start.ts', 'cli/support/index.ts', false)).to.equal(true);
    expect(mayImport('activities/webhooks.ts', 'workflows/webhook-client.ts', false)).to.equal(true);
    expect(mayImport('activities/webhooks.ts', 'workflows/webhook-delivery.ts', false)).to.equal(false);
    expect(mayImport('activities/webhooks.ts', 'workflows/sub/a-client.ts', false)).to.equal(false);
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

const fixture = (name: string) => parse(fs.readFileSync(path.join(__dirname, 'fixtures', name), 'utf8'));

/** A tree of fixture files written to a temporary folder (`{root}` becomes its path), and what the checker finds in it. */
function checkedTree(tree: Record<string, string>, made: string[]) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'chasqui-boundaries-'));
  made.push(root);
  const files = { 'package.json': '{ "name": "chasqui", "dependencies": { "joi": "*" } }', ...tree };
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), expand(text.replaceAll('{root}', root)));
  }
  return { ...check(root), root };
}

/** Issue 35's holes: each tree of fixtures/holes.yaml passed the checker before and is caught now. */
describe('boundaries: the holes the checker had', () => {
  const trees = fixture('holes.yaml') as Record<string, Record<string, string>>;
  const made: string[] = [];
  const checked = (name: string) => checkedTree(trees[name], made);
  after(() => made.forEach((root) => fs.rmSync(root, { recursive: true, force: true })));

  it('reads a template literal import()', () => {
    expect(checked('template literal import').broken).to.deep.equal([
      'documents/reader.ts → db/knex.ts: documents/ (the pure documents library) may import only its own files',
    ]);
  });

  it('refuses an import() or require() whose path is not a literal, unless allowed with a reason or in a room of everything', () => {
    const found = checked('dynamic imports without a literal path');
    expect(found.unread.map((u) => u.split(' (')[0])).to.deep.equal([
      'documents/any.ts: import(`../db/${name}`)',
      'documents/any.ts: require(name)',
    ]);
    expect(found.stale).to.deep.equal([]);
  });

  it('checks files under nested examples/, deploy/ and sunat/ folders; the top-level ones are rooms of their own', () => {
    const found = checked('nested examples, deploy and sunat folders');
    expect(found.broken.map((b) => b.split(':')[0])).to.deep.equal([
      'api/examples/leak.ts → cli/main.ts',
      'db/deploy/leak.ts → cli/main.ts',
      'documents/sunat/leak.ts → db/knex.ts',
      'examples/receiver.js → db/knex.ts',
    ]);
    expect(found.inData).to.deep.equal(['sunat/tool.ts']);
  });

  it('checks paths that are not relative: the package itself, absolute, tsconfig paths and baseUrl, outside, unknown', () => {
    const found = checked('paths that are not relative');
    expect(found.broken.map((b) => b.replace(/ \(the pure.*$/, ''))).to.have.members([
      'documents/absolute.ts → db/knex.ts: documents/',
      'documents/base-url.ts → db/knex.ts: documents/',
      'documents/mapped-file.ts → cli/main.ts: documents/',
      'documents/mapped.ts → db/knex.ts: documents/',
      `documents/outside.ts → ${found.root}/../elsewhere/spec: outside the repository`,
      'documents/self.ts → db/knex.ts: documents/',
      'documents/undeclared.ts → left-pad: neither a path into the repository nor a package of package.json',
    ]);
  });

  it('checks declaration files (.d.ts), their imports as types', () => {
    expect(checked('declaration files').broken.map((b) => b.split(':')[0])).to.deep.equal([
      'db/shapes.d.ts → api/app.ts (type)',
    ]);
  });

  it("names a folder of TypeScript that tsconfig.json's type check leaves out (buyers/ and validator/ were)", () => {
    const found = checked('a type check that leaves folders out');
    expect(typeCheckGaps(found.root, found.files)).to.deep.equal(['buyers', 'validator']);
  });

  it('names a status compared outside lifecycle/ and a function over 100 lines, in a tree as in the repository', () => {
    const found = checkSources(checked('status rules and a long function').root);
    expect(found.statusRules).to.deep.equal(["workflows/next.ts:1: 'registered'"]);
    expect(found.shape).to.deep.equal(['db/long.ts:1: long() 102 lines']);
  });

  it('lets a workflow client import its workflow as a type only, and no workflow import a client', () => {
    expect(checked('a client loading its workflow').broken.map((b) => b.split(':')[0])).to.deep.equal([
      'workflows/document-client.ts → workflows/document.ts',
      'workflows/webhook-delivery.ts → workflows/document-client.ts',
    ]);
  });

  it('lets activities/ import workflow clients and types, never a workflow', () => {
    expect(checked('activities import workflow definitions').broken.map((b) => b.split(':')[0])).to.deep.equal([
      'activities/notify.ts → workflows/document.ts',
    ]);
  });

  it("fences documents/' parts: a part imports a sibling only if its row names it (types apart)", () => {
    expect(checked('documents parts importing a sibling').broken.map((b) => b.split(':')[0])).to.deep.equal([
      'documents/calendar/sale.ts → documents/sales/sale.ts',
      'documents/despatch/summary.ts → documents/summaries/rc.ts (type)',
      'documents/sales/pdf.ts → documents/printed/pdf.ts',
      'documents/xml/sign.ts → documents/signing/sign.ts',
      'documents/xml/values.ts → documents/sales/sale.ts',
    ]);
  });

  it('keeps lifecycle/ pure: a rule importing the database, a workflow client, the files, an activity or the network fails', () => {
    expect(checked('a lifecycle rule doing I/O').broken.map((b) => b.split(':')[0])).to.deep.equal([
      'lifecycle/rule.ts → db/knex.ts',
      'lifecycle/rule.ts → workflows/document-client.ts',
      'lifecycle/rule.ts → files/store.ts',
      'lifecycle/rule.ts → activities/send.ts',
      'lifecycle/rule.ts → core/config.ts',
      'lifecycle/rule.ts → authority/soap.ts',
    ]);
  });

  it('flags an arrow drawn that rooms.ts does not allow, one it allows left undrawn, and a drawing missing', () => {
    const doc = fs.readFileSync(path.join(ROOT, 'docs/architecture.md'), 'utf8');
    const arrow = '    support --> db\n';
    expect(doc).to.include(arrow);
    expect(diagramDifferences(doc.replace(arrow, '    lifecycle --> db\n'))).to.deep.equal([
      '%% rooms.ts: top-level rooms: not drawn: support/ --> db/',
      '%% rooms.ts: top-level rooms: drawn, not in rooms.ts: lifecycle/ --> db/',
    ]);
    expect(diagramDifferences(doc.replace('    sales -.-> types_ts\n', '    sales --> types_ts\n'))).to.deep.equal([
      "%% rooms.ts: documents/' parts: not drawn: documents/sales/ -.-> documents/types.ts",
      "%% rooms.ts: documents/' parts: drawn, not in rooms.ts: documents/sales/ --> documents/types.ts",
    ]);
    expect(diagramDifferences(doc.replace("%% rooms.ts: documents/' parts", '%% parts'))).to.deep.equal([
      "docs/architecture.md has no Mermaid block holding `%% rooms.ts: documents/' parts`",
    ]);
  });

  it('flags a room of the docs missing from rooms.ts, and the other way round', () => {
    const doc = fs.readFileSync(path.join(ROOT, 'docs/architecture.md'), 'utf8');
    const row = '| `bench/` | the benchmarks (docs/benchmarks.md) | everything (`*`) |';
    expect(doc).to.include(row);
    expect(tableDifferences(doc.replace(row, `${row}\n| \`scripts/\` | scripts | \`core/\` |`))).to.deep.equal([
      "test/boundaries/rooms.ts has no room `scripts/` (a row of the docs' table)",
    ]);
    expect(tableDifferences(doc.replace(`${row}\n`, ''))).to.deep.equal([
      "docs/architecture.md's Rooms table has no row for `bench/`",
    ]);
    expect(Object.keys(ROOMS)).to.include('bench/');
  });
});

/** Issue 44: the object stores' own modules are files/'s; everyone else reaches a store through the one handed in. */
describe('boundaries: the file store is handed in (fixtures/file-store.yaml)', () => {
  const made: string[] = [];
  after(() => made.forEach((root) => fs.rmSync(root, { recursive: true, force: true })));

  it('refuses files/s3.ts and files/directory.ts to any module outside files/ and its tests, types too', () => {
    const found = checkedTree(fixture('file-store.yaml').imports, made);
    expect(found.broken.map((b) => b.split(': ')[0])).to.deep.equal([
      'api/download.ts → files/s3.ts',
      'api/download.ts → files/directory.ts (type)',
      'cli/commands/files.ts → files/s3.ts',
      'test/api/downloads.test.ts → files/s3.ts',
    ]);
    expect(found.broken[0]).to.include('only files/, test/files/ may import it');
  });
});
