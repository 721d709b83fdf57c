/**
 * `node --import tsx bench/compare-validators.ts KIT.jsonl CHASQUI.jsonl`: compares the `--json` outputs of SUNAT's
 * kit (cpe-validate) and of `chasqui validate` on the same files (docs/validator.md): a table of counts per side, then
 * every file whose verdict differs (xsd, xsl result, rejection code, observation codes, signature, name given to the
 * XSL) and the number of files whose messages differ. Exit 1 when a verdict differs.
 */
import { readFileSync } from 'node:fs';

interface Line {
  file: string;
  type: string | null;
  xsd: string;
  xsd_note: string | null;
  xsd_errors: string[];
  xsl: string;
  rejection: string | null;
  rejection_message: string | null;
  observations: string[];
  observation_messages: string[];
  sig: string;
  nombreArchivoEnviado: string | null;
}

const read = (file: string) =>
  new Map(
    readFileSync(file, 'utf8')
      .split('\n')
      .filter((l) => l.trim())
      .map((l) => JSON.parse(l) as Line)
      .map((r) => [r.file, r]),
  );
const xsd = (r: Line) => r.xsd + (r.xsd === 'ok' && r.xsd_note ? '(empty-ext-removed)' : '');
const verdict = (r: Line) =>
  [xsd(r), r.xsl, r.rejection ?? '', r.observations.join(' '), r.sig, r.nombreArchivoEnviado ?? ''].join(' | ');

/** How many rows have each value, in the order of `kinds` (the legend's). */
const tally = (values: string[], kinds: string[]) =>
  kinds.map((kind) => values.filter((value) => value === kind).length).join(' / ');

function counts(rows: Line[]): string {
  return [
    rows.length,
    tally(rows.map(xsd), ['ok', 'ok(empty-ext-removed)', 'fail']),
    tally(
      rows.map((r) => r.xsl),
      ['accepted', 'observed', 'rejected', 'n/a', 'error'],
    ),
    tally(
      rows.map((r) => r.sig),
      ['ok', 'fail', 'none'],
    ),
  ].join(' | ');
}

const [kitFile, oursFile] = process.argv.slice(2);
if (!kitFile || !oursFile) {
  console.error('usage: compare-validators KIT.jsonl CHASQUI.jsonl');
  process.exit(2);
}
const kit = read(kitFile);
const ours = read(oursFile);
console.log(
  '| | files | xsd ok / ok(empty-ext-removed) / fail | xsl accepted / observed / rejected / n/a / error | sig ok / fail / none |',
);
console.log('|---|---|---|---|---|');
console.log(`| cpe-validate | ${counts([...kit.values()])} |`);
console.log(`| chasqui validate | ${counts([...ours.values()])} |`);
let differ = 0;
let messages = 0;
for (const [file, a] of kit) {
  const b = ours.get(file);
  if (!b) {
    differ++;
    console.log(`\nmissing in chasqui's output: ${file}`);
    continue;
  }
  if (verdict(a) !== verdict(b)) {
    differ++;
    console.log(`\n${file}\n  kit:     ${verdict(a)}\n  chasqui: ${verdict(b)}`);
  } else if (
    JSON.stringify([a.rejection_message, a.observation_messages, a.xsd_errors]) !==
    JSON.stringify([b.rejection_message, b.observation_messages, b.xsd_errors])
  ) {
    messages++;
  }
}
console.log(
  `\n${kit.size} files: ${kit.size - differ} same verdict, ${differ} different; ${messages} with the same verdict but other XSL/XSD messages`,
);
process.exit(differ ? 1 : 0);
