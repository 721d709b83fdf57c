/**
 * `npm run bench:validate`: what `chasqui validate` costs.
 *
 *   compile   preparing the adapted copy of SUNAT's XSL and compiling each rule set (xslt3 → SEF), into a fresh
 *             temporary cache: what a machine pays once per SUNAT release (BENCH_COMPILE=0 skips it and uses the
 *             user's cache, compiling there only what is missing)
 *   per step  median milliseconds per document of each step on the repository's samples: SUNAT's XSL by type
 *             (SaxonJS, compiled rules loaded), the signature (xmldsigjs), the XSD (xmllint-wasm, one batch per schema)
 *   batch     the whole validate() of every sample document at once, documents per second, over BENCH_ROUNDS rounds
 */
import fs from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig } from '../core/config';
import { Validator } from '../validator';
import { describeDocument } from '../validator/detect';
import { compiledRules, prepareRules, RULE_FILES, runRules } from '../validator/rules';
import { verifySignature } from '../validator/signature';
import { validateAgainstSchema } from '../validator/xsd';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SAMPLES = path.resolve(__dirname, '../sunat/samples');
const median = (values: number[]) => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)];
const ms = (n: number) => n.toFixed(n < 10 ? 2 : 0).padStart(8);

function xmlFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? xmlFiles(path.join(dir, e.name)) : e.name.endsWith('.xml') ? [path.join(dir, e.name)] : []));
}

async function main(): Promise<void> {
  const documents = ['golden', 'signed', 'signed-rsa-sha256', 'unsigned'].flatMap((d) => xmlFiles(path.join(SAMPLES, d))).map((file) => ({ file, xml: fs.readFileSync(file, 'utf8') }));
  console.log(`bench:validate  node ${process.version}  ${cpus()[0]?.model ?? ''}  ${documents.length} sample documents, ${ROUNDS} rounds`);

  const fresh = process.env.BENCH_COMPILE !== '0';
  const cacheDir = fresh ? fs.mkdtempSync(path.join(tmpdir(), 'chasqui-bench-validate-')) : loadConfig().validatorCacheDir;
  try {
    let t = performance.now();
    const rules = prepareRules(cacheDir);
    console.log(`\ncompile (${fresh ? 'fresh cache' : cacheDir})\nprepare the adapted copy of sunat/xsl     ${ms(performance.now() - t)} ms`);
    let total = 0;
    const sefs: Record<string, string> = {};
    for (const type of Object.keys(RULE_FILES)) {
      t = performance.now();
      sefs[type] = await compiledRules(rules, type);
      const took = performance.now() - t;
      total += took;
      console.log(`${`compile ${type.padEnd(3)} ${RULE_FILES[type]}`.padEnd(58)}${ms(took)} ms  ${(fs.statSync(sefs[type]).size / 1e6).toFixed(1)} MB`);
    }
    console.log(`${'compile, all types'.padEnd(58)}${ms(total)} ms`);

    const perType = new Map<string, number[]>();
    const sig: number[] = [];
    const facts = documents.map((d) => ({ ...d, facts: describeDocument(d.xml, d.file) }));
    for (let round = 0; round < ROUNDS; round++) {
      for (const d of facts) {
        const type = d.facts.type;
        if (type && sefs[type]) {
          t = performance.now();
          runRules(sefs[type], d.xml, d.facts.fileName);
          perType.set(type, [...(perType.get(type) ?? []), performance.now() - t]);
        }
        if (d.facts.hasSignature) {
          t = performance.now();
          await verifySignature(d.xml);
          sig.push(performance.now() - t);
        }
      }
    }
    console.log('\nper document (median of every document × round)');
    for (const [type, samples] of [...perType].sort()) console.log(`${`xsl ${type} (${samples.length / ROUNDS} documents)`.padEnd(58)}${ms(median(samples))} ms`);
    console.log(`${`signature (${sig.length / ROUNDS} signed documents)`.padEnd(58)}${ms(median(sig))} ms`);
    const invoices = facts.filter((d) => d.facts.schema === '2.1/maindoc/UBL-Invoice-2.1.xsd');
    const xsd: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      t = performance.now();
      await validateAgainstSchema('2.1/maindoc/UBL-Invoice-2.1.xsd', invoices.map((d, i) => ({ name: String(i), xml: d.xml })));
      xsd.push(performance.now() - t);
    }
    console.log(`${`xsd, one batch of ${invoices.length} invoices (per batch)`.padEnd(58)}${ms(median(xsd))} ms`);
    t = performance.now();
    await validateAgainstSchema('2.1/maindoc/UBL-Invoice-2.1.xsd', invoices.slice(0, 1).map((d) => ({ name: '0', xml: d.xml })));
    console.log(`${'xsd, one invoice alone'.padEnd(58)}${ms(performance.now() - t)} ms`);

    const validator = new Validator({ cacheDir });
    const batch: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      t = performance.now();
      await validator.validate(documents);
      batch.push(performance.now() - t);
    }
    const b = median(batch);
    console.log(`\nbatch: validate() of all ${documents.length} documents     ${ms(b)} ms  = ${((documents.length * 1000) / b).toFixed(1)} documents/s`);
  } finally {
    if (fresh) fs.rmSync(cacheDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
