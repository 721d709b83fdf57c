/**
 * SUNAT's dated rules (documents/calendar) read on a UBL document, the way SUNAT judges it: by the rules in force on
 * its cbc:IssueDate. Used by `chasqui validate`, by the simulator for every document it receives (signed by chasqui or
 * not), and by the company checks, which ask with `at` = a rule's date whether a stored document would fail it.
 * Pure and cheap: one pass over the tags (xml-walk.ts), no DOM, no I/O.
 */
import {
  allowedRates,
  CREDIT_NOTE_CEILING,
  DEBIT_NOTE_13,
  DETRACTION_2026,
  DETRACTION_CODES_2026,
  GRE_LOADING_DATE,
  isAllowedRate,
  isCalendarDate,
  isUnaffectedReason,
  MYPE_RATE_2026,
  PRODUCT_CODE_VALID,
  productCodeProblems,
  SPECIAL_RATE_RULE,
  SUMMARY_IGV_PERCENT,
  SUMMARY_V2,
  type RuleCalendar,
  type RuleAnswer,
  type RuleId,
} from '../documents/calendar';
import { walkXml } from './xml-walk';

export interface DatedRuleFailure {
  rule: RuleId;
  code: string;
  message: string;
  /** Where in the document, as local names with 1-based positions (`InvoiceLine[2]/Item`). */
  path?: string;
}

/** What the dated rules read, collected in one pass. */
interface Facts {
  root: string;
  typeCode: string | null;
  issueDate: string | null;
  transportMode: string | null;
  /** null: no cac:LoadingTransportEvent/cbc:OccurrenceDate (or an empty one). */
  loadingDate: string | null;
  responseCode: string | null;
  /** The catalog 54 code of the PaymentTerms whose ID is Detraccion. */
  detractionCode: string | null;
  billingReferences: number;
  lines: Line[];
}

interface Line {
  /** The line's element (InvoiceLine, CreditNoteLine, DebitNoteLine, SummaryDocumentsLine). */
  element: string;
  /** cac:Item/cac:CommodityClassification/cbc:ItemClassificationCode; null when the tag is absent. */
  productCode: string | null;
  subtotals: { scheme: string | null; percent: string | null; reason: string | null }[];
}

const LINE_ELEMENTS = new Set(['InvoiceLine', 'CreditNoteLine', 'DebitNoteLine', 'SummaryDocumentsLine']);
const LOADING_DATE = 'Shipment/ShipmentStage/LoadingTransportEvent/OccurrenceDate';
const HEADER_PATHS = new Set([
  'IssueDate',
  'InvoiceTypeCode',
  'DespatchAdviceTypeCode',
  'Shipment/ShipmentStage/TransportModeCode',
  LOADING_DATE,
  'DiscrepancyResponse/ResponseCode',
  'PaymentTerms/ID',
  'PaymentTerms/PaymentMeansID',
]);
/** Below a line: the product code and each tax subtotal's scheme, rate and affectation (catalog 07). */
const LINE_PATHS = new Set([
  'Item/CommodityClassification/ItemClassificationCode',
  'TaxTotal/TaxSubtotal/TaxCategory/TaxScheme/ID',
  'TaxTotal/TaxSubtotal/TaxCategory/Percent',
  'TaxTotal/TaxSubtotal/TaxCategory/TaxExemptionReasonCode',
]);

function scan(xml: string): Facts | null {
  const facts: Facts = {
    root: '',
    typeCode: null,
    issueDate: null,
    transportMode: null,
    loadingDate: null,
    responseCode: null,
    detractionCode: null,
    billingReferences: 0,
    lines: [],
  };
  const line = () => facts.lines[facts.lines.length - 1];
  const subtotal = () => line().subtotals[line().subtotals.length - 1];
  let paymentTerms: string | null = null;
  /** The path below the current line, or null when `path` is not inside one. */
  const inLine = (path: string) => {
    const slash = path.indexOf('/');
    return slash > 0 && LINE_ELEMENTS.has(path.slice(0, slash)) ? path.slice(slash + 1) : null;
  };
  const ok = walkXml(xml, {
    root: (local) => (facts.root = local),
    open: (path) => {
      if (LINE_ELEMENTS.has(path)) facts.lines.push({ element: path, productCode: null, subtotals: [] });
      else if (path === 'BillingReference') facts.billingReferences += 1;
      else if (path === 'PaymentTerms') paymentTerms = null;
      else if (inLine(path) === 'TaxTotal/TaxSubtotal')
        line().subtotals.push({ scheme: null, percent: null, reason: null });
    },
    wants: (path) => HEADER_PATHS.has(path) || LINE_PATHS.has(inLine(path) ?? ''),
    close: (path, text) => {
      const below = inLine(path);
      if (below === 'Item/CommodityClassification/ItemClassificationCode') line().productCode ??= text;
      else if (below === 'TaxTotal/TaxSubtotal/TaxCategory/TaxScheme/ID') subtotal().scheme = text;
      else if (below === 'TaxTotal/TaxSubtotal/TaxCategory/Percent') subtotal().percent = text;
      else if (below === 'TaxTotal/TaxSubtotal/TaxCategory/TaxExemptionReasonCode') subtotal().reason = text;
      else if (path === 'IssueDate') facts.issueDate = text;
      else if (path === 'InvoiceTypeCode' || path === 'DespatchAdviceTypeCode') facts.typeCode = text;
      else if (path === 'Shipment/ShipmentStage/TransportModeCode') facts.transportMode = text;
      else if (path === LOADING_DATE) facts.loadingDate = text || null;
      else if (path === 'DiscrepancyResponse/ResponseCode') facts.responseCode = text;
      else if (path === 'PaymentTerms/ID') paymentTerms = text;
      else if (path === 'PaymentTerms/PaymentMeansID' && paymentTerms === 'Detraccion') facts.detractionCode = text;
    },
  });
  return ok ? facts : null;
}

/** The document type as chasqui names it (01, 03, 04, 07, 08, 09, 31, rc), or null for one no dated rule judges. */
function typeOf(facts: Facts): string | null {
  switch (facts.root) {
    case 'Invoice':
    case 'DespatchAdvice':
      return facts.typeCode;
    case 'CreditNote':
      return '07';
    case 'DebitNote':
      return '08';
    case 'SummaryDocuments':
      return 'rc';
    default:
      return null;
  }
}

const SALES = new Set(['01', '03', '04', '07', '08']);
const lineAt = (l: Line, i: number) => `${l.element}[${i + 1}]`;
/** IGV (1000) and IVAP (1016) charge the operation; the rest of a line's schemes say it is not taxed or add a tax. */
const TAXED_SCHEMES = new Set(['1000', '1016', '9995', '9997']);

type Fail = (rule: RuleId, answer: RuleAnswer, message: string, path?: string) => void;

/** A guide by public transport carries the date the goods were handed to the carrier. */
function loadingDate(facts: Facts, calendar: RuleCalendar, fail: Fail): void {
  const { id, answers } = GRE_LOADING_DATE;
  const since = `since ${calendar.effective(id)}`;
  const loading = facts.loadingDate;
  if (loading === null) {
    fail(
      id,
      answers.missing,
      `a guide by public transport (modalidad 01) carries the date the goods were handed to the carrier ${since}`,
      LOADING_DATE,
    );
  } else if (!isCalendarDate(loading)) {
    fail(
      id,
      answers.format,
      `the date the goods were handed to the carrier must be YYYY-MM-DD, got '${loading}'`,
      LOADING_DATE,
    );
  } else if (facts.issueDate && loading < facts.issueDate) {
    fail(
      id,
      answers.early,
      `the date the goods were handed to the carrier (${loading}) is earlier than the issue date (${facts.issueDate})`,
      LOADING_DATE,
    );
  }
}

/** A daily summary's IGV category carries its rate, first by its own rule, then by the summary's second version. */
function summaryIgvPercent(facts: Facts, calendar: RuleCalendar, inForce: (rule: RuleId) => boolean, fail: Fail): void {
  const rule = [SUMMARY_IGV_PERCENT, SUMMARY_V2].find((r) => inForce(r.id));
  if (rule) {
    facts.lines.forEach((l, i) => {
      if (l.subtotals.some((s) => s.scheme === '1000' && !s.percent)) {
        fail(
          rule.id,
          rule.answers.percent,
          `summary line ${i + 1} has no IGV rate (cbc:Percent) on its IGV category, required since ${calendar.effective(rule.id)}`,
          `${lineAt(l, i)}/TaxTotal/TaxSubtotal/TaxCategory/Percent`,
        );
      }
    });
  }
}

/** What each judging function is handed: the facts, the date and type judged, and where to report. */
interface Judging {
  facts: Facts;
  date: string;
  type: string;
  calendar: RuleCalendar;
  /** Whether the rule is in force on the date and judges the type. */
  inForce: (rule: RuleId) => boolean;
  fail: Fail;
}

/** SUNAT's refusing rows of the product code (documents/calendar/product-codes.ts); a line without one is not judged. */
function productCodes({ facts, calendar, fail }: Judging): void {
  const { id, answers } = PRODUCT_CODE_VALID;
  facts.lines.forEach((l, i) => {
    const problem =
      l.productCode === null
        ? undefined
        : productCodeProblems(l.productCode, calendar.productCodeListing()).find((p) => p.refused);
    if (problem)
      fail(
        id,
        answers.refused,
        `line ${i + 1}: ${problem.message}; SUNAT's product code is not valid since ${calendar.effective(id)}`,
        `${lineAt(l, i)}/Item/CommodityClassification/ItemClassificationCode`,
      );
  });
}

/** Every IGV rate of a line is one the issue date allows. */
function igvRates({ facts, date, type, calendar, fail }: Judging): void {
  const rates = calendar.igvRates(date, type);
  facts.lines.forEach((l, i) => {
    for (const s of l.subtotals) {
      if (s.scheme !== '1000' || s.percent === null || isAllowedRate(s.percent, rates)) continue;
      fail(
        rates.step ?? SPECIAL_RATE_RULE,
        MYPE_RATE_2026.answers.rate,
        `line ${i + 1} has IGV rate ${s.percent}; a document issued on ${date} may carry ${allowedRates(rates).join(' or ')}`,
        `${lineAt(l, i)}/TaxTotal/TaxSubtotal/TaxCategory/Percent`,
      );
    }
  });
}

/** A debit note: reason 13 for unaffected lines only, reason 03 names its document, one document modified. */
function debitNote({ facts, calendar, fail }: Judging): void {
  const { id, answers } = DEBIT_NOTE_13;
  if (facts.responseCode === '13')
    facts.lines.forEach((l, i) => {
      const taxed = l.subtotals.some(
        (s) => TAXED_SCHEMES.has(s.scheme ?? '') || (s.reason !== null && !isUnaffectedReason(s.reason)),
      );
      if (taxed)
        fail(
          id,
          answers.unaffectedOnly,
          `a debit note of reason 13 covers only unaffected (inafecta) operations; line ${i + 1} is not one`,
          lineAt(l, i),
        );
    });
  // 2524 spares reason 13 where it spared 03 (sunat/rules/revisions.csv row 9); SUNAT's 2024 XSL checks neither.
  if (facts.responseCode === '03' && facts.billingReferences === 0)
    fail(
      id,
      answers.reference,
      `a debit note of reason 03 names the document it modifies since ${calendar.effective(id)}; reason 13 may leave it out`,
      'BillingReference',
    );
  // As for credit notes (sunat/rules/revisions.csv row 11, reported): for every reason, not only 11.
  if (facts.billingReferences > 1)
    fail(
      id,
      answers.oneDocument,
      `a debit note modifies one document only; this one references ${facts.billingReferences}`,
      'BillingReference',
    );
}

/** Catalog 54's codes of 2026 are refused on documents issued before their date. */
function detractionCode({ facts, calendar, inForce, fail }: Judging): void {
  const code = facts.detractionCode;
  const { id, answers } = DETRACTION_2026;
  if (code && DETRACTION_CODES_2026.includes(code) && !inForce(id))
    fail(
      id,
      answers.unknownCode,
      `detraction code ${code} is in catalog 54 for documents issued from ${calendar.effective(id)}`,
      'PaymentTerms/PaymentMeansID',
    );
}

/**
 * The dated rules a UBL document fails, judged on its cbc:IssueDate (or on `options.at`). A document with no issue
 * date and no `at` cannot be judged by date: none. Undated problems (SUNAT's June 2024 rules) are the XSL's, not these.
 */
export function datedRuleFailures(
  xml: string,
  calendar: RuleCalendar,
  options: { at?: string } = {},
): DatedRuleFailure[] {
  const facts = scan(xml);
  if (!facts) return [];
  const date = options.at ?? facts.issueDate;
  const type = typeOf(facts);
  if (!date || !isCalendarDate(date) || !type) return [];
  const inForce = (rule: RuleId) =>
    calendar.inForce(rule, date) && calendar.rule(rule).docTypes.includes(type as never);
  const out: DatedRuleFailure[] = [];
  const fail: Fail = (rule, { code }, message, path) => out.push({ rule, code, message, ...(path ? { path } : {}) });
  const judging: Judging = { facts, date, type, calendar, inForce, fail };

  if (inForce(GRE_LOADING_DATE.id) && facts.transportMode === '01') loadingDate(facts, calendar, fail);
  if (SALES.has(type)) {
    if (inForce(PRODUCT_CODE_VALID.id)) productCodes(judging);
    if (type !== '04') igvRates(judging);
    if (type === '08' && inForce(DEBIT_NOTE_13.id)) debitNote(judging);
    detractionCode(judging);
    if (type === '07' && facts.billingReferences > 1 && inForce(CREDIT_NOTE_CEILING.id))
      fail(
        CREDIT_NOTE_CEILING.id,
        CREDIT_NOTE_CEILING.answers.oneDocument,
        `a credit note modifies one document only; this one references ${facts.billingReferences}`,
        'BillingReference',
      );
  }
  if (type === 'rc') summaryIgvPercent(facts, calendar, inForce, fail);
  return out;
}
