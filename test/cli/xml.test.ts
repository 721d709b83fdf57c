import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { generateTestCertificate, loadPfx, verifyXmlSignature } from '../../documents/signing';

const ROOT = path.resolve(__dirname, '../..');
const FIXTURES = path.join(ROOT, 'test/fixtures/documents');

/** Runs `chasqui xml` through the real bin entry, and returns what a person would see. */
function chasquiXml(...args: string[]) {
  return chasquiXmlWith({}, ...args);
}

function chasquiXmlWith(env: Record<string, string>, ...args: string[]) {
  const run = spawnSync(process.execPath, [path.join(ROOT, 'bin/chasqui'), 'xml', ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, ...env },
  });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

describe('chasqui xml', function () {
  this.timeout(60_000);
  const work = mkdtempSync(path.join(tmpdir(), 'chasqui-xml-'));

  it('writes the signed <filename>.xml and prints filename, hash and totals', () => {
    const out = path.join(work, 'single');
    const run = chasquiXml(path.join(FIXTURES, 'gre-09-venta-privado.json'), '--out', out);
    expect(run.code, run.stderr).to.equal(0);
    expect(run.stderr).to.include('generated test certificate');
    const xml = readFileSync(path.join(out, '20123456786-09-T001-102.xml'), 'utf8');
    const check = verifyXmlSignature(xml);
    expect(check.ok).to.equal(true);
    expect(run.stdout).to.include('20123456786-09-T001-102.xml');
    expect(run.stdout).to.include(`hash     ${check.digest}`);
    expect(run.stdout).to.include('totals   (none)');
  });

  it('signs with the given PFX', () => {
    const certificate = generateTestCertificate({ ruc: '20123456786' });
    const pfx = path.join(work, 'company.pfx');
    writeFileSync(pfx, certificate.pfx('clave-secreta'));
    const out = path.join(work, 'pfx');
    const run = chasquiXml(
      path.join(FIXTURES, 'gre-31-basico.json'),
      '--out',
      out,
      '--pfx',
      pfx,
      '--password',
      'clave-secreta',
    );
    expect(run.code, run.stderr).to.equal(0);
    const loaded = loadPfx(certificate.pfx('p'), 'p');
    const check = verifyXmlSignature(readFileSync(path.join(out, '20477777776-31-V001-1.xml'), 'utf8'));
    expect(check.ok).to.equal(true);
    expect(check.certificateBase64).to.equal(loaded.ok && loaded.certificate.certificateBase64);
  });

  it('refuses a PFX with the wrong password before signing anything', () => {
    const pfx = path.join(work, 'other.pfx');
    writeFileSync(pfx, generateTestCertificate().pfx('right'));
    const run = chasquiXml(
      path.join(FIXTURES, 'gre-31-basico.json'),
      '--out',
      path.join(work, 'nothing'),
      '--pfx',
      pfx,
      '--password',
      'wrong',
    );
    expect(run.code).to.equal(2);
    expect(run.stderr).to.include('the password does not open this certificate file');
  });

  it('prints the 422 body of spec 7.2 for an invalid payload and exits 1', () => {
    const { payload, errors } = JSON.parse(
      readFileSync(path.join(FIXTURES, 'invalid/gre-09-publico-sin-transportista.json'), 'utf8'),
    );
    const file = path.join(work, 'invalid.json');
    writeFileSync(file, JSON.stringify(payload));
    const run = chasquiXml(file, '--out', path.join(work, 'invalid-out'));
    expect(run.code).to.equal(1);
    const body = JSON.parse(run.stdout);
    expect(body).to.include({ success: false, origin: 'validation', action: 'correct', reached_sunat: false });
    expect(body.errors).to.deep.equal(errors.map((e: { error: string }) => e.error));
    expect(body.message).to.equal(`The document was not issued: ${errors[0].error}`);
    expect(body.details[0]).to.include({ code: '2558', path: 'envio.transportista' });
    expect(body.time).to.be.a('number');
  });

  it('reports malformed JSON with line, column and snippet', () => {
    const file = path.join(work, 'broken.json');
    writeFileSync(file, '{\n  "tipoDoc": "09",\n  "serie": "T001"\n  "correlativo": "1"\n}');
    const run = chasquiXml(file);
    expect(run.code).to.equal(1);
    expect(JSON.parse(run.stdout).details).to.deep.equal([
      {
        code: 'SYNTAX',
        message: `The body is not valid JSON (line 4, column 3): expected ',' or '}' after a property value but found "\\""`,
        path: null,
        line: 4,
        col: 3,
        snippet: '  "correlativo": "1"',
      },
    ]);
  });

  it('processes every .json of a directory, naming the ones it could not issue', () => {
    const dir = mkdtempSync(path.join(work, 'batch-'));
    for (const name of ['gre-09-compra.json', 'gre-09-otros.json', 'gre-31-basico.json']) {
      writeFileSync(path.join(dir, name), readFileSync(path.join(FIXTURES, name)));
    }
    writeFileSync(path.join(dir, 'zz-broken.json'), '{');
    const out = path.join(work, 'batch-out');
    const run = chasquiXml(dir, '--out', out);
    expect(run.code).to.equal(1);
    expect(readdirSync(out).sort()).to.deep.equal([
      '20123456786-09-T001-104.xml',
      '20123456786-09-T001-106.xml',
      '20477777776-31-V001-1.xml',
    ]);
    expect(run.stdout).to.include(`${path.join(dir, 'zz-broken.json')}: not issued (422)`);
  });

  it('issues the percepción, detracción, retención, percepción (40) and liquidación de compra examples, signed', () => {
    const dir = mkdtempSync(path.join(work, 'operations-'));
    const examples = [
      'invoice-perception',
      'invoice-detraction-1002',
      'invoice-detraction-1003',
      'invoice-detraction-1004',
      'retention',
      'perception',
      'liquidacion-compra',
    ];
    for (const name of examples)
      writeFileSync(path.join(dir, `${name}.json`), readFileSync(path.join(FIXTURES, `${name}.json`)));
    const out = path.join(work, 'operations-out');
    const run = chasquiXml(dir, '--out', out);
    expect(run.code, run.stderr).to.equal(0);
    const files = readdirSync(out).sort();
    expect(files).to.deep.equal([
      '20123456786-01-F001-401.xml',
      '20123456786-01-F001-402.xml',
      '20123456786-01-F001-403.xml',
      '20123456786-01-F001-404.xml',
      '20123456786-04-L001-15.xml',
      '20123456786-20-R001-27.xml',
      '20123456786-40-P001-9.xml',
    ]);
    for (const file of files)
      expect(verifyXmlSignature(readFileSync(path.join(out, file), 'utf8')).ok, file).to.equal(true);
    expect(run.stdout).to.include('totals   TotalInvoiceAmount=181.95 SUNATTotalPaid=5883.10');
    expect(run.stdout).to.include('totals   TotalInvoiceAmount=161.70 SUNATTotalCashed=8246.68');
  });

  it('explains its usage', () => {
    const run = chasquiXml();
    expect(run.code).to.equal(2);
    expect(run.stderr).to.include('usage: chasqui xml PAYLOAD.json|DIR');
  });

  it('judges with CHASQUI_RULE_DATES, as the API of that installation would', () => {
    // invoice-igv-10-reduced-rate (2024-03-15) at 10 %: the special rate of its date, until mype-rate-2026 reaches it.
    const file = path.join(FIXTURES, 'invoice-igv-10-reduced-rate.json');
    const out = path.join(work, 'rules');
    expect(chasquiXml(file, '--out', out).code).to.equal(0);
    const moved = chasquiXmlWith({ CHASQUI_RULE_DATES: 'mype-rate-2026=2024-01-01' }, file, '--out', out);
    expect(moved.code).to.equal(1);
    expect(JSON.parse(moved.stdout).errors[0]).to.equal(
      '[SUNAT 3103] porcentajeIgv 10 is not an IGV rate of a document issued on 2024-03-15: that date allows 18, or 10.5 (the special rate of MYPE restaurants and hotels)',
    );
  });
});
