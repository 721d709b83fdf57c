import os from 'node:os';
import { parseArgs } from 'node:util';
import { listDocuments, type ListedDocument } from '../../db/documents';
import { findDocumentsByReference } from '../../db/document-references';
import { toApiDocument } from '../../db/document-presentation';
import { documentTimeline } from '../../lifecycle/timeline';
import { findCompanyById } from '../../db/companies';
import { listFailedDeliveries } from '../../db/webhooks';
import {
  DOCUMENT_STATUSES,
  waitingMessage,
  waitingReason,
  type DocStatus,
  type WaitingReason,
} from '../../lifecycle/transitions';
import { lifecycleDeps, recheck, redeliverDocument, resend } from '../../lifecycle/actions';
import { tokensCommand, TOKENS_HELP } from './tokens';
import { EXIT, runBulk, type Io, type SupportAction } from './bulk';
import { age, iso, table } from './explain';
import { parseDuration } from '../../core/durations';
import { temporalUiLink } from '../../lifecycle/links';
import { english, resultMessage } from '../../lifecycle/messages';
import { checks, CHECKS_HELP } from './checks';
import type { SupportDeps } from './deps';

const HELP = `chasqui support: find documents, see why they are stuck, and act on them (support staff)

usage: chasqui support <command> [options]      (chasqui support <command> --help for more)

  find <reference>       one document, its state, its timeline and its Temporal UI link
                         e.g. chasqui support find 20123456786-01-F001-10   (or F001-10, the file name, the external_id)
  stuck                  unresolved documents past a threshold, grouped by why
                         e.g. chasqui support stuck --older-than 1h --ruc 20123456786
  recheck <selector>     ask the authority for the real state now (timeouts, tickets)
                         e.g. chasqui support recheck --older-than 30m --status sent --dry-run
  resend <selector>      send the same signed XML again where spec 3.1 allows (not received: connection failures)
                         e.g. chasqui support resend F001-10 --ruc 20123456786
  redeliver <selector>   deliver the cpe.resolved webhook again (a new X-Entrega)
                         e.g. chasqui support redeliver --ruc 20123456786 --failed-since 3h
  checks                 every company's checks (certificate, credentials, gaps, windows, rules), worst first
                         e.g. chasqui support checks --ruc 20123456786 --run
  tokens <create|list|revoke>   support staff's console tokens (scope support:operate)
                         e.g. chasqui support tokens create --name ana.quispe --expires 90d

Reads DATABASE_URL and TEMPORAL_ADDRESS (or a running npm start); needs no temporal binary.
Exit codes: 0 done (also when nothing is stuck or nothing matches a selection), 1 failed (some action failed, or
--fail-if-any found something), 2 usage error, 3 find matched no document, 130 interrupted (Ctrl-C).`;

const SELECTOR_HELP = `selector: external ids / references (F001-10, RUC-TT-SERIE-NUMERO, file names), or the filters of stuck:
  --older-than 30m   issued longer ago than this (default 30m when no reference is given)
  --status S[,S]     only these statuses (sent, registered, queued, …)
  --ruc RUC          only this company
options:
  --dry-run          list what would happen and change nothing
  --yes              do not ask for confirmation (needed when not on a terminal)
  --rate N[/s]       at most N documents per second (default 5), to spare SUNAT
  --operator NAME    who is acting, for the audit record (default: the OS user)
  --limit N          at most N documents (default 1000)
  --fail-if-any      exit 1 when any selected document is left alone or refused (for scripts)
  --json             one JSON document on stdout
exit codes: 0 done (an empty selection too: nothing to do), 1 some action failed (or --fail-if-any), 2 usage,
  130 interrupted`;

export const COMMAND_HELP: Record<string, string> = {
  find: `usage: chasqui support find <external_id | RUC-TT-SERIE-NUMERO | SERIE-NUMERO | file name> [--ruc RUC] [--json]

Shows the document, why it has no verdict (if so), its timeline (issue, each send attempt and its classification,
ticket polls and state queries, the verdict, webhook deliveries and their attempts, support actions) and the
Temporal UI link. When several companies have the number, lists the candidates.
  e.g. chasqui support find F001-10
       chasqui support find 20123456786-01-F001-10.zip --json
Exit codes: 0 found, 2 usage, 3 no document matches.`,
  stuck: `usage: chasqui support stuck [--older-than 30m] [--status S[,S]] [--ruc RUC] [--limit 1000] [--fail-if-any] [--json]

Unresolved documents issued longer ago than --older-than, grouped by why they have no verdict yet.
  e.g. chasqui support stuck --older-than 2h
       chasqui support stuck --status sent --json | jq '.groups[].documents[].external_id'
       chasqui support stuck --older-than 2h --fail-if-any || notify-on-call     # alert when anything is stuck
Exit codes: 0 answered (nothing stuck is an answer too), 1 with --fail-if-any when something is stuck, 2 usage.`,
  recheck: `usage: chasqui support recheck <selector> [options]

Asks SUNAT (or the OSE) for the document's real state now: a timed-out send is queried, a ticket polled. Never sends.
${SELECTOR_HELP}
  e.g. chasqui support recheck --older-than 30m --status sent --dry-run
       chasqui support recheck 20123456786-01-F001-10 --yes`,
  resend: `usage: chasqui support resend <selector> [options]

Sends the same signed XML again (no new signature, no quota), only where spec 3.1 allows: documents that never
reached the authority (connection failures). A timed-out document may have arrived: recheck it instead.
${SELECTOR_HELP}
  e.g. chasqui support resend --ruc 20123456786 --status queued --dry-run`,
  redeliver: `usage: chasqui support redeliver <selector> [options] [--failed-since 3h]

Delivers the document's cpe.resolved webhook again, as a new delivery (new X-Entrega) to the URL configured now.
With filters instead of references: documents whose last delivery failed within --failed-since (default 24h).
${SELECTOR_HELP}
  e.g. chasqui support redeliver --ruc 20123456786 --failed-since 3h --dry-run`,
  checks: CHECKS_HELP,
  tokens: TOKENS_HELP,
};

class UsageError extends Error {}

/** Every option of `chasqui support` (docs/operations.md is checked against this list). */
export const OPTIONS = {
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  'older-than': { type: 'string' },
  status: { type: 'string', multiple: true },
  ruc: { type: 'string' },
  limit: { type: 'string' },
  'dry-run': { type: 'boolean' },
  yes: { type: 'boolean', short: 'y' },
  rate: { type: 'string' },
  operator: { type: 'string' },
  'failed-since': { type: 'string' },
  run: { type: 'boolean' },
  'fail-if-any': { type: 'boolean' },
} as const;

type Values = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>['values'];

/** Runs `run` with the database (and lazily Temporal) open, and closes them after; the exit code passes through. */
export type WithDeps = (run: (deps: SupportDeps) => Promise<number>) => Promise<number>;

/** `chasqui support …`: returns the exit code (see HELP). Usage errors are found before anything is connected. */
export async function supportCommand(
  argv: string[],
  withDeps: WithDeps,
  io: Io = process as unknown as Io,
): Promise<number> {
  const [sub, ...rest] = argv;
  if (!sub || sub === '--help' || sub === '-h' || sub === 'help') {
    io.stdout.write(HELP + '\n');
    return sub ? EXIT.done : EXIT.usage;
  }
  if (sub === 'tokens') return tokensCommand(rest, (run) => withDeps((deps) => run(deps.db)), io);
  if (!COMMAND_HELP[sub]) {
    io.stderr.write(`chasqui support: unknown command '${sub}'\n\n${HELP}\n`);
    return EXIT.usage;
  }
  const usage = (err: unknown) => {
    if (!(err instanceof UsageError) && !String((err as { code?: string }).code).startsWith('ERR_PARSE_ARGS'))
      throw err;
    io.stderr.write(`chasqui support ${sub}: ${(err as Error).message}\n\n${COMMAND_HELP[sub]}\n`);
    return EXIT.usage;
  };
  let parsed: { values: Values; positionals: string[] };
  try {
    parsed = parseArgs({ args: rest, options: OPTIONS, allowPositionals: true, strict: true });
    if (sub === 'find' && parsed.positionals.length !== 1 && !parsed.values.help) {
      throw new UsageError('give one reference: an external_id, RUC-TT-SERIE-NUMERO, SERIE-NUMERO or a file name');
    }
    if ((sub === 'stuck' || sub === 'checks') && parsed.positionals.length)
      throw new UsageError(`${sub} takes only options, got '${parsed.positionals[0]}'`);
    if (sub !== 'checks' && parsed.values.run) throw new UsageError('--run belongs to checks');
  } catch (err) {
    return usage(err);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    io.stdout.write(COMMAND_HELP[sub] + '\n');
    return EXIT.done;
  }
  return withDeps(async (deps) => {
    try {
      if (sub === 'find') return await find(deps, io, positionals, values);
      if (sub === 'stuck') return await stuck(deps, io, values);
      if (sub === 'checks') return await checks(deps, io, values);
      return await act(
        deps,
        io,
        sub as 'recheck' | 'resend' | 'redeliver',
        positionals,
        values,
        ['chasqui', 'support', ...argv].join(' '),
      );
    } catch (err) {
      return usage(err);
    }
  });
}

function statusesOf(values: Values): DocStatus[] | undefined {
  if (!values.status) return undefined;
  const list = values.status
    .flatMap((s) => s.split(','))
    .map((s) => s.trim())
    .filter(Boolean);
  const wrong = list.filter((s) => !DOCUMENT_STATUSES.includes(s as DocStatus));
  if (wrong.length) throw new UsageError(`unknown status ${wrong.join(', ')}; one of ${DOCUMENT_STATUSES.join(', ')}`);
  return list as DocStatus[];
}

function durationOf(text: string | undefined, fallback: string, name: string): number {
  const seconds = parseDuration(text ?? fallback);
  if (seconds === null) throw new UsageError(`${name} must be a duration like 90s, 30m, 2h or 1d, got '${text}'`);
  return seconds;
}

function positiveInt(text: string | undefined, fallback: number, name: string): number {
  if (text === undefined) return fallback;
  const n = Number(text.replace(/\/s$/, ''));
  if (!(n > 0) || !Number.isFinite(n)) throw new UsageError(`${name} must be a positive number, got '${text}'`);
  return n;
}

/** The unresolved documents `stuck` (and a selector without references) selects. */
function stuckSelection(deps: SupportDeps, values: Values): Promise<ListedDocument[]> {
  const olderThan = durationOf(values['older-than'], '30m', '--older-than');
  return listDocuments(deps.db, {
    resolved: false,
    statuses: statusesOf(values),
    ruc: values.ruc,
    createdBefore: new Date(Date.now() - olderThan * 1000),
    limit: positiveInt(values.limit, 1000, '--limit'),
  });
}

/** References (one document each; an ambiguous one is a usage error listing its candidates), narrowed by --ruc. */
async function byReferences(
  deps: SupportDeps,
  references: string[],
  ruc: string | undefined,
): Promise<ListedDocument[]> {
  const docs: ListedDocument[] = [];
  for (const reference of references) {
    const found = (await findDocumentsByReference(deps.db, reference)).filter((d) => !ruc || d.ruc === ruc);
    if (found.length === 0) throw new UsageError(`no document matches '${reference}'${ruc ? ` for RUC ${ruc}` : ''}`);
    if (found.length > 1) {
      throw new UsageError(
        `'${reference}' matches ${found.length} documents; name one by external_id or add --ruc:\n${candidates(found)}`,
      );
    }
    if (!docs.some((d) => d.id === found[0].id)) docs.push(found[0]);
  }
  return docs;
}

function candidates(docs: ListedDocument[]): string {
  return table([
    ['DOCUMENT', 'STATUS', 'ISSUED', 'EXTERNAL_ID'],
    ...docs.map((d) => [d.filename, d.status, iso(d.created_at), d.id]),
  ]);
}

async function find(deps: SupportDeps, io: Io, positionals: string[], values: Values): Promise<number> {
  const found = (await findDocumentsByReference(deps.db, positionals[0])).filter(
    (d) => !values.ruc || d.ruc === values.ruc,
  );
  if (found.length === 0) {
    if (values.json) io.stdout.write(JSON.stringify({ documents: [] }) + '\n');
    io.stderr.write(
      `no document matches '${positionals[0]}' (tried external_id, RUC-TT-SERIE-NUMERO, SERIE-NUMERO and file name)\n`,
    );
    return EXIT.nothingMatched;
  }
  if (found.length > 1) {
    if (values.json) io.stdout.write(JSON.stringify({ documents: found.map(toApiDocument) }) + '\n');
    else
      io.stdout.write(
        `${found.length} documents match '${positionals[0]}':\n${candidates(found)}\nshow one with: chasqui support find <EXTERNAL_ID>\n`,
      );
    return EXIT.done;
  }
  const doc = found[0];
  const company = await findCompanyById(deps.db, doc.company_id);
  const timeline = await documentTimeline(deps.db, doc);
  const reason = doc.resolved ? null : waitingReason(doc);
  const link = temporalUiLink(deps.config, doc.id);
  if (values.json) {
    io.stdout.write(
      JSON.stringify({
        document: {
          ...toApiDocument(doc),
          ruc: doc.ruc,
          company: company?.business_name ?? null,
          customer: doc.customer_doc,
          issue_date: doc.issue_date,
          send_attempts: doc.send_attempts,
        },
        waiting: reason ? { reason, explanation: english(waitingMessage(reason)) } : null,
        temporal_ui: link,
        timeline: timeline.map((t) => ({ at: t.at.toISOString(), event: english(t.event), detail: english(t.detail) })),
      }) + '\n',
    );
    return EXIT.done;
  }
  const result = doc.result ? english(resultMessage(doc.result)) : '-';
  const lines = [
    `${doc.filename}  ${company?.business_name ?? ''}`,
    table([
      ['  external_id', doc.id],
      [
        '  status',
        `${doc.status} (${doc.status_code})${doc.resolved ? ', resolved' : `, no verdict yet after ${age(doc.created_at)}`}`,
      ],
      ...(reason ? [['  why', english(waitingMessage(reason))]] : []),
      ['  result', result],
      [
        '  issued',
        `${iso(doc.created_at)} (issue date ${doc.issue_date}), environment ${doc.environment === '02' ? 'production' : 'demo'}, to ${doc.destination}`,
      ],
      ['  customer', doc.customer_doc ?? '-'],
      ['  ticket', doc.ticket ?? '-'],
      ['  Temporal UI', link ?? `workflow cpe-${doc.id} (set TEMPORAL_UI_URL for a link)`],
    ]),
    '',
    'timeline',
    table(timeline.map((t) => [`  ${iso(t.at)}`, english(t.event), english(t.detail)])),
  ];
  io.stdout.write(lines.join('\n') + '\n');
  return EXIT.done;
}

async function stuck(deps: SupportDeps, io: Io, values: Values): Promise<number> {
  const docs = await stuckSelection(deps, values);
  const groups = new Map<WaitingReason, ListedDocument[]>();
  for (const doc of docs) {
    const reason = waitingReason(doc);
    groups.set(reason, [...(groups.get(reason) ?? []), doc]);
  }
  const olderThan = values['older-than'] ?? '30m';
  if (values.json) {
    io.stdout.write(
      JSON.stringify({
        older_than: olderThan,
        count: docs.length,
        groups: [...groups].map(([reason, list]) => ({
          reason,
          explanation: english(waitingMessage(reason)),
          documents: list.map((d) => ({
            ...toApiDocument(d),
            ruc: d.ruc,
            age_seconds: Math.round((Date.now() - d.created_at.getTime()) / 1000),
          })),
        })),
      }) + '\n',
    );
  } else if (docs.length === 0) {
    io.stderr.write(`nothing unresolved older than ${olderThan}${values.ruc ? ` for RUC ${values.ruc}` : ''}\n`);
  } else {
    const out: string[] = [`${docs.length} unresolved document(s) older than ${olderThan}`];
    for (const [reason, list] of groups) {
      out.push('', `${reason} (${list.length}): ${english(waitingMessage(reason))}`);
      out.push(
        table([
          ['  DOCUMENT', 'STATUS', 'AGE', 'SENDS', 'LAST RESULT', 'EXTERNAL_ID'],
          ...list.map((d) => [
            `  ${d.filename}`,
            d.status,
            age(d.created_at),
            String(d.send_attempts),
            d.result ? `${d.result.origin ?? ''} ${d.result.code ?? ''}`.trim() || '-' : '-',
            d.id,
          ]),
        ]),
      );
    }
    io.stdout.write(out.join('\n') + '\n');
  }
  // "Nothing stuck" is an answer; a script that alerts on stuck documents asks for --fail-if-any.
  return docs.length && values['fail-if-any'] ? EXIT.failed : EXIT.done;
}

async function act(
  deps: SupportDeps,
  io: Io,
  name: 'recheck' | 'resend' | 'redeliver',
  positionals: string[],
  values: Values,
  command: string,
): Promise<number> {
  const docs = positionals.length
    ? await byReferences(deps, positionals, values.ruc)
    : name === 'redeliver'
      ? await failedDeliverySelection(deps, values)
      : await stuckSelection(deps, values);
  if (docs.length === 0) {
    if (values.json) io.stdout.write(JSON.stringify({ action: name, counts: {}, items: [] }) + '\n');
    io.stderr.write(`nothing to ${name}: no document matches the selection\n`);
    return EXIT.done;
  }
  return runBulk({
    action: actionOf(deps, name),
    docs,
    operator: values.operator?.trim() || os.userInfo().username,
    dryRun: !!values['dry-run'],
    yes: !!values.yes,
    failIfAny: !!values['fail-if-any'],
    rate: positiveInt(values.rate, 5, '--rate'),
    json: !!values.json,
    command,
    io,
  });
}

/** Documents whose latest webhook delivery failed within --failed-since. */
async function failedDeliverySelection(deps: SupportDeps, values: Values): Promise<ListedDocument[]> {
  const since = durationOf(values['failed-since'], '24h', '--failed-since');
  const ids = await listFailedDeliveries(deps.db, {
    ruc: values.ruc,
    since: new Date(Date.now() - since * 1000),
    limit: positiveInt(values.limit, 1000, '--limit'),
  });
  return ids.length ? listDocuments(deps.db, { ids, limit: ids.length }) : [];
}

/** The lifecycle action `name` (lifecycle/actions.ts), as support staff take it: resend only what never arrived. */
function actionOf(deps: SupportDeps, name: 'recheck' | 'resend' | 'redeliver'): SupportAction {
  const lifecycle = lifecycleDeps(deps);
  const act = { recheck, resend, redeliver: redeliverDocument }[name];
  return { name, act: (doc, options) => act(lifecycle, doc, options) };
}
