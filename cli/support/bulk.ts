import readline from 'node:readline/promises';
import type { ListedDocument } from '../../db/documents';
import type { SupportActionName } from '../../db/support-actions';
import type { ActionResult } from '../../lifecycle/result';
import type { ActOptions } from '../../support/actions';
import { table } from './explain';

/** One lifecycle action (support/actions.ts) over one document; with `dryRun` it only decides. */
export interface SupportAction {
  name: SupportActionName;
  act(doc: ListedDocument, options: ActOptions): Promise<ActionResult<unknown>>;
}

export interface Io {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown; isTTY?: boolean };
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
}

export interface BulkOptions {
  action: SupportAction;
  docs: ListedDocument[];
  operator: string;
  dryRun: boolean;
  yes: boolean;
  /** Exit 1 when any selected document was left alone or refused (scripts that expect every one acted on). */
  failIfAny: boolean;
  /** Documents per second at most (spares SUNAT when each action queries or sends). */
  rate: number;
  json: boolean;
  /** The command as typed, to print how to continue after Ctrl-C. */
  command: string;
  io: Io;
}

type Outcome = 'done' | 'refused' | 'failed' | 'would' | 'skipped';
interface Item {
  doc: ListedDocument;
  outcome: Outcome | 'pending';
  detail: string;
}

export const EXIT = { done: 0, failed: 1, usage: 2, nothingMatched: 3, interrupted: 130 } as const;

/**
 * Asks before a change, on a terminal only: null to go on, else the exit code (usage off a terminal, where `--yes` is
 * the way; done when the person declines). `prefix` names the command in its lines.
 */
export async function confirmed(
  io: Pick<Io, 'stdin' | 'stderr'>,
  question: string,
  offTerminal: string,
  prefix = '',
): Promise<number | null> {
  if (!io.stdin.isTTY) {
    io.stderr.write(`${prefix}not on a terminal: ${offTerminal}\n`);
    return EXIT.usage;
  }
  const rl = readline.createInterface({ input: io.stdin, output: io.stderr as NodeJS.WritableStream });
  const answer = await rl.question(`${question}? [y/N] `);
  rl.close();
  if (/^y(es)?$/i.test(answer.trim())) return null;
  io.stderr.write(`${prefix}nothing was changed\n`);
  return EXIT.done;
}

/**
 * Plans (each action's dry run), confirms and runs one support action over documents, at most `rate` per second,
 * with progress on stderr, an audit record per document (the action's, as `operator`), and a clean stop on Ctrl-C
 * (after the document in flight). Exit codes: EXIT.
 */
export async function runBulk(o: BulkOptions): Promise<number> {
  const { io } = o;
  const items: Item[] = [];
  for (const doc of o.docs) {
    const plan = await o.action.act(doc, { dryRun: true });
    items.push({
      doc,
      outcome: plan.outcome === 'refused' ? 'skipped' : 'pending',
      detail: plan.outcome === 'refused' ? plan.reason : '',
    });
  }
  const todo = items.filter((i) => i.outcome === 'pending');

  if (o.dryRun) {
    for (const item of todo) {
      item.outcome = 'would';
      item.detail = `would ${o.action.name}`;
    }
    return report(o, items, false, 'dry run: nothing was changed');
  }
  if (!o.json || !o.yes) {
    io.stderr.write(planText(o, items) + '\n');
  }
  if (todo.length === 0) return report(o, items, false, `nothing to ${o.action.name}`);
  if (!o.yes) {
    const declined = await confirmed(
      io,
      `${o.action.name} ${todo.length} document(s) as ${o.operator}`,
      `add --yes to ${o.action.name} ${todo.length} document(s), or --dry-run to only list them`,
    );
    if (declined !== null) return declined;
  }

  let stop = false;
  let wake = () => {};
  const onSigint = () => {
    if (stop) process.exit(EXIT.interrupted);
    stop = true;
    wake();
    io.stderr.write('\nstopping after the document in flight (Ctrl-C again to quit at once)\n');
  };
  process.on('SIGINT', onSigint);
  const progress = new Progress(io.stderr, todo.length, o.rate);
  const intervalMs = 1000 / o.rate;
  try {
    for (const [index, item] of todo.entries()) {
      if (stop) break;
      const started = Date.now();
      try {
        // The action decides again right before acting: a document may have moved on since the plan was shown.
        const result = await o.action.act(item.doc, { actor: o.operator });
        item.outcome = result.outcome;
        item.detail = result.outcome === 'done' ? result.detail : result.reason;
      } catch (err) {
        item.outcome = 'failed';
        item.detail = (err as Error).message;
      }
      progress.tick(item.outcome);
      const wait = intervalMs - (Date.now() - started);
      if (wait > 0 && !stop && index < todo.length - 1) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, wait);
          wake = () => (clearTimeout(timer), resolve());
        });
      }
    }
  } finally {
    process.off('SIGINT', onSigint);
    progress.end();
  }
  const code = report(o, items, stop, stop ? 'interrupted' : 'finished');
  return stop ? EXIT.interrupted : code;
}

function planText(o: BulkOptions, items: Item[]): string {
  const acting = items.filter((i) => i.outcome === 'pending' || i.outcome === 'would');
  const skipped = items.filter((i) => i.outcome === 'skipped');
  const lines = [`${o.action.name}: ${acting.length} document(s) to act on, ${skipped.length} left alone`];
  const shown = items.slice(0, 50);
  lines.push(
    table([
      ['DOCUMENT', 'STATUS', 'PLAN', 'EXTERNAL_ID'],
      ...shown.map((i) => [
        i.doc.filename,
        i.doc.status,
        i.outcome === 'skipped' ? `skip: ${i.detail}` : o.action.name,
        i.doc.id,
      ]),
    ]),
  );
  if (items.length > shown.length) lines.push(`… and ${items.length - shown.length} more (--json lists them all)`);
  return lines.join('\n');
}

function report(o: BulkOptions, items: Item[], interrupted: boolean, headline: string): number {
  const count = (outcome: Item['outcome']) => items.filter((i) => i.outcome === outcome).length;
  const counts = {
    done: count('done'),
    refused: count('refused'),
    failed: count('failed'),
    skipped: count('skipped'),
    would: count('would'),
    not_done: count('pending'),
  };
  if (o.json) {
    o.io.stdout.write(
      JSON.stringify({
        action: o.action.name,
        dry_run: o.dryRun,
        operator: o.operator,
        interrupted,
        counts,
        items: items.map((i) => ({
          external_id: i.doc.id,
          filename: i.doc.filename,
          status: i.doc.status,
          outcome: i.outcome === 'pending' ? 'not_done' : i.outcome,
          detail: i.detail,
        })),
      }) + '\n',
    );
  } else {
    if (o.dryRun) o.io.stdout.write(planText(o, items) + '\n');
    const acted = items.filter((i) => i.outcome === 'done' || i.outcome === 'refused' || i.outcome === 'failed');
    if (acted.length) {
      o.io.stdout.write(
        table([['DOCUMENT', 'RESULT', 'DETAIL'], ...acted.map((i) => [i.doc.filename, i.outcome, i.detail])]) + '\n',
      );
    }
    const parts = Object.entries(counts)
      .filter(([, n]) => n > 0)
      .map(([k, n]) => `${n} ${k.replace('_', ' ')}`);
    o.io.stdout.write(`${o.action.name} ${headline}: ${parts.join(', ') || 'nothing selected'}\n`);
    if (interrupted && counts.not_done) {
      const rest = items.filter((i) => i.outcome === 'pending').map((i) => i.doc.id);
      o.io.stdout.write(
        rest.length <= 20
          ? `to continue: chasqui support ${o.action.name} ${rest.join(' ')} --yes\n`
          : `to continue: run the same command again (${o.command}); documents already handled are left alone or harmless to repeat\n`,
      );
    }
  }
  return counts.failed || (o.failIfAny && (counts.skipped || counts.refused)) ? EXIT.failed : EXIT.done;
}

/** Counts, rate and ETA on stderr: one redrawn line on a terminal, a line every few seconds otherwise. */
class Progress {
  private done = 0;
  private readonly counts: Record<string, number> = {};
  private readonly started = Date.now();
  private firstTick = 0;
  private lastLine = 0;
  constructor(
    private readonly out: { write(text: string): unknown; isTTY?: boolean },
    private readonly total: number,
    /** The --rate limit (documents per second). */
    private readonly limit: number,
  ) {}

  tick(outcome: string): void {
    this.done++;
    this.counts[outcome] = (this.counts[outcome] ?? 0) + 1;
    const now = Date.now();
    if (this.done === 1) this.firstTick = now;
    if (this.out.isTTY) this.out.write(`\r${this.line()}\u001b[K`);
    else if (now - this.lastLine >= 2000 || this.done === this.total) {
      this.lastLine = now;
      this.out.write(`${this.line()}\n`);
    }
  }

  end(): void {
    if (this.out.isTTY && this.done > 0) this.out.write('\n');
  }

  private line(): string {
    // Measured between finished documents, so --rate N reads as N/s. After the first one there is no interval yet:
    // the pace is the limit, or the first document's own time when that is slower.
    const seconds = (Date.now() - this.firstTick) / 1000;
    const firstSeconds = Math.max((this.firstTick - this.started) / 1000, 0.001);
    const rate = this.done > 1 && seconds > 0 ? (this.done - 1) / seconds : Math.min(this.limit, 1 / firstSeconds);
    const eta = `${Math.ceil((this.total - this.done) / rate)}s`;
    const width = 24;
    const filled = Math.round((this.done / this.total) * width);
    const bar = `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}]`;
    const counts = Object.entries(this.counts)
      .map(([k, n]) => `${k} ${n}`)
      .join(', ');
    return `${bar} ${this.done}/${this.total}  ${counts}  ${rate.toFixed(1)}/s  ETA ${eta}`;
  }
}
