import type { Client } from '@temporalio/client';
import { encodeSearchAttributeIndexedValueType } from '@temporalio/common/lib/search-attributes';
import { logger } from '../core/logger';
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
