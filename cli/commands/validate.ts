/**
 * `chasqui validate FILE.xml|DIR … [--json]`: SUNAT's checks that can run offline — XSD, SUNAT's own validation
 * rules (XSL) with the codes its CDR would carry, and the XMLDSig signature — on documents chasqui built or an
 * integrator signed. Output and exit status follow SUNAT's kit (docs/validator.md).
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../../core/config';
import { Validator, type ValidationReport } from '../../validator';
import { isRejected } from '../../lifecycle/transitions';

const USAGE = `usage: chasqui validate FILE.xml|DIR [FILE.xml|DIR …] [--json] [--require-signature]
                        [--name-from-content] [--no-xsd] [--no-xsl] [--no-sig] [-v]
  XSD, SUNAT's own validation rules (XSL, and the rules dated since by the document's issue date,
  moved by CHASQUI_RULE_DATES) and the XMLDSig signature, with the codes SUNAT's CDR would carry.
  Directories are searched for *.xml. Name files as they will be sent (RUC-TT-SERIE-NUMERO.xml):
  SUNAT's rules compare the name with the content. Exit 0: every file passed (xsd=ok,
  xsl=accepted|observed, sig=ok|none); 1: some file failed; 2: usage error or no .xml file. See
  docs/validator.md.
examples:
  chasqui validate 20123456786-01-F001-1.xml
  chasqui validate --json --require-signature out/ | jq 'select(.pass | not)'`;

/** Files named, and every *.xml below directories named, in a stable order. */
function collect(targets: string[]): string[] {
  const files: string[] = [];
  const walk = (dir: string, into: string[]) => {
    for (const entry of fs
      .readdirSync(dir, { withFileTypes: true })
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full, into);
      else if (entry.name.toLowerCase().endsWith('.xml')) into.push(full);
    }
  };
  for (const target of targets) {
    const stat = fs.statSync(target, { throwIfNoEntry: false });
    if (!stat) throw new Error(`no such file or directory: ${target}`);
    if (stat.isDirectory()) {
      const found: string[] = [];
      walk(target, found);
      files.push(...found.sort());
    } else files.push(target);
  }
  return files;
}

function xsdLabel(r: ValidationReport): string {
  return r.xsd + (r.xsd === 'ok' && r.xsd_note ? '(empty-ext-removed)' : '');
}

/** The verdict, with its codes when it has some. */
function xslLabel(r: ValidationReport): string {
  const observations = r.observations.join(',');
  const labels: Partial<Record<ValidationReport['xsl'], string>> = {
    observed: `observed(${observations})`,
    rejected: `rejected(${r.rejection})${observations ? `+obs(${observations})` : ''}`,
  };
  return labels[r.xsl] ?? r.xsl;
}

/** The lines under a file: why it failed (and, with -v, its observations and the name given to the XSL). */
function details(r: ValidationReport, verbose: boolean, requireSignature: boolean): string[] {
  const lines: string[] = [];
  if (r.problems.length) lines.push(...r.problems);
  else {
    if (r.xsd === 'fail') lines.push(...r.xsd_errors.slice(0, 3).map((e) => `xsd: ${e}`));
    if (r.xsd === 'n/a') lines.push(`no schema for document type ${r.type}`);
    if (r.xsl === 'n/a') lines.push(`no SUNAT validation XSL for document type ${r.type}`);
    if (isRejected(r.xsl)) lines.push(`xsl: ${r.rejection} ${r.rejection_message}`);
    // Every dated rule failed, not only the first (the rejection above): each is a fix before SUNAT answers it.
    for (const f of r.dated_rules.slice(r.rejection === r.dated_rules[0]?.code ? 1 : 0))
      lines.push(`rule ${f.rule}: ${f.code} ${f.message}`);
    if (r.xsl === 'error') lines.push(...r.xsl_errors.slice(0, 3).map((e) => `xsl: ${e}`));
    if (r.sig === 'fail') lines.push(...r.sig_errors.slice(0, 3).map((e) => `sig: ${e}`));
    if (r.sig === 'none' && requireSignature) lines.push('sig: no ds:Signature (required by --require-signature)');
  }
  if (verbose) {
    if (r.nombreArchivoEnviado) lines.push(`nombreArchivoEnviado=${r.nombreArchivoEnviado} (from ${r.name_source})`);
    if (r.xsd === 'ok' && r.xsd_note) lines.push(`xsd: ${r.xsd_note}`);
    lines.push(...r.observation_messages.map((m) => `obs: ${m}`));
  }
  return lines;
}

export async function validateCommand(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        json: { type: 'boolean' },
        'require-signature': { type: 'boolean' },
        'name-from-content': { type: 'boolean' },
        'no-xsd': { type: 'boolean' },
        'no-xsl': { type: 'boolean' },
        'no-sig': { type: 'boolean' },
        verbose: { type: 'boolean', short: 'v' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (err) {
    console.error(`chasqui validate: ${(err as Error).message}\n${USAGE}`);
    return 2;
  }
  const { positionals, values: o } = parsed;
  if (o.help) {
    console.log(USAGE);
    return 0;
  }
  if (positionals.length === 0) {
    console.error(USAGE);
    return 2;
  }
  let files: string[];
  try {
    files = collect(positionals);
  } catch (err) {
    console.error(`chasqui validate: ${(err as Error).message}`);
    return 2;
  }
  if (!files.length) {
    console.error('chasqui validate: no .xml files found');
    return 2;
  }
  const config = loadConfig();
  const requireSignature = o['require-signature'] ?? false;
  let lastProgress = Date.now();
  const validator = new Validator({
    cacheDir: config.validatorCacheDir,
    skip: { xsd: o['no-xsd'], xsl: o['no-xsl'], sig: o['no-sig'] },
    requireSignature,
    nameFromContent: o['name-from-content'],
    calendar: config.rules,
    onCompile: (type, file) =>
      console.error(
        `chasqui validate: compiling SUNAT's rules for ${type} (${file}) into ${config.validatorCacheDir}; once per SUNAT release, 2–13 s of CPU`,
      ),
    onProgress: (done, total) => {
      if (Date.now() - lastProgress < 3000) return;
      lastProgress = Date.now();
      console.error(`chasqui validate: ${done}/${total} files judged`);
    },
  });
  const documents = files.map((file) => ({ file, xml: fs.readFileSync(file, 'utf8') }));
  const reports = await validator.validate(documents);
  const failed = reports.filter((r) => !r.pass).length;
  if (o.json) {
    for (const r of reports) console.log(JSON.stringify(r));
  } else {
    const width = Math.min(Math.max(...reports.map((r) => r.file.length)), 72);
    for (const r of reports) {
      console.log(`${r.file.padEnd(width)}  xsd=${xsdLabel(r)}  xsl=${xslLabel(r)}  sig=${r.sig}`);
      if (!r.pass || o.verbose)
        for (const line of details(r, o.verbose ?? false, requireSignature)) console.log(`    ${line.slice(0, 300)}`);
    }
    console.error(`chasqui validate: ${reports.length} file(s), ${reports.length - failed} passed, ${failed} failed`);
  }
  return failed ? 1 : 0;
}
