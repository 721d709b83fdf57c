import type { Client } from '@temporalio/client';
import type { Config } from '../core/config';
import type { SecretBox } from '../core/secretbox';
import type { Db } from '../db/knex';
import type { Lookup } from '../core/net-guard';
import type { WorkflowStarts } from './cpe/workflow-starts';
import type { HeavyPool } from '../heavy/pool';
import type { DocumentFiles } from '../files/documents';

/** What request handlers may use; built once per process by the api entry (or the test harness). */
export interface AppDeps {
  config: Config;
  db: Db;
  temporal: Client;
  secrets: SecretBox;
  /** Where documents' signed XML and CDRs are read and written (CHASQUI_FILES_URL), built once by the entry. */
  files: DocumentFiles;
  /** Starts the workflows of committed documents after the answer (api/cpe/workflow-starts.ts). */
  workflowStarts: WorkflowStarts;
  /** The threads that render PDFs, open PKCS#12 uploads and read external XML (heavy/pool.ts). */
  heavy: HeavyPool;
  /** How outbound targets' names resolve (core/net-guard.ts); the system's resolver unless a test gives its own. */
  lookup?: Lookup;
  /** The time people's links, lockouts, TOTP and the step-up are judged at; the system's clock unless a test moves it. */
  clock?: () => Date;
}

export const nowOf = (deps: Pick<AppDeps, 'clock'>): Date => deps.clock?.() ?? new Date();
