import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { expect } from 'chai';
import { RULES } from '../../documents/calendar';
import { sheetRow } from '../../validator/sheets';

const ROOT = path.resolve(__dirname, '../..');

describe('chasqui rules --json: each rule with its citation', function () {
  this.timeout(60_000);

  it("names the rows of SUNAT's sheets each rule applies, their code and severity, and its date's source", () => {
    const env = { ...process.env };
    delete env.CHASQUI_RULE_DATES;
    const run = spawnSync(process.execPath, [path.join(ROOT, 'bin/chasqui'), 'rules', '--json'], {
      cwd: ROOT,
      encoding: 'utf8',
      env,
    });
    expect(run.status, run.stderr).to.equal(0);
    const rows = JSON.parse(run.stdout) as {
      id: string;
      confidence: string;
      citation: { rows: { file: string; row: number; code: string; severity: string }[]; date: string } | null;
    }[];
    expect(rows.map((r) => r.id)).to.have.members(RULES.map((r) => r.id));
    const loading = rows.find((r) => r.id === 'gre-loading-date')!.citation!;
    expect(loading.rows.map((r) => `${r.file}:${r.row}:${r.code}:${r.severity}`)).to.deep.equal([
      'revisions:1:3617:ERROR',
      'revisions:2:3619:ERROR',
      'revisions:3:3618:ERROR',
    ]);
    expect(loading.date).to.match(/greenter issue #269/);
    // What the citation names is in the carried table.
    for (const r of rows.flatMap((row) => row.citation?.rows ?? []))
      expect(sheetRow(r.file, r.row)?.codes, `${r.file} row ${r.row}`).to.include(r.code);
  });
});
