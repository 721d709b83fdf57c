import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { RULES } from '../../documents/calendar';
import { freePort } from '../../runtime/ports';
import { logLines, spawnChasqui, stopChasqui } from '../support/chasqui-process';

const ROOT = path.resolve(__dirname, '../..');

/** Runs `chasqui rules` through the real bin entry, with CHASQUI_RULE_DATES as given, and returns what a person sees. */
function chasquiRules(args: string[], ruleDates?: string, more: NodeJS.ProcessEnv = {}) {
  const env = { ...process.env, ...more };
  delete env.CHASQUI_RULE_DATES;
  if (ruleDates !== undefined) env.CHASQUI_RULE_DATES = ruleDates;
  const run = spawnSync(process.execPath, [path.join(ROOT, 'bin/chasqui'), 'rules', ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    env,
  });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

const statusOf = (stdout: string, id: string) =>
  (JSON.parse(stdout) as { id: string; status: string }[]).find((r) => r.id === id)!.status;

describe('chasqui rules', function () {
  this.timeout(60_000);

  it('prints the calendar in 100 columns: id, date, status at the date and what, wrapped under itself', () => {
    const run = chasquiRules(['--at', '2026-12-31']);
    expect(run.code, run.stderr).to.equal(0);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines[0]).to.equal("SUNAT's rules for documents issued on 2026-12-31 (--at for another date)");
    expect(lines[2]).to.match(/^ID\s+EFFECTIVE\s+STATUS\s+WHAT$/);
    expect(
      lines.filter((l) => l.length > 100),
      'lines over 100 columns',
    ).to.deep.equal([]);
    expect(lines.find((l) => l.startsWith('product-code-valid'))).to.match(
      /^product-code-valid\s+2027-01-01\s+upcoming\s+A line's SUNAT product code, when present/,
    );
    // A summary too long for one line goes on under its own column, every word of it kept.
    const what = lines[2].indexOf('WHAT');
    const gre = lines.findIndex((l) => l.startsWith('gre-loading-date'));
    expect(lines[gre]).to.match(/\s+2026-06-01\s+in force\s/);
    const continued = lines.slice(gre + 1).filter((_, i, all) => all.slice(0, i + 1).every((l) => /^\s/.test(l)));
    expect(continued.length).to.be.greaterThan(0);
    for (const l of continued) expect(l.slice(0, what).trim()).to.equal('');
    const summary = RULES.find((r) => r.id === 'gre-loading-date')!.summary;
    const wrapped = [lines[gre].slice(what), ...continued.map((l) => l.slice(what))].join(' ');
    expect(wrapped.replace(/\/ /g, '/')).to.equal(summary);
    for (const rule of RULES) expect(run.stdout).to.include(rule.id);
    expect(lines.at(-1)).to.equal('confidence, SUNAT codes and sources: chasqui rules --wide (or --json)');
  });

  it('--wide adds confidence, codes and each source, one line per rule', () => {
    const run = chasquiRules(['--wide', '--at', '2026-12-31']);
    expect(run.code, run.stderr).to.equal(0);
    const lines = run.stdout.split('\n');
    expect(lines[2]).to.match(/^ID\s+EFFECTIVE\s+STATUS\s+CONFIDENCE\s+CODES\s+WHAT$/);
    expect(lines.find((l) => l.startsWith('gre-loading-date'))).to.match(
      /\s+2026-06-01\s+in force\s+sure\s+3617,3618,3619\s+Guides by public transport/,
    );
    expect(run.stdout).to.include("source: SUNAT 'Reglas de validación' 2026-04-24");
    expect(run.stdout).to.not.include('chasqui rules --wide');
    expect(run.stdout).to.include('source: SUNAT Validacionesv20260212 Factura2_0 field 28');
    for (const rule of RULES) expect(run.stdout).to.include(rule.id);
  });

  it('--json prints an array with id, effective, status, codes, summary and source; --at decides the status', () => {
    const before = chasquiRules(['--json', '--at', '2026-12-31']);
    expect(before.code, before.stderr).to.equal(0);
    const rows = JSON.parse(before.stdout) as Record<string, unknown>[];
    expect(rows.map((r) => r.id)).to.have.members(RULES.map((r) => r.id));
    for (const row of rows)
      expect(row).to.include.keys('id', 'effective', 'status', 'codes', 'summary', 'source', 'confidence');
    expect(rows.find((r) => r.id === 'mype-rate-2027')).to.deep.include({
      effective: '2027-01-01',
      status: 'upcoming',
      codes: ['3103'],
      moved: false,
    });
    expect(statusOf(chasquiRules(['--json', '--at', '2027-01-01']).stdout, 'mype-rate-2027')).to.equal('in force');
  });

  it('shows dates moved by CHASQUI_RULE_DATES, marked, with the shipped date', () => {
    const run = chasquiRules(['--at', '2027-01-01'], 'product-code-valid=2027-07-01');
    expect(run.code, run.stderr).to.equal(0);
    expect(run.stdout).to.match(/^product-code-valid\s+2027-07-01\*\s+upcoming/m);
    expect(run.stdout).to.include('* moved by CHASQUI_RULE_DATES (shipped: product-code-valid 2027-01-01)');
    const json = JSON.parse(
      chasquiRules(['--json', '--at', '2027-01-01'], 'product-code-valid=2027-07-01').stdout,
    ) as Record<string, unknown>[];
    expect(json.find((r) => r.id === 'product-code-valid')).to.deep.include({
      effective: '2027-07-01',
      default_effective: '2027-01-01',
      moved: true,
      status: 'upcoming',
    });
  });

  it('shows a reported rule switched off (id=off) with status off, in the table and in --json', () => {
    const run = chasquiRules(['--at', '2027-06-01'], 'product-code-valid=off');
    expect(run.code, run.stderr).to.equal(0);
    expect(run.stdout).to.match(/^product-code-valid\s+2027-01-01\s+off\s/m);
    const json = JSON.parse(chasquiRules(['--json', '--at', '2027-06-01'], 'product-code-valid=off').stdout) as Record<
      string,
      unknown
    >[];
    expect(json.find((r) => r.id === 'product-code-valid')).to.deep.include({ off: true, status: 'off' });
    expect(json.find((r) => r.id === 'summary-v2')).to.deep.include({ off: false, status: 'in force' });
    const sure = chasquiRules([], 'gre-loading-date=off');
    expect(sure.code).to.equal(1);
    expect(sure.stderr).to.include("rule 'gre-loading-date' is read in SUNAT's own files or the law");
  });

  it('names the catalog 25 product codes are judged with: the one carried, or the file of CHASQUI_PRODUCT_CODES', () => {
    const carried = chasquiRules([]);
    expect(carried.stdout).to.include(
      'catalog 25 (product codes): sunat/codes/catalogos/cat_25.csv as chasqui carries it, 53,316 codes',
    );
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'chasqui-cat25-')), 'cat_25.csv');
    try {
      writeFileSync(file, 'id,descripcion\n43211503,Computadores\n90101501,Restaurantes\n');
      const own = chasquiRules([], undefined, { CHASQUI_PRODUCT_CODES: file });
      expect(own.code, own.stderr).to.equal(0);
      expect(own.stdout.replace(/\n(?!\n|confidence)/g, ' ')).to.include(
        `catalog 25 (product codes): ${file} (CHASQUI_PRODUCT_CODES), 2 codes`,
      );
      writeFileSync(file, '4321150\n');
      const bad = chasquiRules([], undefined, { CHASQUI_PRODUCT_CODES: file });
      expect(bad.code).to.equal(1);
      expect(bad.stderr).to.include(`CHASQUI_PRODUCT_CODES: ${file} line 1: a code of catalog 25 is 8 digits`);
    } finally {
      rmSync(path.dirname(file), { recursive: true, force: true });
    }
  });

  it('a process that judges documents logs at start-up each rule switched off or moved and each rate changed', async () => {
    // Nothing reachable behind it: the lines come before the api waits for PostgreSQL and Temporal.
    const [apiPort, dbPort, temporalPort] = [await freePort(), await freePort(), await freePort()];
    const api = await spawnChasqui(
      ['api'],
      {
        ...process.env,
        NODE_ENV: 'production',
        LOG_LEVEL: 'info',
        PORT: String(apiPort),
        HOST: '127.0.0.1',
        DATABASE_URL: `postgres://chasqui@127.0.0.1:${dbPort}/chasqui`,
        TEMPORAL_ADDRESS: `127.0.0.1:${temporalPort}`,
        CHASQUI_MASTER_KEY: randomBytes(32).toString('base64'),
        CHASQUI_RULE_DATES: 'product-code-valid=off,summary-v2=2027-03-01',
        CHASQUI_IGV_RATES: 'mype-rate-2027=14',
        CHASQUI_PRODUCT_CODES: path.join(ROOT, 'sunat/codes/catalogos/cat_25.csv'),
      },
      'chasqui api listening',
    );
    let lines: ReturnType<typeof logLines>;
    try {
      lines = logLines(api.output());
    } finally {
      await stopChasqui(api.child);
    }
    const catalog = path.join(ROOT, 'sunat/codes/catalogos/cat_25.csv');
    expect(
      lines
        .filter((l) => l.product_codes !== undefined)
        .map(({ product_codes, count, msg }) => ({ product_codes, count, msg })),
    ).to.deep.equal([
      {
        product_codes: catalog,
        count: 53_316,
        msg: `catalog 25 is read from CHASQUI_PRODUCT_CODES: ${catalog}, 53316 codes`,
      },
    ]);
    const said = lines.filter((l) => l.rule !== undefined || l.igv_rates !== undefined);
    expect(
      said.map(({ rule, off, effective, igv_rates, msg }) => ({ rule, off, effective, igv_rates, msg })),
    ).to.deep.equal([
      {
        rule: 'product-code-valid',
        off: true,
        effective: undefined,
        igv_rates: undefined,
        msg: 'SUNAT rule product-code-valid is switched off by CHASQUI_RULE_DATES: it judges no document',
      },
      {
        rule: 'summary-v2',
        off: undefined,
        effective: '2027-03-01',
        igv_rates: undefined,
        msg: 'SUNAT rule summary-v2 is moved by CHASQUI_RULE_DATES to 2027-03-01',
      },
      {
        rule: undefined,
        off: undefined,
        effective: undefined,
        igv_rates: { 'mype-rate-2027': 14 },
        msg: 'the special IGV rate is set by CHASQUI_IGV_RATES: mype-rate-2027=14',
      },
    ]);
  });

  it('exits 2 on a bad --at, and 1 naming the id when CHASQUI_RULE_DATES has a typo', () => {
    const badDate = chasquiRules(['--at', '2027-02-30']);
    expect(badDate.code).to.equal(2);
    expect(badDate.stderr).to.include("--at needs a date YYYY-MM-DD, got '2027-02-30'");
    const typo = chasquiRules([], 'product-code-requred=2027-07-01');
    expect(typo.code).to.equal(1);
    expect(typo.stderr).to.include("CHASQUI_RULE_DATES: unknown rule 'product-code-requred'");
  });
});
