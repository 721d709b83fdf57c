import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { AUDITED_ACTIONS } from '../../api/console/panel/company-words';

/** Every action the API's company functions write to the audit log has Spanish words in the panel's history. */
describe("the company history's words", function () {
  it('name every action written under api/companies and api/cpe', () => {
    const written = new Set<string>();
    for (const dir of ['api/companies', 'api/cpe']) {
      for (const file of fs.readdirSync(dir)) {
        const source = fs.readFileSync(path.join(dir, file), 'utf8');
        for (const m of source.matchAll(/'((?:company|token|webhook|document)\.[a-z_]+)'/g)) written.add(m[1]);
      }
    }
    expect(written.size).to.be.greaterThan(10);
    expect([...written].filter((action) => !AUDITED_ACTIONS.includes(action))).to.deep.equal([]);
  });
});
