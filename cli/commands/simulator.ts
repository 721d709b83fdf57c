import path from 'node:path';
import { logger } from '../../core/logger';
import { startSimulator } from '../../simulator/server';
import { parseArgs } from '../args';
import { untilShutdownSignal } from '../lifecycle';

const USAGE = `usage: chasqui simulator [--port 4010] [--host 127.0.0.1] [--data-dir DIR] [--ticket-polls 1]

Serves SUNAT's billService, billConsultService, GRE REST and portal paths, with fault rules under /__admin/.
Point chasqui at it with CHASQUI_AUTHORITY_URL=http://127.0.0.1:4010 (see docs/authority.md).`;

function integer(value: string | true | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (value === true || !Number.isInteger(n) || n < 0) throw new Error(`--${name} needs a non-negative integer`);
  return n;
}

/** `chasqui simulator`: runs the SUNAT/OSE simulator until SIGINT or SIGTERM. */
export async function simulatorCommand(argv: string[]): Promise<number> {
  const { options } = parseArgs(argv);
  if (options.help || options.h) {
    console.log(USAGE);
    return 0;
  }
  let port: number;
  let ticketPolls: number;
  try {
    port = integer(options.port, 'port', Number(process.env.SIMULATOR_PORT ?? 4010));
    ticketPolls = integer(options['ticket-polls'], 'ticket-polls', 1);
  } catch (err) {
    console.error(`chasqui simulator: ${(err as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const dataDir = typeof options['data-dir'] === 'string' ? path.resolve(options['data-dir']) : undefined;
  const host = typeof options.host === 'string' ? options.host : '127.0.0.1';
  const sim = await startSimulator({ port, host, dataDir, ticketPolls });
  console.log(`SUNAT simulator on ${sim.url} (billService ${sim.url}/ol-ti-itcpfegem-beta/billService, admin ${sim.url}/__admin/rules)`);
  await untilShutdownSignal();
  await sim.close();
  logger.info('simulator stopped');
  return 0;
}
