import type { Client } from '@temporalio/client';
import { encodeSearchAttributeIndexedValueType } from '@temporalio/common/lib/search-attributes';
import { logger, type Logger } from '../core/logger';
import { registerRuntimeEolGauge } from '../core/metrics';
import { daysUntil, runtimeSupport, type RuntimeVerdict } from './node-support';
import { DEFAULT_IGV_RATES, RULES, type RuleCalendar } from '../documents/calendar';
import { masterKeyProblem } from '../db/sealed-secrets';
import {
  migrationsProblem,
  NamespaceMissing,
  searchAttributeGaps,
  searchAttributesProblem,
  namespaceFix,
  type ReadinessDeps,
} from '../api/health';
import { SEARCH_ATTRIBUTES } from '../workflows/search-attributes';

/** How often a worker waiting for its namespace asks again (quietly: the problem was said once). */
const NAMESPACE_POLL_MS = 5_000;

/**
 * The worker's checks at start, each problem said once in one line with its fix (then /readyz keeps saying it):
 * the database behind this code's migrations, a master key that cannot open the stored secrets, a missing namespace
 * (waited for: nothing runs without it), and missing or mistyped search attributes. On a dev server (SQLite
 * persistence: `temporal server start-dev`) missing search attributes are registered here; on a cluster the line
 * names the commands. The worker starts in every other case: documents wait in PostgreSQL and start once the cause is fixed.
 */
export async function checkAtStart(deps: ReadinessDeps, signal?: AbortSignal): Promise<void> {
  const migrations = await migrationsProblem(deps.db);
  if (migrations) logger.error({ check: 'migrations' }, migrations);
  const masterKey = await masterKeyProblem(deps.db, deps.secrets);
  if (masterKey) logger.error({ check: 'master_key' }, masterKey);
  let gaps = await namespaceGaps(deps, signal);
  if (gaps === null) return;
  const missing = gaps.filter((g) => !g.found);
  if (missing.length && (await isDevServer(deps.temporal))) {
    await deps.temporal.connection.operatorService.addSearchAttributes({
      namespace: deps.namespace,
      searchAttributes: Object.fromEntries(
        SEARCH_ATTRIBUTES.filter((sa) => missing.some((g) => g.name === sa.name)).map((sa) => [
          sa.name,
          encodeSearchAttributeIndexedValueType(sa.type)!,
        ]),
      ),
    });
    logger.info(
      { namespace: deps.namespace, registered: missing.map((g) => g.name) },
      'registered the missing search attributes on the Temporal dev server',
    );
    gaps = (await namespaceGaps(deps, signal)) ?? [];
  }
  if (gaps.length)
    logger.error(
      { check: 'temporal_namespace', namespace: deps.namespace },
      searchAttributesProblem(deps.namespace, gaps),
    );
}

/** The search attribute gaps once the namespace exists (said once, then waited for); null when stopped while waiting. */
async function namespaceGaps(deps: ReadinessDeps, signal?: AbortSignal) {
  for (let said = false; !signal?.aborted; said = true) {
    try {
      return await searchAttributeGaps(deps.temporal, deps.namespace);
    } catch (err) {
      if (!(err instanceof NamespaceMissing)) throw err;
      if (!said)
        logger.error(
          { check: 'temporal_namespace', namespace: deps.namespace },
          `${err.message}; the worker waits for it; ${namespaceFix(deps.namespace)}`,
        );
      await new Promise((resolve) => {
        const timer = setTimeout(resolve, NAMESPACE_POLL_MS);
        signal?.addEventListener('abort', () => (clearTimeout(timer), resolve(undefined)), { once: true });
      });
    }
  }
  return null;
}

/** `temporal server start-dev` keeps its history in SQLite; a cluster in PostgreSQL, MySQL or Cassandra. */
async function isDevServer(temporal: Client): Promise<boolean> {
  const info = await temporal.workflowService.getClusterInfo({});
  return info.persistenceStore === 'sqlite';
}

/**
 * The running Node's support, said once at start (docs/dependencies.md): an error past its end of life, a warning
 * within 90 days of it or on a line that is not LTS. Never a refusal: the documents waiting on this process matter
 * more than the runtime's age, and the operator sees it in the log and in `chasqui_runtime_eol_days`.
 */
export function reportRuntimeSupport(
  version = process.version,
  now: () => Date = () => new Date(),
  log: Pick<Logger, 'warn' | 'error'> = logger,
): RuntimeVerdict {
  const verdict = runtimeSupport(version, now());
  const end = verdict.end;
  if (end) registerRuntimeEolGauge(String(verdict.line), () => daysUntil(end, now()));
  const fields = { check: 'runtime', node: version, end_of_life: end, days_left: verdict.daysLeft };
  if (verdict.status === 'eol') log.error(fields, verdict.message);
  else if (verdict.status === 'warn') log.warn(fields, verdict.message);
  return verdict;
}

/**
 * What the operator changed in SUNAT's dated rules (CHASQUI_RULE_DATES, CHASQUI_IGV_RATES, CHASQUI_PRODUCT_CODES),
 * said once at start so a moved date, a rule switched off, a changed rate or another catalog 25 is in the log of every
 * process that judges documents.
 */
export function logRuleCalendar(rules: RuleCalendar): void {
  const changed = rules.list().filter((r) => r.off || r.effective !== RULES.find((d) => d.id === r.id)!.effective);
  for (const rule of changed)
    logger.warn(
      { rule: rule.id, confidence: rule.confidence, ...(rule.off ? { off: true } : { effective: rule.effective }) },
      rule.off
        ? `SUNAT rule ${rule.id} is switched off by CHASQUI_RULE_DATES: it judges no document`
        : `SUNAT rule ${rule.id} is moved by CHASQUI_RULE_DATES to ${rule.effective}`,
    );
  const rates = Object.entries(rules.rates).filter(
    ([step, rate]) => DEFAULT_IGV_RATES[step as keyof typeof DEFAULT_IGV_RATES] !== rate,
  );
  if (rates.length)
    logger.warn(
      { igv_rates: Object.fromEntries(rates) },
      `the special IGV rate is set by CHASQUI_IGV_RATES: ${rates.map(([step, rate]) => `${step}=${rate ?? 'none'}`).join(', ')}`,
    );
  const codes = rules.productCodes;
  if (codes)
    logger.warn(
      { product_codes: codes.source, count: codes.codes.size },
      `catalog 25 is read from CHASQUI_PRODUCT_CODES: ${codes.source}, ${codes.codes.size} codes`,
    );
}
