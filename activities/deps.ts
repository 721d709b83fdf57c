import type { Client } from '@temporalio/client';
import type { Config } from '../core/config';
import type { SecretBox } from '../core/secretbox';
import type { Db } from '../db/knex';

/** What activities may use; built once per worker process. */
export interface ActivityDeps {
  config: Config;
  db: Db;
  secrets: SecretBox;
  /** For activities that start or signal other workflows (the sweeper). */
  temporal: Client;
}
