import { NODE_LINES, type NodeLine } from './node-releases';

/**
 * Whether the running Node still gets security fixes, judged against the release table (runtime/node-releases.ts):
 * past its end of life, `npm run check:runtime` fails and every chasqui process logs an error at start; within
 * EOL_WARNING_DAYS of it, or on a line that is not LTS, they warn. `today` is always given, so tests and
 * `--on YYYY-MM-DD` judge any date.
 */

/** A quarter ahead: time for one monthly upgrade round to move the runtime line and a second to catch a slip. */
export const EOL_WARNING_DAYS = 90;
/** The lines a fix names: LTS lines with at least a year of support left. */
const RECOMMENDED_DAYS = 365;
const DAY_MS = 86_400_000;
const DOCS = 'docs/dependencies.md, "How to upgrade"';

export type RuntimeStatus = 'supported' | 'warn' | 'eol';

export interface RuntimeVerdict {
  status: RuntimeStatus;
  line: number;
  /** The line's end of life, null for a line the table does not know. */
  end: string | null;
  /** Whole days from `today` to the end of life (0 on the day itself, negative after); null when unknown. */
  daysLeft: number | null;
  /** One line: what is wrong (or that all is well), the date, and the fix. */
  message: string;
}

/** Whole days from `today` (its UTC date) to `date` (YYYY-MM-DD, UTC). */
export function daysUntil(date: string, today: Date): number {
  const midnight = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate());
  return Math.round((Date.parse(`${date}T00:00:00Z`) - midnight) / DAY_MS);
}

/** `v24.11.1` → 24. */
export function lineOf(version: string): number {
  const match = /^v?(\d+)\./.exec(version);
  if (!match) throw new Error(`not a Node.js version: '${version}'`);
  return Number(match[1]);
}

function isLts(row: NodeLine, today: Date): boolean {
  return row.lts !== undefined && daysUntil(row.lts, today) <= 0;
}

/** "Node 24 or 26": the LTS lines a move should go to on `today`. */
function recommended(today: Date, lines: readonly NodeLine[]): string {
  const names = lines
    .filter((row) => isLts(row, today) && daysUntil(row.end, today) > RECOMMENDED_DAYS)
    .map((row) => String(row.line));
  if (!names.length) return 'a current LTS line (runtime/node-releases.ts has none left: update it)';
  return `Node ${names.length > 1 ? `${names.slice(0, -1).join(', ')} or ${names.at(-1)}` : names[0]}`;
}

/** The verdict on `version` (process.version) on `today`. */
export function runtimeSupport(version: string, today: Date, lines: readonly NodeLine[] = NODE_LINES): RuntimeVerdict {
  const line = lineOf(version);
  const name = `Node ${line} (${version})`;
  const fix = recommended(today, lines);
  const row = lines.find((r) => r.line === line);
  if (!row) {
    const oldest = lines[0];
    return line < oldest.line
      ? {
          status: 'eol',
          line,
          end: null,
          daysLeft: null,
          message: `${name} is older than Node ${oldest.line}, which reached its end of life on ${oldest.end}: it gets no security fixes; run chasqui on ${fix} (${DOCS})`,
        }
      : {
          status: 'warn',
          line,
          end: null,
          daysLeft: null,
          message: `${name} is not in runtime/node-releases.ts: add its row from the Node.js release schedule (${DOCS})`,
        };
  }
  const daysLeft = daysUntil(row.end, today);
  const verdict = { line, end: row.end, daysLeft };
  if (daysLeft <= 0)
    return {
      ...verdict,
      status: 'eol',
      message: `${name} reached its end of life on ${row.end}${daysLeft < 0 ? `, ${-daysLeft} days ago` : ''}: it gets no security fixes; run chasqui on ${fix} (${DOCS})`,
    };
  if (daysLeft <= EOL_WARNING_DAYS)
    return {
      ...verdict,
      status: 'warn',
      message: `${name} reaches its end of life on ${row.end}, in ${daysLeft} days: move chasqui to ${fix} before then (${DOCS})`,
    };
  if (!isLts(row, today))
    return {
      ...verdict,
      status: 'warn',
      message: `${name} is not an LTS release${row.lts ? ` until ${row.lts}` : ''}: production should run ${fix} (${DOCS})`,
    };
  return {
    ...verdict,
    status: 'supported',
    message: `${name} is supported until ${row.end} (${daysLeft} days)`,
  };
}

/**
 * `npm run check:runtime [-- --on YYYY-MM-DD]`: exit 1 past the end of life, 0 otherwise (a warning on stderr within
 * EOL_WARNING_DAYS of it), 2 on a bad argument.
 */
export function checkRuntimeCommand(
  argv: string[],
  version: string,
  now: Date,
): { code: number; stream: 'stdout' | 'stderr'; text: string } {
  let today = now;
  if (argv.length) {
    const on = argv[0] === '--on' && argv.length === 2 ? argv[1] : null;
    const parsed = on && /^\d{4}-\d{2}-\d{2}$/.test(on) ? new Date(`${on}T00:00:00Z`) : null;
    if (!parsed || Number.isNaN(parsed.getTime()) || parsed.toISOString().slice(0, 10) !== on)
      return {
        code: 2,
        stream: 'stderr',
        text: `usage: npm run check:runtime [-- --on YYYY-MM-DD], got '${argv.join(' ')}'`,
      };
    today = parsed;
  }
  const verdict = runtimeSupport(version, today);
  if (verdict.status === 'eol') return { code: 1, stream: 'stderr', text: `chasqui: ${verdict.message}` };
  if (verdict.status === 'warn') return { code: 0, stream: 'stderr', text: `chasqui: warning: ${verdict.message}` };
  return { code: 0, stream: 'stdout', text: `chasqui: ${verdict.message}` };
}

if (require.main === module) {
  const result = checkRuntimeCommand(process.argv.slice(2), process.version, new Date());
  process[result.stream].write(`${result.text}\n`);
  process.exitCode = result.code;
}
