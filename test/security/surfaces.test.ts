import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');
const DOC = fs.readFileSync(path.join(ROOT, 'docs/security.md'), 'utf8');
/** A test file in backquotes: its path, or a bare name (`smtp.test.ts`) that lives in test/security/. */
const TEST_PATH = /`((?:test\/[\w./-]+\/)?[\w.-]+\.test\.ts)`/g;
const testFiles = (text: string) =>
  [...text.matchAll(TEST_PATH)].map((m) => (m[1].includes('/') ? m[1] : `test/security/${m[1]}`));
/** The sections whose tables list surfaces. */
const SECTIONS = ['Surfaces', 'Outbound connections, client addresses and limits', 'Availability'];

/** The rows of every table under a `## ` heading of docs/security.md, as cells. */
function tableRows(heading: string): string[][] {
  const section = DOC.split(/^## /m).find((part) => part.startsWith(`${heading}\n`));
  if (!section) throw new Error(`docs/security.md has no "## ${heading}"`);
  return section
    .split('\n')
    .filter((line) => line.startsWith('|') && !/^\|[-| ]+\|$/.test(line))
    .slice(1)
    .map((line) =>
      line
        .slice(1, -1)
        .split(' | ')
        .map((cell) => cell.trim()),
    );
}

describe('security: docs/security.md lists every surface with an attack test that exists', () => {
  it('every surface row names a guard and at least one test file, and every named file exists', () => {
    const rows = SECTIONS.flatMap(tableRows);
    expect(rows.length).to.be.greaterThan(20);
    for (const [surface, attacker, guard, tests] of rows) {
      expect(attacker, surface).to.not.equal('');
      expect(guard, surface).to.not.equal('');
      const named = testFiles(tests ?? '');
      expect(named, `${surface} names no test`).to.not.be.empty;
      for (const file of named) expect(fs.existsSync(path.join(ROOT, file)), `${surface}: ${file}`).to.equal(true);
    }
  });

  it('every attack file in test/security/ is named on the page', () => {
    const named = new Set(testFiles(DOC));
    const files = fs.readdirSync(path.join(ROOT, 'test/security')).filter((f) => f.endsWith('.test.ts'));
    for (const file of files) expect(named.has(`test/security/${file}`), `test/security/${file}`).to.equal(true);
  });
});
