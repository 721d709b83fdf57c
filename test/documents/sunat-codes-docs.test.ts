import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { codesDoing, handledWhy, sunatCode, type HandledAction } from '../../documents/sunat-codes';

const DOCS = path.resolve(__dirname, '../../docs/authority.md');
const ACTIONS: HandledAction[] = ['retry', 'query', 'credentials', 'send'];

/** docs/authority.md's table of the codes handled by name, as the catalog has them. */
function codesTable(): string {
  const rows = ACTIONS.flatMap((does) =>
    codesDoing(does).map((code) => {
      const c = sunatCode(code);
      return `| ${code} | ${c.answer ?? ''} | ${c.kind} | \`${does}\` | ${handledWhy(code)} |`;
    }),
  );
  return ["| code | SUNAT's text | kind | chasqui does | why |", '|---|---|---|---|---|', ...rows].join('\n');
}

describe('SUNAT codes: docs/authority.md shows the catalog', () => {
  it('the table of codes handled by name is the catalog’s', () => {
    const docs = fs.readFileSync(DOCS, 'utf8');
    const table = /<!-- sunat-codes:start -->\n([\s\S]*?)\n<!-- sunat-codes:end -->/.exec(docs)?.[1];
    if (process.env.WRITE_DOCS && table !== undefined) fs.writeFileSync(DOCS, docs.replace(table, codesTable()));
    expect(table, 'docs/authority.md differs from documents/sunat-codes.ts: rerun with WRITE_DOCS=1').to.equal(
      codesTable(),
    );
  });
});
