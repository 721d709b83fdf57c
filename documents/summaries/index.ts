/** Summaries (rc, ra, rr): validated input → rules → UBL 2.0 XML named `RUC-RC-YYYYMMDD-N`. */
import { DocumentValidationError, issue, type ValidationIssue } from '../errors';
import { money } from '../decimal';
import type { PrepareOptions, PreparedDocument } from '../types';
import { buildSummaryXml, FREE_BUCKETS, rcLineTotal, summaryId } from '../xml/summary';
import { MYPE_RATE_2026, SUMMARY_V2 } from '../calendar';
import { datedRules, allowedRatesText, isIgvRateInForce, type DatedRules } from '../sales/dated';
import { IVAP_RATE } from '../tax/rates';
import { buildVoidedXml } from '../xml/voided';
import { RECEIPT_ID_THRESHOLD } from '../sales/rules';
import type { RcInput, VoidedInput } from './schema';

/** RR lists retention (20, series R), perception (40, P) and purchase settlement (04, L) documents; RA facturas and their notes. */
const VOIDABLE: Record<'ra' | 'rr', Record<string, string>> = {
  ra: { '01': 'F', '07': 'F', '08': 'F' },
  rr: { '20': 'R', '40': 'P', '04': 'L' },
};

/**
 * The summary's dates: ReferenceDate after IssueDate is 2671 on all three sheets (Resumen Diario1_1 row 8, Comunicación
 * de Baja1_0 and Resumen de reversiones1_0 row 9); an IssueDate after today is 2236 on the daily summary (Resumen
 * Diario1_1 row 7) and 2301 on the other two (row 8).
 */
function headerRules(doc: RcInput | VoidedInput, options: PrepareOptions, out: ValidationIssue[]): void {
  if (doc.fechaReferencia > doc.fechaEmision) {
    out.push(
      issue(
        'SUNAT',
        '2671',
        `fechaReferencia ${doc.fechaReferencia} (date of the listed documents) is after fechaEmision ${doc.fechaEmision}`,
        'fechaReferencia',
      ),
    );
  }
  if (options.today && doc.fechaEmision > options.today) {
    out.push(
      issue(
        'SUNAT',
        doc.tipoDoc === 'rc' ? '2236' : '2301',
        `fechaEmision ${doc.fechaEmision} is after today (${options.today})`,
        'fechaEmision',
      ),
    );
  }
  const seen = new Map<string, number>();
  doc.items.forEach((line, i) => {
    const key = `${line.tipoDoc} ${line.serieNumero}`;
    const first = seen.get(key);
    if (first !== undefined)
      out.push(
        issue('SUNAT', '2348', `${key} is listed twice (lines ${first + 1} and ${i + 1})`, `items[${i}].serieNumero`),
      );
    else seen.set(key, i);
  });
}

/**
 * The rules SUNAT dates, judged by the date of the listed documents (fechaReferencia): summary-v2 splits free
 * operations (catalog 11 retires 05) and writes the buyer's name; a line's IGV rate is one its documents' date allows.
 */
/**
 * The buyer's name as summary-v2 judges it. Its one row (revisions row 19, ERROR 2022) checks the format only: "el
 * formato del Tag UBL es diferente a alfanumérico de 3 hasta 1000 caracteres"; no row asks for the tag (the notes'
 * sheets pair 2022 with 2021 "No existe el Tag UBL" for that, NotaCredito2_0 rows 71–72), so an absent name passes.
 * No tab or line break: SUNAT's XSL judges 2022 with ^[^\t\n\r]{0,}$ (ValidaExprRegAdquiriente-2.0.1.xsl).
 */
function isSummaryBuyerName(name: string): boolean {
  const length = [...name].length;
  return length >= 3 && length <= 1000 && !/[\t\n\r]/.test(name);
}

function rcDatedRules(doc: RcInput, rules: DatedRules, out: ValidationIssue[], warnings: string[]): void {
  const v2 = rules.calendar.rule(SUMMARY_V2.id);
  const { freeByKind, buyerName } = SUMMARY_V2.answers;
  const split = FREE_BUCKETS.map(([key]) => `totales.${key}`).join(', ');
  let warned = false;
  doc.items.forEach((line, i) => {
    const path = `items[${i}]`;
    const oneFreeAmount = line.totales.gratuitas && !line.totales.gratuitas.isZero();
    const name = line.cliente?.nombre;
    const badName = name !== undefined && !isSummaryBuyerName(name);
    if (rules.inForce(v2.id)) {
      if (oneFreeAmount) {
        out.push(
          issue(
            'SUNAT',
            freeByKind.code,
            `summaries of documents dated from ${v2.effective} report free operations by kind (InstructionID 06–09; 05 is retired): send ${split} instead of totales.gratuitas`,
            `${path}.totales.gratuitas`,
          ),
        );
      }
      if (badName)
        out.push(
          issue(
            'SUNAT',
            buyerName.code,
            `summaries of documents dated from ${v2.effective} write the buyer's name: cliente.nombre, when given, must be 3 to 1000 characters without tabs or line breaks`,
            `${path}.cliente.nombre`,
          ),
        );
    } else if (rules.approaching(v2.id) && (oneFreeAmount || badName) && !warned) {
      warned = true;
      warnings.push(
        `[SUNAT ${freeByKind.code}] summaries of documents dated from ${v2.effective} report free operations by kind (${split}) and write the buyer's name (cliente.nombre, when given, 3 to 1000 characters); this summary's ${path} would be refused then`,
      );
    }
    const rate = line.porcentajeIgv;
    // A note's line also takes the earlier special rates, the boleta's it modifies (documents/calendar/igv-rates.ts).
    const lineRules = { ...rules, rates: rules.calendar.igvRates(rules.date, line.tipoDoc) };
    if (rate !== undefined && rate !== IVAP_RATE && !isIgvRateInForce(rate, lineRules)) {
      out.push(
        issue(
          'SUNAT',
          MYPE_RATE_2026.answers.rate.code,
          `porcentajeIgv ${rate} is not an IGV rate of documents issued on ${doc.fechaReferencia}: that date allows ${allowedRatesText(lineRules)}`,
          `${path}.porcentajeIgv`,
        ),
      );
    }
  });
}

/**
 * Resumen Diario1_1 row 20 (2513): a line's series is B… or, for a physical receipt issued in contingency, numeric
 * ([0-9]{1,4}); row 40 (2524): a note's line names the boleta it modifies unless the line voids it (estado 3).
 */
function rcRules(doc: RcInput, out: ValidationIssue[]): void {
  doc.items.forEach((line, i) => {
    const path = `items[${i}]`;
    if (line.serieNumero[0] !== 'B' && !/^\d{1,4}-/.test(line.serieNumero)) {
      out.push(
        issue(
          'SUNAT',
          '2513',
          `a daily summary lists boletas and their notes (series B…, or numeric for a contingency receipt), not ${line.serieNumero}`,
          `${path}.serieNumero`,
        ),
      );
    }
    if (line.tipoDoc !== '03' && line.estado !== '3' && !line.documentoAfectado) {
      out.push(
        issue(
          'SUNAT',
          '2524',
          `a note (${line.tipoDoc}) in the summary needs documentoAfectado`,
          `${path}.documentoAfectado`,
        ),
      );
    }
    const total = rcLineTotal(line);
    if (line.totales.importeTotal && !line.totales.importeTotal.equals(total)) {
      out.push(
        issue(
          'SUNAT',
          '4027',
          `totales.importeTotal is ${money(line.totales.importeTotal)} but the line adds up to ${money(total)}`,
          `${path}.totales.importeTotal`,
        ),
      );
    }
    if (doc.tipoMoneda === 'PEN' && total.gt(RECEIPT_ID_THRESHOLD) && !line.cliente) {
      out.push(
        issue('SUNAT', '2514', `a document over S/ 700.00 (${money(total)}) needs its customer`, `${path}.cliente`),
      );
    }
  });
}

function voidedRules(doc: VoidedInput, out: ValidationIssue[]): void {
  const allowed = VOIDABLE[doc.tipoDoc];
  doc.items.forEach((line, i) => {
    const letter = allowed[line.tipoDoc];
    const hint = doc.tipoDoc === 'ra' && line.tipoDoc === '03' ? ' (void a boleta with an rc line of estado 3)' : '';
    if (!letter) {
      out.push(
        issue(
          'SUNAT',
          '2308',
          `${doc.tipoDoc} cannot list document type ${line.tipoDoc}; allowed: ${Object.keys(allowed).join(', ')}${hint}`,
          `items[${i}].tipoDoc`,
        ),
      );
    } else if (line.serieNumero[0] !== letter && !/^\d/.test(line.serieNumero)) {
      out.push(
        issue(
          'SUNAT',
          '2310',
          `serie of ${line.serieNumero} must start with ${letter} for document type ${line.tipoDoc}`,
          `items[${i}].serieNumero`,
        ),
      );
    }
  });
}

export function prepareSummary(
  doc: RcInput | VoidedInput,
  options: PrepareOptions,
  earlier: ValidationIssue[] = [],
): PreparedDocument {
  const issues = [...earlier];
  const warnings: string[] = [];
  headerRules(doc, options, issues);
  const rules = datedRules(doc.fechaReferencia, options);
  if (doc.tipoDoc === 'rc') {
    rcRules(doc, issues);
    rcDatedRules(doc, rules, issues, warnings);
  } else voidedRules(doc, issues);
  if (issues.length) throw new DocumentValidationError(issues);
  const id = summaryId(doc.tipoDoc.toUpperCase(), doc.fechaEmision, doc.correlativo);
  return {
    docType: doc.tipoDoc,
    ruc: doc.emisor.ruc,
    series: id.slice(0, id.lastIndexOf('-')),
    number: Number(doc.correlativo),
    filename: `${doc.emisor.ruc}-${id}`,
    issueDate: doc.fechaEmision,
    currency: doc.tipoDoc === 'rc' ? doc.tipoMoneda : null,
    xml: doc.tipoDoc === 'rc' ? buildSummaryXml(doc, { v2: rules.inForce(SUMMARY_V2.id) }) : buildVoidedXml(doc),
    totals: null,
    warnings,
  };
}
