/** Retención (20) and percepción (40): validated input → rules → amounts per line and totals → UBL 2.0 XML. */
import { Decimal, money, sum, ZERO } from '../decimal';
import { DocumentValidationError, issue, type ValidationIssue } from '../errors';
import { RUC_DOC_TYPE } from '../input/parties';
import { preparedDocument } from '../prepared';
import type { PrepareOptions, PreparedDocument } from '../types';
import { buildOtherXml } from '../xml/other';
import { REGIMES, type OtherInput } from './schema';
import type { OtherDocument, OtherLineAmounts } from './types';

export function computeOther(input: OtherInput): OtherDocument {
  const percent = new Decimal(REGIMES[input.tipoDoc][input.regimen]);
  const lines = input.items.map((line): OtherLineAmounts => {
    const payment = (input.tipoDoc === '20' ? line.pago : line.cobro) ?? null;
    if (!payment) return { line, payment, soles: ZERO, amount: ZERO, net: ZERO };
    const soles =
      line.documento.tipoMoneda === 'PEN' || !line.tipoCambio
        ? payment.importe
        : payment.importe.times(line.tipoCambio.factor).toDecimalPlaces(2);
    const amount = soles.times(percent).div(100).toDecimalPlaces(2);
    return { line, payment, soles, amount, net: input.tipoDoc === '20' ? soles.minus(amount) : soles.plus(amount) };
  });
  return {
    input,
    id: `${input.serie}-${String(input.correlativo)}`,
    number: Number(input.correlativo),
    percent,
    lines,
    total: sum(lines.map((l) => l.amount)),
    totalNet: sum(lines.map((l) => l.net)),
  };
}

function otherRules(doc: OtherDocument, options: PrepareOptions): ValidationIssue[] {
  const input = doc.input;
  const out: ValidationIssue[] = [];
  const retention = input.tipoDoc === '20';
  const party = retention ? input.proveedor! : input.cliente!;
  if (retention && party.tipoDoc !== RUC_DOC_TYPE) {
    out.push(
      issue('SUNAT', '2511', 'the supplier of a retención is identified by its RUC (tipoDoc 6)', 'proveedor.tipoDoc'),
    );
  }
  if (doc.lines.every((l) => !l.payment)) {
    out.push(
      issue(
        'SUNAT',
        '2669',
        `a ${retention ? 'retención' : 'percepción'} needs at least one ${retention ? 'payment' : 'collection'}: credit notes alone give a total of 0`,
        'items',
      ),
    );
  }
  const seen = new Set<string>();
  doc.lines.forEach(({ line, payment }, i) => {
    const at = `items[${i}]`;
    if (line.documento.fechaEmision > input.fechaEmision) {
      out.push(
        issue(
          'chasqui',
          'BR_REFERENCE_DATE',
          `the ${payment ? 'paid' : 'listed'} document is dated ${line.documento.fechaEmision}, after this document (${input.fechaEmision})`,
          `${at}.documento.fechaEmision`,
        ),
      );
    }
    if (!payment) return;
    const foreign = line.documento.tipoMoneda !== 'PEN';
    if (foreign && !line.tipoCambio)
      out.push(
        issue(
          'SUNAT',
          '2721',
          `a document in ${line.documento.tipoMoneda} needs tipoCambio {factor, fecha} of the payment`,
          `${at}.tipoCambio`,
        ),
      );
    if (!foreign && line.tipoCambio)
      out.push(issue('chasqui', 'BR_EXCHANGE_RATE_PEN', 'a document in PEN has no exchange rate', `${at}.tipoCambio`));
    if (payment.importe.gt(line.documento.importeTotal)) {
      out.push(
        issue(
          'chasqui',
          'BR_PAYMENT_ABOVE_TOTAL',
          `the ${retention ? 'payment' : 'collection'} (${money(payment.importe)}) is more than the document's total (${money(line.documento.importeTotal)})`,
          `${at}.${retention ? 'pago' : 'cobro'}.importe`,
        ),
      );
    }
    const key = `${line.documento.tipoDoc} ${line.documento.serieNumero} ${payment.numero}`;
    if (seen.has(key))
      out.push(
        issue('SUNAT', '2626', `payment ${payment.numero} of ${line.documento.serieNumero} is listed twice`, at),
      );
    seen.add(key);
  });
  const t = input.totales;
  const [totalCode, netCode] = retention ? ['2628', '2629'] : ['2667', '2668'];
  if (t?.importe && !t.importe.eq(doc.total))
    out.push(
      issue(
        'SUNAT',
        totalCode,
        `totales.importe is ${money(t.importe)} but the lines give ${money(doc.total)}`,
        'totales.importe',
      ),
    );
  if (t?.neto && !t.neto.eq(doc.totalNet))
    out.push(
      issue(
        'SUNAT',
        netCode,
        `totales.neto is ${money(t.neto)} but the lines give ${money(doc.totalNet)}`,
        'totales.neto',
      ),
    );
  if (options.today && input.fechaEmision > options.today) {
    out.push(
      issue('SUNAT', '2329', `fechaEmision ${input.fechaEmision} is after today (${options.today})`, 'fechaEmision'),
    );
  }
  return out;
}

export function prepareOther(
  input: OtherInput,
  options: PrepareOptions,
  earlier: ValidationIssue[] = [],
): PreparedDocument {
  const doc = computeOther(input);
  const issues = [...earlier, ...otherRules(doc, options)];
  if (issues.length) throw new DocumentValidationError(issues);
  return preparedDocument(input, doc, {
    currency: 'PEN',
    xml: buildOtherXml(doc),
    totals: {
      TotalInvoiceAmount: money(doc.total),
      [input.tipoDoc === '20' ? 'SUNATTotalPaid' : 'SUNATTotalCashed']: money(doc.totalNet),
    },
    warnings: [],
  });
}
