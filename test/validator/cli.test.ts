import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { prepareDocument } from '../../documents';
import { RuleCalendar } from '../../documents/calendar';
import { createSigner, generateTestCertificate, signBuiltXml } from '../../documents/signing';
import { testValidator } from '../support/validator';

const ROOT = path.resolve(__dirname, '../..');
const SAMPLES = path.join(ROOT, 'sunat/samples');

function chasqui(...args: string[]) {
  return chasquiWith({}, ...args);
}

function chasquiWith(env: NodeJS.ProcessEnv, ...args: string[]) {
  const run = spawnSync(process.execPath, [path.join(ROOT, 'bin/chasqui'), 'validate', ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, ...env },
  });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

describe('chasqui validate (the command integrators run)', function () {
  this.timeout(600_000);
  const dir = mkdtempSync(path.join(tmpdir(), 'chasqui-validate-'));

  before(async () => {
    await testValidator().compile(['01', '03', '07', '08', 'RA', 'RC']);
  });

  it("prints one line per file with SUNAT's codes, the reasons of a failure, a count, and exits 1 when one fails", () => {
    const run = chasqui('sunat/samples/signed-rsa-sha256');
    expect(run.status).to.equal(1);
    const lines = run.stdout.trim().split('\n');
    expect(lines[0]).to.match(
      /^sunat\/samples\/signed-rsa-sha256\/12345678912-01-F001-1\.xml\s+xsd=ok {2}xsl=accepted {2}sig=ok$/,
    );
    expect(run.stdout).to.match(
      /12345678912-03-BB50-1\.xml\s+xsd=ok {2}xsl=rejected\(3128\) {2}sig=ok\n {4}xsl: 3128 INFO : errorCode 3128 \(nodo: "cac:PaymentTerms\/cbc:PaymentMeansID" valor: "Contado"\)/,
    );
    expect(run.stdout).to.match(/12345678912-RC-20191224-1\.xml\s+xsd=ok {2}xsl=observed\(4027\) {2}sig=ok/);
    expect(run.stderr.trim().split('\n').at(-1)).to.equal('chasqui validate: 7 file(s), 6 passed, 1 failed');
  });

  it("--json: one object per file with the fields of SUNAT's kit; exit 0 when all pass", () => {
    const run = chasqui('--json', path.join(SAMPLES, 'signed-rsa-sha256/12345678912-RA-20220131-1.xml'));
    expect(run.status).to.equal(0);
    const report = JSON.parse(run.stdout);
    expect(report).to.deep.include({
      type: 'RA',
      schema: '2.0/maindoc/UBLPE-VoidedDocuments-1.0.xsd',
      xsl_file: 'ValidaExprRegSummaryVoided-1.0.1.xsl',
      nombreArchivoEnviado: '12345678912-RA-20220131-1.xml',
      name_source: 'file name',
      xsd: 'ok',
      xsl: 'accepted',
      sig: 'ok',
      pass: true,
    });
  });

  it('says what is wrong with a tampered, an unsigned (--require-signature) and a broken file', () => {
    const signed = readFileSync(path.join(SAMPLES, 'signed-rsa-sha256/12345678912-01-FF11-1.xml'), 'utf8');
    writeFileSync(
      path.join(dir, '12345678912-01-FF11-1.xml'),
      signed.replace('<cbc:PayableAmount currencyID="PEN">', '<cbc:PayableAmount currencyID="PEN">1'),
    );
    writeFileSync(
      path.join(dir, 'unsigned.xml'),
      readFileSync(path.join(SAMPLES, 'golden/renderer/invoice/InvoiceTest/icb.xml'), 'utf8'),
    );
    writeFileSync(path.join(dir, 'broken.xml'), '<Invoice><cbc:ID>');
    const run = chasqui('--require-signature', dir);
    expect(run.status).to.equal(1);
    expect(run.stdout).to.include('sig: digest mismatch: the signed content was changed after signing');
    expect(run.stdout).to.match(
      /unsigned\.xml\s+xsd=ok\(empty-ext-removed\) {2}xsl=accepted {2}sig=none\n {4}sig: no ds:Signature \(required by --require-signature\)/,
    );
    expect(run.stdout).to.match(/broken\.xml\s+xsd=fail {2}xsl=error {2}sig=n\/a\n {4}not well-formed XML/);
  });

  it("judges SUNAT's dated rules on the issue date, with the dates CHASQUI_RULE_DATES gives", () => {
    // The sample invoice (2019-12-24) has no product code on its lines: SUNAT's rows judge a code only when it is there
    // (Factura2_0 field 28, "Si el tag existe"), so product-code-valid moved to its day finds nothing.
    const sample = 'sunat/samples/signed-rsa-sha256/12345678912-01-F001-1.xml';
    const absent = chasquiWith({ CHASQUI_RULE_DATES: 'product-code-valid=2019-12-24' }, '--json', sample);
    expect(absent.status, absent.stdout).to.equal(0);
    expect(JSON.parse(absent.stdout)).to.deep.include({ xsl: 'accepted', dated_rules: [], pass: true });

    // An invoice whose second line carries a code catalog 25 does not list: 3496 from the rule's date, not the day before.
    const base = JSON.parse(readFileSync(path.join(ROOT, 'test/fixtures/documents/invoice-decimals.json'), 'utf8'));
    const payload = {
      ...base,
      fechaEmision: '2026-11-20',
      items: base.items.map((it: object, i: number) => (i === 1 ? { ...it, codigoSunat: '12345678' } : it)),
    };
    const prepared = prepareDocument(payload);
    const signer = createSigner(generateTestCertificate({ ruc: payload.emisor.ruc }));
    const coded = mkdtempSync(path.join(tmpdir(), 'chasqui-validate-code-'));
    const file = path.join(coded, `${prepared.filename}.xml`);
    writeFileSync(file, signBuiltXml(prepared.xml, signer).xml);
    const judged = chasquiWith({ CHASQUI_RULE_DATES: 'product-code-valid=2026-11-20' }, file);
    expect(judged.status).to.equal(1);
    expect(judged.stdout).to.match(
      /xsl=rejected\(3496\)\+obs\(4332\) {2}sig=ok\n {4}xsl: 3496 line 2: 12345678 is not in catalog 25 \(nor 00000000 or 99999999\); SUNAT's product code is not valid since 2026-11-20 \(rule product-code-valid\)/,
    );
    const json = JSON.parse(
      chasquiWith({ CHASQUI_RULE_DATES: 'product-code-valid=2026-11-20' }, '--json', file).stdout,
    );
    expect(
      json.dated_rules.map((f: { rule: string; code: string; path: string }) => `${f.rule} ${f.code} ${f.path}`),
    ).to.deep.equal(['product-code-valid 3496 InvoiceLine[2]/Item/CommodityClassification/ItemClassificationCode']);
    // The day before: SUNAT's 2024 XSL observes the code (4332), which the 202 announced; the document passes.
    const before = JSON.parse(
      chasquiWith({ CHASQUI_RULE_DATES: 'product-code-valid=2026-11-21' }, '--json', file).stdout,
    );
    expect(before).to.deep.include({ xsl: 'observed', dated_rules: [], pass: true });
    expect(before.observations).to.include('4332');
    expect(prepared.warnings.some((w) => w.startsWith('[SUNAT 4332] items[1].codigoSunat'))).to.equal(true);
  });

  it("judges guides by SUNAT's 2025–2026 GRE rules: public transport without the handover date is 3617", () => {
    const guide = JSON.parse(
      readFileSync(path.join(ROOT, 'test/fixtures/documents/gre-09-venta-publico.json'), 'utf8'),
    );
    const signer = createSigner(generateTestCertificate({ ruc: guide.emisor.ruc }));
    const gre = mkdtempSync(path.join(tmpdir(), 'chasqui-validate-gre-'));
    // Built with the rule moved away: chasqui itself refuses the second one, SUNAT's XSL must too.
    const lenient = { calendar: new RuleCalendar({ 'gre-loading-date': '2099-01-01' }) };
    for (const [correlativo, handover] of [
      ['1', '2026-06-15'],
      ['2', null],
    ] as const) {
      const payload = {
        ...guide,
        correlativo,
        fechaEmision: '2026-06-15',
        envio: { ...guide.envio, fechaInicio: '2026-06-15', fechaEntregaTransportista: handover ?? undefined },
      };
      const prepared = prepareDocument(payload, lenient);
      writeFileSync(path.join(gre, `${prepared.filename}.xml`), signBuiltXml(prepared.xml, signer).xml);
    }
    const run = chasqui(gre);
    expect(run.status, run.stderr).to.equal(1);
    expect(run.stdout).to.match(/-09-T001-1\.xml\s+xsd=ok {2}xsl=accepted {2}sig=ok/);
    expect(run.stdout).to.match(/-09-T001-2\.xml\s+xsd=ok {2}xsl=rejected\(3617\) {2}sig=ok/);
  });

  it('exits 2 with the usage or the problem for a wrong call', () => {
    expect(chasqui()).to.deep.include({ status: 2 });
    expect(chasqui().stderr).to.match(/^usage: chasqui validate FILE\.xml\|DIR/);
    const missing = chasqui('no-such-file.xml');
    expect(missing).to.deep.include({
      status: 2,
      stderr: 'chasqui validate: no such file or directory: no-such-file.xml\n',
    });
    expect(chasqui(path.join(ROOT, 'docs'))).to.deep.include({
      status: 2,
      stderr: 'chasqui validate: no .xml files found\n',
    });
    expect(chasqui('--bogus', 'x.xml').status).to.equal(2);
  });
});
