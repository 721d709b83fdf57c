import type { Client } from '@temporalio/client';
import type { Config } from '../core/config';
import type { SecretBox } from '../core/secretbox';
import type { Db } from '../db/knex';

/** What request handlers may use; built once per process by the api entry (or the test harness). */
export interface AppDeps {
  config: Config;
  db: Db;
  temporal: Client;
  secrets: SecretBox;
}
