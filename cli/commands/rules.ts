/**
 * `chasqui rules [--json] [--at YYYY-MM-DD]`: SUNAT's dated rules as this installation applies them
 * (CHASQUI_RULE_DATES included), each in force or upcoming at a date (docs/rules.md).
 */
import { parseArgs } from 'node:util';
import { loadConfig } from '../../core/config';
import { limaDate } from '../../core/lima';
import { isCalendarDate, RULES, type RuleCalendar } from '../../documents/calendar';

const USAGE = `usage: chasqui rules [--json] [--at YYYY-MM-DD]
  SUNAT's dated rules as chasqui applies them: id, effective issue date, in force or upcoming at the date (today in
  Lima by default), SUNAT's codes, what changes, source and confidence. Dates moved by CHASQUI_RULE_DATES are marked *.
  A rule judges a document by its issue date (fechaEmision), not by the day it is sent. Exit 0; 2 usage error.
examples:
  chasqui rules
  chasqui rules --at 2027-01-01
  CHASQUI_RULE_DATES=product-code-required=2027-07-01 chasqui rules --json | jq '.[] | select(.status == "upcoming")'`;

interface RuleRow {
  id: string;
  effective: string;
  /** The date chasqui ships, when CHASQUI_RULE_DATES moved it; otherwise equal to `effective`. */
  default_effective: string;
  moved: boolean;
  status: string;
  codes: string[];
  document_types: string[];
  summary: string;
  source: string;
  confidence: string;
}

function ruleRows(calendar: RuleCalendar, at: string): RuleRow[] {
  return calendar.list().map((rule) => {
    const shipped = RULES.find((r) => r.id === rule.id)!.effective;
    return {
      id: rule.id,
      effective: rule.effective,
      default_effective: shipped,
      moved: shipped !== rule.effective,
      status: calendar.status(rule.id, at),
      codes: [...rule.codes],
      document_types: [...rule.docTypes],
      summary: rule.summary,
      source: rule.source,
      confidence: rule.confidence,
    };
  });
}

function table(rows: RuleRow[], at: string): string {
  const head = ['ID', 'EFFECTIVE', `STATUS ${at}`, 'CONFIDENCE', 'CODES', 'WHAT'];
  const cells = rows.map((r) => [
    r.id,
    r.effective + (r.moved ? '*' : ''),
    r.status,
    r.confidence,
    r.codes.join(','),
    r.summary,
  ]);
  const widths = head.slice(0, -1).map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
  const line = (c: string[]) => c.map((v, i) => (i < widths.length ? v.padEnd(widths[i]) : v)).join('  ');
  const indent = ' '.repeat(widths.reduce((a, w) => a + w + 2, 0));
  const out = [line(head)];
  rows.forEach((r, i) => out.push(line(cells[i]), `${indent}source: ${r.source}`));
  const moved = rows.filter((r) => r.moved);
  if (moved.length)
    out.push(
      '',
      `* moved by CHASQUI_RULE_DATES (shipped: ${moved.map((r) => `${r.id} ${r.default_effective}`).join(', ')})`,
    );
  return out.join('\n');
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
      options: { json: { type: 'boolean' }, at: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
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
  const rows = ruleRows(loadConfig().rules, at);
  io.out(values.json ? JSON.stringify(rows, null, 2) : table(rows, at));
  return 0;
}
