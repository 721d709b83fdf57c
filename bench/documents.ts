/**
 * `npm run bench:documents`: documents per second on one core for
 *   prepare = prepareDocument (aliases → joi → SUNAT rules → decimal totals → canonical UBL, unsigned), and
 *   build   = totals + UBL builder from an already validated factura (the "build" of bench:sign),
 * on facturas of 1, 5, 50 and 200 lines, with the cost per line to show that it grows linearly.
 * Each figure is the best of 15 rounds (other processes on a shared machine only ever make a round slower).
 */
import { prepareDocument } from '../documents';
import { invoicePayload } from './payloads';
import { resolveAliases } from '../documents/input/aliases';
import { normaliseSale } from '../documents/sales/document';
import { saleSchema } from '../documents/sales/schema';
import type { SaleInput } from '../documents/sales/types';
import { buildInvoiceXml } from '../documents/xml/invoice';

const invoice = (lines: number) => invoicePayload(lines, { exoneratedEvery: 5 });

/** Microseconds per call, best of 15 rounds. */
function measure(fn: () => unknown, lines: number, rounds = 15): number {
  const perRound = Math.max(5, Math.round(2000 / lines));
  for (let i = 0; i < perRound * 3; i++) fn();
  let best = Infinity;
  for (let r = 0; r < rounds; r++) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < perRound; i++) fn();
    best = Math.min(best, Number(process.hrtime.bigint() - start) / perRound / 1000);
  }
  return best;
}

const LINES = [1, 5, 50, 200];
console.log('documents bench, one core                 docs/s    µs/doc');
for (const kind of ['prepare', 'build'] as const) {
  const us = LINES.map((lines) => {
    const payload = invoice(lines);
    const input = saleSchema.validate(resolveAliases(payload)).value as SaleInput;
    const fn = kind === 'prepare' ? () => prepareDocument(payload) : () => buildInvoiceXml(normaliseSale(input).doc);
    const t = measure(fn, lines);
    console.log(
      `  ${kind.padEnd(8)} ${String(lines).padStart(3)}-line factura       ${(1e6 / t).toFixed(0).padStart(7)}  ${t.toFixed(1).padStart(8)}`,
    );
    return t;
  });
  console.log(
    `  ${kind}: ${((us[3] - us[1]) / (LINES[3] - LINES[1])).toFixed(2)} µs per line from 5 to 200 lines, ${((us[2] - us[1]) / (LINES[2] - LINES[1])).toFixed(2)} from 5 to 50`,
  );
}
