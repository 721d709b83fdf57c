/**
 * `chasqui rules [--wide | --json] [--at YYYY-MM-DD]`: SUNAT's dated rules as this installation applies them
 * (CHASQUI_RULE_DATES included), each in force or upcoming at a date (docs/rules.md).
 */
import { parseArgs } from 'node:util';
import { loadConfig } from '../../core/config';
import { limaDate } from '../../core/lima';
import { citationOf, isCalendarDate, RULES, type RuleCalendar, type RuleCitation } from '../../documents/calendar';
import { TERMINAL_WIDTH, wrap } from '../text';

const USAGE = `usage: chasqui rules [--wide | --json] [--at YYYY-MM-DD]
  SUNAT's dated rules as chasqui applies them, in 100 columns: id, effective issue date, in force or
  upcoming at the date (today in Lima by default) and what changes. --wide adds confidence, SUNAT's
  codes and the source, one line per rule however wide; --json gives all of it to scripts, with each
  rule's rows of SUNAT's sheets (citation). Dates moved by CHASQUI_RULE_DATES are marked *; a
  reported rule it switches off (id=off) has status off. The table names the catalog 25 product
  codes are judged with (CHASQUI_PRODUCT_CODES, a file of codes, replaces SUNAT's as carried).
  A rule judges a document by its issue date (fechaEmision), not by the day it is sent.
  Exit 0; 2 usage error.
examples:
  chasqui rules
  chasqui rules --at 2027-01-01 --wide
  CHASQUI_RULE_DATES=product-code-valid=2027-07-01 chasqui rules --json |
    jq '.[] | select(.status == "upcoming")'`;

interface RuleRow {
  id: string;
  effective: string;
  /** The date chasqui ships, when CHASQUI_RULE_DATES moved it; otherwise equal to `effective`. */
  default_effective: string;
  moved: boolean;
  /** Switched off by CHASQUI_RULE_DATES (`id=off`, reported rules only): status `off`, it judges no document. */
  off: boolean;
  status: string;
  codes: string[];
  document_types: string[];
  summary: string;
  source: string;
  confidence: string;
  /** The rows of SUNAT's sheets (sunat/rules/) the rule applies and its date's source. */
  citation: RuleCitation;
}

function ruleRows(calendar: RuleCalendar, at: string): RuleRow[] {
  return calendar.list().map((rule) => {
    const shipped = RULES.find((r) => r.id === rule.id)!.effective;
    return {
      id: rule.id,
      effective: rule.effective,
      default_effective: shipped,
      moved: shipped !== rule.effective,
      off: rule.off,
      status: calendar.status(rule.id, at),
      codes: [...rule.codes],
      document_types: [...rule.docTypes],
      summary: rule.summary,
      source: rule.source,
      confidence: rule.confidence,
      citation: citationOf(rule),
    };
  });
}

/** The default table's width; `--wide` lifts it and adds the details. */
const RULES_WIDTH = TERMINAL_WIDTH;

/**
 * Columns padded to their widest cell; the last one (what changes) wrapped under itself to fit `width` columns (null:
 * one line each). `--wide` adds confidence, codes and each rule's source under it.
 */
function table(rows: RuleRow[], at: string, wide: boolean, catalog: string): string {
  const head = ['ID', 'EFFECTIVE', 'STATUS', ...(wide ? ['CONFIDENCE', 'CODES'] : []), 'WHAT'];
  const cells = rows.map((r) => [
    r.id,
    r.effective + (r.moved ? '*' : ''),
    r.status,
    ...(wide ? [r.confidence, r.codes.join(',')] : []),
    r.summary,
  ]);
  const widths = head.slice(0, -1).map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
  const indent = ' '.repeat(widths.reduce((a, w) => a + w + 2, 0));
  const rest = (text: string) => (wide ? [text] : wrap(text, RULES_WIDTH - indent.length));
  const row = (c: string[]) => {
    const [first, ...more] = rest(c.at(-1)!);
    const lead = c
      .slice(0, -1)
      .map((v, i) => v.padEnd(widths[i] + 2))
      .join('');
    return [lead + first, ...more.map((l) => indent + l)];
  };
  const out = [`SUNAT's rules for documents issued on ${at} (--at for another date)`, '', ...row(head)];
  rows.forEach((r, i) => out.push(...row(cells[i]), ...(wide ? [`${indent}source: ${r.source}`] : [])));
  const moved = rows.filter((r) => r.moved);
  const notes = [
    ...(moved.length
      ? [`* moved by CHASQUI_RULE_DATES (shipped: ${moved.map((r) => `${r.id} ${r.default_effective}`).join(', ')})`]
      : []),
    catalog,
    ...(wide ? [] : ['confidence, SUNAT codes and sources: chasqui rules --wide (or --json)']),
  ];
  if (notes.length) out.push('', ...notes.flatMap((n) => (wide ? [n] : wrap(n, RULES_WIDTH))));
  return out.join('\n');
}

/** Which catalog 25 judges product codes (product-code-valid): the one chasqui carries or CHASQUI_PRODUCT_CODES'. */
function catalogNote(rules: RuleCalendar): string {
  const listing = rules.productCodeListing();
  const count = listing.codes.size.toLocaleString('en-US');
  return rules.productCodes
    ? `catalog 25 (product codes): ${listing.source} (CHASQUI_PRODUCT_CODES), ${count} codes`
    : `catalog 25 (product codes): ${listing.source} as chasqui carries it, ${count} codes (CHASQUI_PRODUCT_CODES replaces it)`;
}

/** Returns the exit code: 0, or 2 for a usage error. */
export async function rulesCommand(
  argv: string[],
  io: { out: (text: string) => void; err: (text: string) => void } = { out: console.log, err: console.error },
): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        json: { type: 'boolean' },
        wide: { type: 'boolean' },
        at: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (err) {
    io.err(`chasqui rules: ${(err as Error).message}\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    io.out(USAGE);
    return 0;
  }
  const at = values.at ?? limaDate(new Date());
  if (!isCalendarDate(at)) {
    io.err(`chasqui rules: --at needs a date YYYY-MM-DD, got '${at}'\n${USAGE}`);
    return 2;
  }
  const { rules } = loadConfig();
  const rows = ruleRows(rules, at);
  io.out(values.json ? JSON.stringify(rows, null, 2) : table(rows, at, values.wide ?? false, catalogNote(rules)));
  return 0;
}
