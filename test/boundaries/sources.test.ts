import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { parse as parseYaml } from 'yaml';
import { mayDecideStatuses, statusComparisons, STATUS_RULES_MAY_LIVE } from './literals';
import { shapeProblems } from './shape';
import { checkSources, expand } from './sources';
import { storeBuilds } from './stores';
import { lazyParse } from './syntax';

const ROOT = path.resolve(__dirname, '../..');

const fixtures = (name: string) =>
  parseYaml(fs.readFileSync(path.join(__dirname, 'fixtures', name), 'utf8')) as Record<
    'caught' | 'allowed',
    Record<string, string>
  >;

/**
 * Part of `npm run check:boundaries`: issue 35's rules read from the syntax of every source file (parsed by swc):
 * status rules live in lifecycle/, and files and functions keep a size a reader can hold (docs/architecture.md,
 * "Status literals" and "Shape"). Computed once when the suite loads, as boundaries.test.ts does.
 */
describe('boundaries: status rules and the shape of the sources', () => {
  const found = checkSources(ROOT);

  it(`no document status is compared outside ${STATUS_RULES_MAY_LIVE.join(', ')} (use lifecycle/'s predicates)`, () => {
    expect(found.statusRules).to.deep.equal([]);
  });

  it('no file over 400 lines without its reason in the header, no function over 100 lines (120 with its reason)', () => {
    expect(found.shape).to.deep.equal([]);
  });

  it('the file store is built only by the entries, inside a function, and kept by no module (issue 44)', () => {
    expect(found.stores).to.deep.equal([]);
  });
});

describe('boundaries: what the status and shape checks catch (fixtures/)', () => {
  const statuses = fixtures('status-literals.yaml');
  const shapes = fixtures('shape.yaml');
  const stores = fixtures('file-store.yaml');

  for (const [name, code] of Object.entries(statuses.caught))
    it(`catches a status compared: ${name}`, () => {
      const caught = statusComparisons('api/x.ts', lazyParse('api/x.ts', code)());
      expect(caught).to.have.length(1);
      expect(caught[0]).to.match(/^api\/x\.ts:\d+: '/);
    });

  it('names the line: file:line and the statuses compared', () => {
    const code = `const a = 1;\n// é, a wide character before\nif (doc.status === 'to_send' || doc.status === 'to_summarize') a;`;
    expect(statusComparisons('api/x.ts', lazyParse('api/x.ts', code)())).to.deep.equal([
      "api/x.ts:3: 'to_send'",
      "api/x.ts:3: 'to_summarize'",
    ]);
  });

  for (const [name, code] of Object.entries(statuses.allowed))
    it(`allows ${name}`, () => {
      expect(statusComparisons('api/x.ts', lazyParse('api/x.ts', code)())).to.deep.equal([]);
    });

  it('leaves lifecycle/, the simulator (SUNAT plays its own states) and the tests to compare statuses', () => {
    for (const file of ['lifecycle/webhooks.ts', 'simulator/behaviour.ts', 'test/api/x.test.ts'])
      expect(mayDecideStatuses(file), file).to.equal(true);
    for (const file of ['api/cpe/void.ts', 'db/documents.ts', 'workflows/document.ts', 'bench/list.ts'])
      expect(mayDecideStatuses(file), file).to.equal(false);
  });

  for (const [file, text] of Object.entries(shapes.caught))
    it(`catches ${file}`, () => {
      const problems = shapeProblems(file, expand(text), lazyParse(file, expand(text)));
      expect(problems).to.have.length(1);
      expect(problems[0].startsWith(`${file}:`)).to.equal(true);
    });

  it('names a long function by its file, line, name and length', () => {
    const text = expand('export const a = 1;\n\nexport function long() {\n{99 lines}}\n');
    expect(shapeProblems('api/x.ts', text, lazyParse('api/x.ts', text))).to.deep.equal([
      'api/x.ts:3: long() 101 lines',
    ]);
  });

  for (const [file, text] of Object.entries(shapes.allowed))
    it(`allows ${file}`, () => {
      expect(shapeProblems(file, expand(text), lazyParse(file, expand(text)))).to.deep.equal([]);
    });

  for (const [file, code] of Object.entries(stores.caught))
    it(`catches a file store built in ${file}`, () => {
      const caught = storeBuilds(file, lazyParse(file, code)());
      expect(caught).to.have.length(1);
      expect(caught[0].startsWith(`${file}:`)).to.equal(true);
    });

  it('names the file, the line and the builder, and why', () => {
    const code = `export const a = 1;\nexport const files = openDocumentFiles(config.files);`;
    expect(storeBuilds('cli/commands/api.ts', lazyParse('cli/commands/api.ts', code)())).to.deep.equal([
      "cli/commands/api.ts:2: openDocumentFiles() at the module's top level",
    ]);
    expect(storeBuilds('api/x.ts', lazyParse('api/x.ts', code)())).to.deep.equal([
      'api/x.ts:2: openDocumentFiles() outside the entries (hand the store in: AppDeps, ActivityDeps)',
    ]);
  });

  for (const [file, code] of Object.entries(stores.allowed))
    it(`allows the store built or used in ${file}`, () => {
      expect(storeBuilds(file, lazyParse(file, code)())).to.deep.equal([]);
    });
});
