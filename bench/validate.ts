/**
 * `npm run bench:validate`: what `chasqui validate` costs.
 *
 *   compile   preparing the adapted copy of SUNAT's XSL and compiling each rule set (xslt3 → SEF), into a fresh
 *             temporary cache: what a machine pays once per SUNAT release (BENCH_COMPILE=0 skips it and uses the
 *             user's cache, compiling there only what is missing)
 *   per step  median milliseconds per document of each step on the repository's samples: SUNAT's XSL by type
 *             (SaxonJS, compiled rules loaded), the signature (xmldsigjs), the XSD (xmllint-wasm, one batch per schema)
 *   batch     the whole validate() of every sample document at once, documents per second, over BENCH_ROUNDS rounds
 *
 * Every figure is given as CPU time (this process and its threads; for the compiler, its child processes) besides
 * the wall clock: on the shared 2-core machine the wall clock mostly measures the neighbours.
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

/** CPU milliseconds of this process (all threads). */
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
/** CPU milliseconds of the child processes waited for (Linux: cutime + cstime of /proc/self/stat, in clock ticks). */
const childCpu = () => {
  const fields = fs.readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
  return (Number(fields[13]) + Number(fields[14])) * 10;
};

/** Wall and CPU milliseconds of one call. */
async function timed<T>(fn: () => T | Promise<T>, children = false): Promise<{ value: T; wall: number; cpu: number }> {
  const w = performance.now();
  const c = children ? childCpu() : cpu();
  const value = await fn();
  return { value, wall: performance.now() - w, cpu: (children ? childCpu() : cpu()) - c };
}

function xmlFiles(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) =>
      e.isDirectory() ? xmlFiles(path.join(dir, e.name)) : e.name.endsWith('.xml') ? [path.join(dir, e.name)] : [],
    );
}

async function main(): Promise<void> {
  const documents = ['golden', 'signed', 'signed-rsa-sha256', 'unsigned']
    .flatMap((d) => xmlFiles(path.join(SAMPLES, d)))
    .map((file) => ({ file, xml: fs.readFileSync(file, 'utf8') }));
  console.log(
    `bench:validate  node ${process.version}  ${cpus()[0]?.model ?? ''}  ${documents.length} sample documents, ${ROUNDS} rounds`,
  );

  const fresh = process.env.BENCH_COMPILE !== '0';
  const cacheDir = fresh
    ? fs.mkdtempSync(path.join(tmpdir(), 'chasqui-bench-validate-'))
    : loadConfig().validatorCacheDir;
  try {
    const prep = await timed(() => prepareRules(cacheDir));
    const rules = prep.value;
    console.log(`\ncompile (${fresh ? 'fresh cache' : cacheDir})${' '.repeat(40)}  wall ms    CPU ms`);
    console.log(`${'prepare the adapted copy of sunat/xsl'.padEnd(62)}${ms(prep.wall)}  ${ms(prep.cpu)}`);
    let wall = 0;
    let cpuTotal = 0;
    const sefs: Record<string, string> = {};
    for (const type of Object.keys(RULE_FILES)) {
      const c = await timed(() => compiledRules(rules, type), true);
      sefs[type] = c.value;
      wall += c.wall;
      cpuTotal += c.cpu;
      console.log(
        `${`compile ${type.padEnd(3)} ${RULE_FILES[type]}`.padEnd(62)}${ms(c.wall)}  ${ms(c.cpu)}  ${(fs.statSync(c.value).size / 1e6).toFixed(1)} MB`,
      );
    }
    console.log(`${'compile, all types'.padEnd(62)}${ms(wall)}  ${ms(cpuTotal)}`);

    const perType = new Map<string, number[]>();
    const sig: number[] = [];
    const facts = documents.map((d) => ({ ...d, facts: describeDocument(d.xml, d.file) }));
    for (const type of Object.keys(sefs)) runRules(sefs[type], '<x/>', 'x.xml'); // load every SEF before timing
    for (let round = 0; round < ROUNDS; round++) {
      for (const d of facts) {
        const type = d.facts.type;
        if (type && sefs[type]) {
          const r = await timed(() => runRules(sefs[type], d.xml, d.facts.fileName));
          perType.set(type, [...(perType.get(type) ?? []), r.cpu]);
        }
        if (d.facts.hasSignature) sig.push((await timed(() => verifySignature(d.xml))).cpu);
      }
    }
    console.log('\nper document, CPU ms (median of every document × round)');
    for (const [type, samples] of [...perType].sort())
      console.log(`${`xsl ${type} (${samples.length / ROUNDS} documents)`.padEnd(62)}${ms(median(samples))}`);
    console.log(`${`signature (${sig.length / ROUNDS} signed documents)`.padEnd(62)}${ms(median(sig))}`);
    const invoices = facts.filter((d) => d.facts.schema === '2.1/maindoc/UBL-Invoice-2.1.xsd');
    const xsd: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      xsd.push(
        (
          await timed(() =>
            validateAgainstSchema(
              '2.1/maindoc/UBL-Invoice-2.1.xsd',
              invoices.map((d, i) => ({ name: String(i), xml: d.xml })),
            ),
          )
        ).cpu,
      );
    }
    console.log(`${`xsd, one batch of ${invoices.length} invoices (per batch)`.padEnd(62)}${ms(median(xsd))}`);
    const one = await timed(() =>
      validateAgainstSchema(
        '2.1/maindoc/UBL-Invoice-2.1.xsd',
        invoices.slice(0, 1).map((d) => ({ name: '0', xml: d.xml })),
      ),
    );
    console.log(`${'xsd, one invoice alone'.padEnd(62)}${ms(one.cpu)}`);

    const validator = new Validator({ cacheDir });
    const batch: { wall: number; cpu: number }[] = [];
    for (let round = 0; round < ROUNDS; round++) batch.push(await timed(() => validator.validate(documents)));
    const b = { wall: median(batch.map((x) => x.wall)), cpu: median(batch.map((x) => x.cpu)) };
    console.log(
      `\nbatch: validate() of all ${documents.length} documents: wall ${b.wall.toFixed(0)} ms (${((documents.length * 1000) / b.wall).toFixed(1)} documents/s), CPU ${b.cpu.toFixed(0)} ms (${((documents.length * 1000) / b.cpu).toFixed(1)} documents per CPU-second)`,
    );
  } finally {
    if (fresh) fs.rmSync(cacheDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
