/**
 * `npm run bench:summaries`: the CPU cost of composing one daily summary of SUNAT's maximum size, 500 lines, on one core:
 *   read    = reading an rc line back from one stored signed receipt (readSignedSale), per receipt;
 *   build   = rc payload → prepareDocument (joi, SUNAT rc rules, UBL 2.0) for 500 lines;
 *   sign    = signBuiltXml of that rc;
 * and the total per rc. The database transaction that stores it is not counted. Best of 10 rounds.
 */
import fs from 'node:fs';
import path from 'node:path';
import { prepareDocument } from '../documents';
import { createSigner, generateTestCertificate, signBuiltXml } from '../documents/signing';
import { readSignedSale, receiptSummaryPayload, type SignedSale } from '../documents/summaries/from-signed';

const LINES = 500;
const signer = createSigner(generateTestCertificate({ ruc: '20123456786' }));
const fixture = JSON.parse(
  fs.readFileSync(path.join(__dirname, '../test/fixtures/documents/receipt-icbper.json'), 'utf8'),
);
const receipts = Array.from(
  { length: LINES },
  (_, i) => signBuiltXml(prepareDocument({ ...fixture, correlativo: String(i + 1) }).xml, signer).xml,
);

/** Milliseconds of one call, best of `rounds`. */
function best(fn: () => unknown, rounds = 10): number {
  fn();
  let ms = Infinity;
  for (let r = 0; r < rounds; r++) {
    const start = process.hrtime.bigint();
    fn();
    ms = Math.min(ms, Number(process.hrtime.bigint() - start) / 1e6);
  }
  return ms;
}

let sales: SignedSale[] = [];
let xml = '';
const read = best(() => (sales = receipts.map(readSignedSale)));
const header = {
  correlativo: 1,
  fechaEmision: '2024-03-16',
  fechaReferencia: '2024-03-15',
  issuer: { ruc: '20123456786', razonSocial: 'Comercial Andina S.A.C.' },
};
const build = best(
  () =>
    (xml = prepareDocument(
      receiptSummaryPayload(
        header,
        'PEN',
        sales.map((sale) => ({ sale, condition: '1' as const })),
      ),
      { today: '2024-03-16' },
    ).xml),
);
const sign = best(() => signBuiltXml(xml, signer));

console.log(`summaries bench, one core, ${LINES}-line rc (${(xml.length / 1024).toFixed(0)} KiB unsigned)`);
console.log(`  read back one signed receipt  ${((read / LINES) * 1000).toFixed(1).padStart(8)} µs`);
console.log(`  build + validate the rc       ${build.toFixed(1).padStart(8)} ms`);
console.log(`  sign the rc                   ${sign.toFixed(1).padStart(8)} ms`);
console.log(
  `  one 500-line rc, total        ${(read + build + sign).toFixed(1).padStart(8)} ms  (${((read + build + sign) / LINES).toFixed(3)} ms per receipt)`,
);
