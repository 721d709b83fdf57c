import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { SEARCH_ATTRIBUTES } from '../../workflows/search-attributes';

const deploy = path.resolve(__dirname, '../../deploy/temporal');

describe('deploy/temporal', () => {
  it('registers the search attributes the code defines, with their types (one list for create-namespace.sh)', () => {
    const listed = fs
      .readFileSync(path.join(deploy, 'search-attributes'), 'utf8')
      .split('\n')
      .filter((line) => line.trim() && !line.startsWith('#'))
      .map((line) => line.trim().split(/\s+/));
    // Temporal's CLI spells KEYWORD_LIST as KeywordList.
    const normal = (type: string) => type.replace(/_/g, '').toLowerCase();
    expect(listed.map(([name, type]) => `${name} ${normal(type)}`)).to.deep.equal(
      SEARCH_ATTRIBUTES.map((key) => `${key.name} ${normal(key.type)}`),
    );
  });

  it('runs the cluster with production dynamic config: no test-only cache bypass, eager activities, fairness', () => {
    const config = fs.readFileSync(path.join(deploy, 'development-sql.yaml'), 'utf8');
    expect(config).not.to.contain('forceSearchAttributesCacheRefreshOnRead');
    expect(config).to.match(/^system\.enableActivityEagerExecution:\n {2}- value: true$/m);
    expect(config).to.match(/^matching\.enableFairness:\n {2}- value: true$/m);
    expect(config).to.match(/^matching\.enableMigration:\n {2}- value: true$/m);
  });

  it('waits only through retry.sh, which is bounded (no pg_isready: the admin-tools image lacks it)', () => {
    for (const script of ['setup-postgres.sh', 'create-namespace.sh']) {
      const code = fs
        .readFileSync(path.join(deploy, script), 'utf8')
        .split('\n')
        .filter((line) => !line.trimStart().startsWith('#'))
        .join('\n');
      expect(code, script).not.to.match(/pg_isready|\buntil\b|\bwhile :/);
      expect(code, script).to.match(/retry\.sh"$/m);
      expect(code, script).to.match(/^ *retry "/m);
    }
    expect(fs.readFileSync(path.join(deploy, 'retry.sh'), 'utf8')).to.contain('DEPLOY_WAIT_SECONDS');
  });
});
