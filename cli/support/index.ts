import os from 'node:os';
import { parseArgs } from 'node:util';
import { lifecycleDeps, recheck, redeliverDocument, resend } from '../../support/actions';
import { tokensCommand, TOKENS_HELP } from './tokens';
import { EXIT, runBulk, type Io, type SupportAction } from './bulk';
import { checks, CHECKS_HELP } from './checks';
import type { SupportDeps } from './deps';
import { OPTIONS, positiveInt, UsageError, type Values } from './options';
import { byReferences, failedDeliverySelection, stuckSelection } from './select';
import { find, stuck } from './report';

const HELP = `chasqui support: find documents, see why they are stuck, and act on them (support staff)

usage: chasqui support <command> [options]      (chasqui support <command> --help for more)

  find <reference>       one document, its state, its timeline and its Temporal UI link
                         e.g. chasqui support find 20123456786-01-F001-10
                         (or F001-10, the file name, the external_id)
  stuck                  unresolved documents past a threshold, grouped by why
                         e.g. chasqui support stuck --older-than 1h --ruc 20123456786
  recheck <selector>     ask the authority for the real state now (timeouts, tickets)
                         e.g. chasqui support recheck --older-than 30m --status sent --dry-run
  resend <selector>      send the same signed XML again where spec 3.1 allows
                         (not received: connection failures)
                         e.g. chasqui support resend F001-10 --ruc 20123456786
  redeliver <selector>   deliver the cpe.resolved webhook again (a new X-Entrega)
                         e.g. chasqui support redeliver --ruc 20123456786 --failed-since 3h
  checks                 every company's checks (certificate, credentials, gaps, windows, rules),
                         worst first
                         e.g. chasqui support checks --ruc 20123456786 --run
  tokens <create|list|revoke>   support staff's console tokens (scope support:operate)
                         e.g. chasqui support tokens create --name ana.quispe --expires 90d

Reads DATABASE_URL and TEMPORAL_ADDRESS (or a running npm start); needs no temporal binary.
Exit codes: 0 done (also when nothing is stuck or nothing matches a selection), 1 failed (some
action failed, or --fail-if-any found something), 2 usage error, 3 find matched no document, 130
interrupted (Ctrl-C).`;

const SELECTOR_HELP = `selector: external ids / references (F001-10, RUC-TT-SERIE-NUMERO, file names), or the
filters of stuck:
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
exit codes: 0 done (an empty selection too: nothing to do), 1 some action failed (or --fail-if-any),
  2 usage, 130 interrupted`;

export const COMMAND_HELP: Record<string, string> = {
  find: `usage: chasqui support find <external_id | RUC-TT-SERIE-NUMERO | SERIE-NUMERO | file name>
                           [--ruc RUC] [--json]

Shows the document, why it has no verdict (if so), its timeline (issue, each send attempt and its
classification, ticket polls and state queries, the verdict, webhook deliveries and their attempts,
support actions) and the Temporal UI link. When several companies have the number, lists the
candidates.
  e.g. chasqui support find F001-10
       chasqui support find 20123456786-01-F001-10.zip --json
Exit codes: 0 found, 2 usage, 3 no document matches.`,
  stuck: `usage: chasqui support stuck [--older-than 30m] [--status S[,S]] [--ruc RUC] [--limit 1000]
                            [--fail-if-any] [--json]

Unresolved documents issued longer ago than --older-than, grouped by why they have no verdict yet.
  e.g. chasqui support stuck --older-than 2h
       chasqui support stuck --status sent --json | jq '.groups[].documents[].external_id'
       chasqui support stuck --older-than 2h --fail-if-any || notify-on-call   # alert when stuck
Exit codes: 0 answered (nothing stuck is an answer too), 1 with --fail-if-any when something is
stuck, 2 usage.`,
  recheck: `usage: chasqui support recheck <selector> [options]

Asks SUNAT (or the OSE) for the document's real state now: a timed-out send is queried, a ticket
polled. Never sends.
${SELECTOR_HELP}
  e.g. chasqui support recheck --older-than 30m --status sent --dry-run
       chasqui support recheck 20123456786-01-F001-10 --yes`,
  resend: `usage: chasqui support resend <selector> [options]

Sends the same signed XML again (no new signature, no quota), only where spec 3.1 allows: documents
that never reached the authority (connection failures). A timed-out document may have arrived:
recheck it instead.
${SELECTOR_HELP}
  e.g. chasqui support resend --ruc 20123456786 --status queued --dry-run`,
  redeliver: `usage: chasqui support redeliver <selector> [options] [--failed-since 3h]

Delivers the document's cpe.resolved webhook again, as a new delivery (new X-Entrega) to the URL
configured now. With filters instead of references: documents whose last delivery failed within
--failed-since (default 24h).
${SELECTOR_HELP}
  e.g. chasqui support redeliver --ruc 20123456786 --failed-since 3h --dry-run`,
  checks: CHECKS_HELP,
  tokens: TOKENS_HELP,
};

// Read by test/operations/docs.test.ts beside COMMAND_HELP.
export { OPTIONS } from './options';

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

/** The lifecycle action `name` (support/actions.ts), as support staff take it: resend only what never arrived. */
function actionOf(deps: SupportDeps, name: 'recheck' | 'resend' | 'redeliver'): SupportAction {
  const lifecycle = lifecycleDeps(deps);
  const act = { recheck, resend, redeliver: redeliverDocument }[name];
  return { name, act: (doc, options) => act(lifecycle, doc, options) };
}
