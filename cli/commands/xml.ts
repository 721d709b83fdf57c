/**
 * `chasqui xml PAYLOAD.json|DIR [--out DIR] [--pfx FILE --password PW]`: the documents library from the command
 * line. Each payload is validated, built and signed into `<filename>.xml`; an invalid one prints the 422 body of
 * spec 7.2. Without a PFX a throw-away test certificate signs (valid XMLDSig, not a certificate SUNAT knows).
 */
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../../core/config';
import { DocumentValidationError, prepareDocument } from '../../documents';
import { parseJsonPayload } from '../../documents/input/json';
import { createSigner, generateTestCertificate, loadPfx, signBuiltXml, type Signer } from '../../documents/signing';
import { toValidationResponse } from '../../documents/validation-response';

const USAGE = 'usage: chasqui xml PAYLOAD.json|DIR [--out DIR] [--pfx FILE --password PW]';

function inputFiles(target: string): string[] {
  if (!statSync(target).isDirectory()) return [target];
  return readdirSync(target)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => path.join(target, f));
}

function signerFrom(options: { pfx?: string; password?: string }): Signer | string {
  if (options.pfx === undefined) {
    console.error('chasqui xml: no --pfx given; signing with a generated test certificate');
    return createSigner(generateTestCertificate());
  }
  if (options.password === undefined) return '--pfx needs a file and --password its password';
  const loaded = loadPfx(readFileSync(options.pfx), options.password);
  return loaded.ok ? createSigner(loaded.certificate) : `cannot sign with ${options.pfx}: ${loaded.message}`;
}

function describe(totals: Record<string, string> | null): string {
  return totals
    ? Object.entries(totals)
        .map(([name, value]) => `${name}=${value}`)
        .join(' ')
    : '(none)';
}

/** Returns the exit code: 0 all signed, 1 some payload invalid, 2 usage or input problem. */
export async function xmlCommand(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        out: { type: 'string' },
        pfx: { type: 'string' },
        password: { type: 'string' },
        help: { type: 'boolean' },
      },
    });
  } catch (err) {
    console.error(`chasqui xml: ${(err as Error).message}\n${USAGE}`);
    return 2;
  }
  const { positionals: positional, values: options } = parsed;
  if (positional.length !== 1 || options.help) {
    console.error(USAGE);
    return 2;
  }
  let files: string[];
  try {
    files = inputFiles(positional[0]);
  } catch {
    console.error(`chasqui xml: ${positional[0]} does not exist\n${USAGE}`);
    return 2;
  }
  if (files.length === 0) {
    console.error(`chasqui xml: no .json files in ${positional[0]}`);
    return 2;
  }
  const signer = signerFrom(options);
  if (typeof signer === 'string') {
    console.error(`chasqui xml: ${signer}`);
    return 2;
  }
  // SUNAT's dated rules as this installation has them (CHASQUI_RULE_DATES): the same verdict the API would give.
  const config = loadConfig();
  const outDir = options.out ?? '.';
  mkdirSync(outDir, { recursive: true });
  const several = files.length > 1;
  let invalid = 0;
  for (const file of files) {
    const startedAt = Date.now();
    try {
      const prepared = prepareDocument(parseJsonPayload(readFileSync(file, 'utf8')), {
        calendar: config.rules,
        ruleWarnDays: config.ruleWarnDays,
      });
      const signed = signBuiltXml(prepared.xml, signer);
      const written = path.join(outDir, `${prepared.filename}.xml`);
      writeFileSync(written, signed.xml);
      console.log(`${prepared.filename}.xml  (${file} → ${written})`);
      console.log(`  hash     ${signed.hash}`);
      console.log(`  totals   ${describe(prepared.totals)}`);
      for (const warning of prepared.warnings) console.log(`  warning  ${warning}`);
    } catch (err) {
      if (!(err instanceof DocumentValidationError)) throw err;
      invalid++;
      if (several) console.log(`${file}: not issued (422)`);
      console.log(JSON.stringify(toValidationResponse(err, startedAt), null, 2));
    }
  }
  return invalid > 0 ? 1 : 0;
}
