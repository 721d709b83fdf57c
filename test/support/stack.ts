import { randomBytes } from 'node:crypto';
import type { Client } from '@temporalio/client';
import { eagerStarter, startApi, startWorker, type ApiHandle, type WorkerHandle } from '../../runtime/services';
import { secretBoxFrom, type Config } from '../../core/config';
import type { SecretBox } from '../../core/secretbox';
import type { Db } from '../../db/knex';
import type { Lookup } from '../../core/net-guard';
import type { WorkflowStarts } from '../../api/cpe/workflow-starts';
import type { HeavyPool } from '../../heavy/pool';
import { openDocumentFiles, type DocumentFiles } from '../../files/documents';
import { SWEEPER_SCHEDULE_ID } from '../../workflows/sweeper';
import { DAILY_SUMMARY_SCHEDULE_ID } from '../../workflows/daily-summary';
import { COMPANY_CHECKS_SCHEDULE_ID } from '../../workflows/company-checks';
import { getTestDb, getTestTemporalClient, testConfig, testTemporalAddress } from './services';

export interface TestStack {
  url: string;
  config: Config;
  db: Db;
  /** The stack's file store (its config's CHASQUI_FILES_URL), shared by its API and worker as in `chasqui start`. */
  files: DocumentFiles;
  temporal: Client;
  secrets: SecretBox;
  workflowStarts: WorkflowStarts;
  heavy: HeavyPool;
  api: ApiHandle;
  worker: WorkerHandle | null;
  stop(): Promise<void>;
}

/**
 * The API (on an ephemeral port) and, unless `worker: false`, a worker on a task queue of its own, over the run's
 * shared PostgreSQL (or `db`, a database of its own) and Temporal: each suite talks to chasqui over real HTTP exactly as
 * an integrator does.
 */
export async function startTestStack(
  options: { config?: Partial<Config>; worker?: boolean; lookup?: Lookup; clock?: () => Date; db?: Db } = {},
): Promise<TestStack> {
  const config = testConfig({
    ...options.config,
    temporal: {
      ...testConfig().temporal,
      taskQueue: `test-${randomBytes(4).toString('hex')}`,
      ...(options.config?.temporal ?? {}),
    },
  });
  const secrets = secretBoxFrom(config);
  const db = options.db ?? (await getTestDb());
  const files = openDocumentFiles(config.files);
  const temporal = await getTestTemporalClient(config);
  const worker =
    options.worker === false
      ? null
      : await startWorker(config, await testTemporalAddress(), db, files, secrets, { lookup: options.lookup });
  // Suites start summary runs themselves; one fired by the clock (23:00 Lima) would take other suites' receipts.
  if (worker)
    await temporal.schedule
      .getHandle(`${DAILY_SUMMARY_SCHEDULE_ID}-${config.temporal.taskQueue}`)
      .pause('tests start summary runs themselves');
  // Likewise the company checks (every 6 h on the clock): a run would check every suite's companies against this
  // stack's authority settings. Suites run or trigger them themselves.
  if (worker)
    await temporal.schedule
      .getHandle(`${COMPANY_CHECKS_SCHEDULE_ID}-${config.temporal.taskQueue}`)
      .pause('tests run the checks themselves');
  // As in `chasqui start`: documents are started eagerly on the stack's own worker when there is one.
  const api = await startApi(
    config,
    db,
    files,
    temporal,
    secrets,
    0,
    '127.0.0.1',
    worker ? eagerStarter(config, worker) : undefined,
    { lookup: options.lookup, clock: options.clock },
  );
  return {
    url: api.url,
    config,
    db,
    files,
    temporal,
    secrets,
    workflowStarts: api.workflowStarts,
    heavy: api.heavy,
    api,
    worker,
    stop: async () => {
      await api.stop();
      await worker?.stop();
      await files.close();
      // Each stack's worker created the schedules for its private task queue; nothing polls it any more.
      for (const id of worker ? [SWEEPER_SCHEDULE_ID, DAILY_SUMMARY_SCHEDULE_ID, COMPANY_CHECKS_SCHEDULE_ID] : []) {
        await temporal.schedule
          .getHandle(`${id}-${config.temporal.taskQueue}`)
          .delete()
          .catch(() => undefined);
      }
    },
  };
}
