import type { Client } from '@temporalio/client';
import type { Config } from '../../core/config';
import type { Db } from '../../db/knex';
import { connectTemporal } from '../../runtime/services';
import { supportCommand } from '../support';
import { withDatabase } from './database';
import { commandTemporalAddress } from '../../runtime/instance';

/**
 * `chasqui support …` over the database of `withDatabase` and, for actions only, the Temporal client (TEMPORAL_ADDRESS,
 * or the dev server of a running npm start): the same repositories and workflow signals the API uses. Help and usage
 * errors need neither.
 */
export function supportEntry(argv: string[]): Promise<number> {
  return supportCommand(argv, (run) => withDatabase((deps) => withTemporal(deps, run)));
}

async function withTemporal(
  deps: { db: Db; config: Config },
  run: Parameters<Parameters<typeof supportCommand>[1]>[0],
): Promise<number> {
  let client: Promise<Client> | null = null;
  const address = commandTemporalAddress(deps.config);
  const temporal = () =>
    (client ??= connectTemporal(deps.config, address).catch((err: Error) => {
      throw new Error(
        `cannot reach Temporal at ${address} (${err.message}): set TEMPORAL_ADDRESS, or start chasqui first (npm start)`,
      );
    }));
  try {
    return await run({ ...deps, temporal });
  } finally {
    if (client) await (await (client as Promise<Client>).catch(() => null))?.connection.close();
  }
}
