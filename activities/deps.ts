import type { Client } from '@temporalio/client';
import type { Config } from '../core/config';
import type { SecretBox } from '../core/secretbox';
import type { Db } from '../db/knex';
import type { Lookup } from '../core/net-guard';
import type { DocumentFiles } from '../files/documents';

/** What activities may use; built once per worker process. */
export interface ActivityDeps {
  config: Config;
  db: Db;
  secrets: SecretBox;
  /** Where documents' signed XML and CDRs are read and written (CHASQUI_FILES_URL), built once by the entry. */
  files: DocumentFiles;
  /** For activities that start or signal other workflows (the sweeper). */
  temporal: Client;
  /** How outbound targets' names resolve (core/net-guard.ts); the system's resolver unless a test gives its own. */
  lookup?: Lookup;
}
