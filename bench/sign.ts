/**
 * `npm run bench:sign`: documents per second for build + sign of a factura with 5 and with 200 lines, against the
 * floor of RSA itself (Node's crypto.sign of a 32-byte digest with the same cached key). One process, one thread;
 * the npm script pins it to one core with taskset.
 *
 *   build + sign      = UBL builder from the normalised document + XMLDSig signature (the target: ≥ 0.75 of the floor)
 *   prepare + sign    = the whole library path: aliases, joi, SUNAT rules, totals, builder, signature
 */
import { createHash, sign } from 'node:crypto';
import { cpus } from 'node:os';
import { prepareDocument } from '../documents';
import { resolveAliases } from '../documents/input/aliases';
import { normaliseSale } from '../documents/sales/document';
import { saleSchema } from '../documents/sales/schema';
import type { SaleInput } from '../documents/sales/types';
import { createSigner, generateTestCertificate, signBuiltXml, signXml } from '../documents/signing';
import { buildInvoiceXml } from '../documents/xml/invoice';
import { invoicePayload as invoice } from './payloads';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 40);
const BATCH_MS = 50;

function validated(payload: Record<string, unknown>): SaleInput {
  const { value, error } = saleSchema.validate(resolveAliases(payload), { abortEarly: false, convert: true });
  if (error) throw error;
  return value as SaleInput;
}

/** Microseconds per call of one batch of about BATCH_MS. */
function batch(fn: () => unknown): number {
  let calls = 0;
  const start = performance.now();
  const stop = start + BATCH_MS;
  let now = start;
  while (now < stop) {
    fn();
    calls++;
    now = performance.now();
  }
  return ((now - start) * 1000) / calls;
}

const median = (values: number[]) => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)];

const signer = createSigner(generateTestCertificate());
const digest = createHash('sha256').update('chasqui').digest();
interface Case {
  name: string;
  fn: () => unknown;
  lines?: number;
  samples: number[];
}
const cases: Case[] = [
  { name: 'floor: crypto.sign of a 32-byte digest', fn: () => sign('sha256', digest, signer.key), samples: [] },
];
for (const lines of [5, 50, 100, 200]) {
  const input = validated(invoice(lines));
  cases.push({
    name: `build + sign, ${lines}-line factura`,
    fn: () => signBuiltXml(buildInvoiceXml(normaliseSale(input).doc), signer),
    lines,
    samples: [],
  });
}
for (const lines of [5, 200]) {
  const payload = invoice(lines);
  cases.push({
    name: `prepare + sign, ${lines}-line factura`,
    fn: () => signBuiltXml(prepareDocument(payload).xml, signer),
    samples: [],
  });
}
const xml5 = buildInvoiceXml(normaliseSale(validated(invoice(5))).doc);
cases.push({ name: `sign only, 5-line factura (${xml5.length} chars)`, fn: () => signXml(xml5, signer), samples: [] });

// Rounds interleave the cases, so a busy machine slows all of them alike; each figure is a median over rounds and
// each ratio the median of per-round ratios against the floor measured in the same round.
for (const c of cases) batch(c.fn);
for (let round = 0; round < ROUNDS; round++) for (const c of cases) c.samples.push(batch(c.fn));
const floor = cases[0];
const ratio = (c: Case) => median(c.samples.map((us, round) => floor.samples[round] / us));
const us = (c: Case) => median(c.samples);
const byLines = new Map(cases.filter((c) => c.lines && c.name.startsWith('build')).map((c) => [c.lines!, us(c)]));

console.log(
  `bench:sign  node ${process.version}  ${cpus()[0]?.model ?? 'unknown CPU'}  ${ROUNDS} rounds × ${BATCH_MS} ms per case`,
);
console.log(`${'case'.padEnd(44)} ${'docs/s'.padStart(9)} ${'µs/doc'.padStart(9)} ${'vs floor'.padStart(9)}`);
for (const c of cases) {
  console.log(
    `${c.name.padEnd(44)} ${(1e6 / us(c)).toFixed(0).padStart(9)} ${us(c).toFixed(1).padStart(9)} ${ratio(c).toFixed(2).padStart(9)}`,
  );
}
const perLine = (byLines.get(200)! - byLines.get(5)!) / 195;
console.log(`per-line cost (build + sign, 5 → 200 lines): ${perLine.toFixed(2)} µs/line`);
for (const lines of [50, 100]) {
  const predicted = byLines.get(5)! + perLine * (lines - 5);
  console.log(
    `  ${lines} lines: measured ${byLines.get(lines)!.toFixed(1)} µs, linear prediction ${predicted.toFixed(1)} µs`,
  );
}
console.log(`5-line factura build + sign: ${(ratio(cases[1]) * 100).toFixed(0)} % of the floor (target ≥ 75 %)`);
