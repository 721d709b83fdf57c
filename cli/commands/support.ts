import type { Client } from '@temporalio/client';
import type { Config } from '../../core/config';
import type { Db } from '../../db/knex';
import { connectTemporal } from '../../runtime/services';
import { supportCommand } from '../support';
import { withDatabase } from './database';

/**
 * `chasqui support …` over the database of `withDatabase` and, for actions only, the Temporal client (TEMPORAL_ADDRESS,
 * or the dev server of a running npm start): the same repositories and workflow signals the API uses.
 */
export async function supportEntry(argv: string[]): Promise<number> {
  // Help needs neither the database nor Temporal.
  if (argv.length === 0 || ['--help', '-h', 'help'].includes(argv[0]) || argv.includes('--help') || argv.includes('-h')) {
    return supportCommand(argv, { db: null as unknown as Db, config: null as unknown as Config, temporal: () => Promise.reject(new Error('no Temporal for help')) });
  }
  return withDatabase((deps) => supportWith(argv, deps));
}

async function supportWith(argv: string[], deps: { db: Db; config: Config }): Promise<number> {
  let client: Promise<Client> | null = null;
  const address = deps.config.temporal.address ?? `127.0.0.1:${deps.config.temporal.port}`;
  const temporal = () =>
    (client ??= connectTemporal(deps.config, address).catch((err: Error) => {
      throw new Error(`cannot reach Temporal at ${address} (${err.message}): set TEMPORAL_ADDRESS, or start chasqui first (npm start)`);
    }));
  try {
    return await supportCommand(argv, { ...deps, temporal });
  } finally {
    if (client) await (await (client as Promise<Client>).catch(() => null))?.connection.close();
  }
}
