/**
 * `npm run bench:pdf`: CPU time to print a signed document (documents/printed: XML read back → PDF), on one core.
 *
 *   a4, 5-line factura          the target: ≤ 20 ms of CPU for a one-page A4
 *   ticket, 5-line factura      the 80 mm roll
 *   a4 / ticket, 300 lines      the long document (9 A4 pages)
 *   reference: sign             build + sign of the same 5-line factura, measured in the same rounds, so the ratio
 *                               says how the PDF compares with what every issue already pays, on whatever the shared
 *                               machine gives this run
 *
 * Cases run interleaved, ROUNDS rounds of about 200 ms each; figures are medians over the rounds. The first PDF of a
 * process also parses the two embedded fonts: shown apart.
 */
import { cpus } from 'node:os';
import { prepareDocument } from '../documents';
import { createSigner, generateTestCertificate, signXml } from '../documents/signing';
import { printDocument, type PrintOptions } from '../documents/printed';
import { invoicePayload } from './payloads';
import { cpuMs, median, round } from './rounds';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 15);
const ROUND_MS = 200;
const signer = createSigner(generateTestCertificate({ ruc: '20123456786' }));
const short = signXml(prepareDocument(invoicePayload(5)).xml, signer).xml;
const long = signXml(prepareDocument(invoicePayload(300, { correlativo: '300' })).xml, signer).xml;

async function main() {
  const print = (xml: string, options: PrintOptions) => () => printDocument(xml, options);
  const [cold0, coldWall0] = [cpuMs(), performance.now()];
  const first = await printDocument(short, { format: 'a4' });
  const cold = { cpu: cpuMs() - cold0, wall: performance.now() - coldWall0 };
  const cases: [string, () => Promise<unknown> | unknown][] = [
    ['reference: build + sign, 5-line factura', () => signXml(prepareDocument(invoicePayload(5)).xml, signer)],
    ['a4, 5-line factura (1 page)', print(short, { format: 'a4' })],
    ['ticket, 5-line factura', print(short, { format: 'ticket' })],
    ['a4, 300-line factura', print(long, { format: 'a4' })],
    ['ticket, 300-line factura', print(long, { format: 'ticket' })],
  ];
  const results = new Map<string, { cpu: number[]; wall: number[] }>(
    cases.map(([name]) => [name, { cpu: [], wall: [] }]),
  );
  for (let r = 0; r < ROUNDS; r++) {
    for (const [name, fn] of cases) {
      const { cpu, wall } = await round(fn, ROUND_MS);
      results.get(name)!.cpu.push(cpu);
      results.get(name)!.wall.push(wall);
    }
  }
  const reference = median(results.get(cases[0][0])!.cpu);
  console.log(
    `bench:pdf  node ${process.version}  ${cpus()[0]?.model ?? ''}  ${ROUNDS} rounds × ${ROUND_MS} ms per case`,
  );
  console.log(
    `first PDF of the process (parses the fonts): ${cold.cpu.toFixed(1)} ms CPU, ${cold.wall.toFixed(1)} ms wall, ${first.length} bytes`,
  );
  console.log('case                                      CPU ms/doc  wall ms/doc  CPU vs sign');
  for (const [name] of cases) {
    const { cpu, wall } = results.get(name)!;
    console.log(
      `${name.padEnd(42)}${median(cpu).toFixed(2).padStart(10)}${median(wall).toFixed(2).padStart(13)}${(median(cpu) / reference).toFixed(1).padStart(13)}`,
    );
  }
  const a4 = median(results.get(cases[1][0])!.cpu);
  console.log(`one-page A4: ${a4.toFixed(1)} ms CPU (target ≤ 20 ms): ${a4 <= 20 ? 'met' : 'NOT met'}`);
}

void main();
