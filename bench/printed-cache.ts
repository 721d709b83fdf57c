/**
 * `npm run bench:printed-cache`: what a PDF costs the process that serves it when the printed cache holds it (a hit:
 * the marks, the logo and one select) against a render (the same reads, the signed XML and printDocument), through
 * `renderDocumentPdf` on a real PostgreSQL (test/support/services.ts starts one), for a 5-line and a 300-line factura.
 * Rendering runs in this process here (as the worker's e-mail does); the API renders in its pool, so a render costs
 * the API less CPU but a thread of the pool the same. Medians over BENCH_ROUNDS rounds of ≈ 200 ms, interleaved.
 */
import { createSigner, generateTestCertificate } from '../documents/signing';
import { renderDocumentPdf } from '../buyers/printed';
import { invoicePayload } from './payloads';
import { commitSignedDocument, companyWithRuc } from '../test/support/documents';
import { getTestDb, getTestFiles, stopTestServices, testConfig } from '../test/support/services';
import { median, round } from './rounds';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 9);
const ROUND_MS = 200;
const RUC = '20123456786';

async function main() {
  const db = await getTestDb();
  const files = getTestFiles(testConfig());
  const company = await companyWithRuc(db, RUC, 'Bench Printed Cache S.A.C.');
  const signer = createSigner(generateTestCertificate({ ruc: RUC }));
  const cached = { maxBytes: 64 * 1024 * 1024, maxAgeSeconds: 3600 };
  const uncached = { maxBytes: 0, maxAgeSeconds: 0 };
  const cases: [string, () => Promise<unknown>][] = [];
  for (const lines of [5, 300]) {
    const invoice = invoicePayload(lines, { ruc: RUC, correlativo: String((Date.now() % 1e7) + lines) });
    const row = await commitSignedDocument(db, company, invoice, signer);
    // Each PDF with the document's files as a request hands them in: read on its own render, not kept from the last.
    const pdf = (cache: typeof cached) => renderDocumentPdf(db, row, files.of(row), 'a4', { cache });
    await pdf(cached);
    cases.push([`${lines}-line A4, render`, () => pdf(uncached)]);
    cases.push([`${lines}-line A4, cache hit`, () => pdf(cached)]);
  }
  const results = new Map<string, { cpu: number[]; wall: number[] }>(
    cases.map(([name]) => [name, { cpu: [], wall: [] }]),
  );
  for (let r = 0; r < ROUNDS; r++)
    for (const [name, fn] of cases) {
      const { cpu, wall } = await round(fn, ROUND_MS);
      results.get(name)!.cpu.push(cpu);
      results.get(name)!.wall.push(wall);
    }
  console.log(`printed cache, ${ROUNDS} rounds (medians; ms per PDF)`);
  for (const [name, { cpu, wall }] of results)
    console.log(
      `  ${name.padEnd(24)} cpu ${median(cpu).toFixed(2).padStart(8)}   wall ${median(wall).toFixed(2).padStart(8)}`,
    );
  for (const lines of [5, 300]) {
    const render = median(results.get(`${lines}-line A4, render`)!.cpu);
    const hit = median(results.get(`${lines}-line A4, cache hit`)!.cpu);
    console.log(`  ${lines} lines: a hit costs ${((hit / render) * 100).toFixed(1)} % of a render's CPU`);
  }
  await db('printed_cache').delete();
  await stopTestServices();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
