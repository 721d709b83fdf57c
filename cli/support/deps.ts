import type { Client } from '@temporalio/client';
import type { Config } from '../../core/config';
import type { Db } from '../../db/knex';

/** What every `chasqui support` command runs on. */
export interface SupportDeps {
  db: Db;
  config: Config;
  /** Connected on first use: find and stuck never need Temporal. */
  temporal(): Promise<Client>;
}
