import path from 'node:path';
import { logger } from '../../core/logger';
import { startSimulator } from '../../simulator/server';
import { parseArgs } from 'node:util';
import { loadConfig } from '../../core/config';
import { untilShutdownSignal } from '../lifecycle';

const USAGE = `usage: chasqui simulator [--port 4010] [--host 127.0.0.1] [--data-dir DIR] [--ticket-polls 1]
                         [--sunat-rules] [--sending-window-days 3]

Serves SUNAT's billService, billConsultService, GRE REST and portal paths, with fault rules under
/__admin/. Point chasqui at it: CHASQUI_AUTHORITY_URL=http://127.0.0.1:4010 (docs/authority.md).
--sunat-rules (or CHASQUI_SIMULATOR_SUNAT_RULES=true): verdicts from SUNAT's own XSL, as
\`chasqui validate\` runs it. Documents are judged by SUNAT's rules in force on their issue date
(CHASQUI_RULE_DATES moves a rule's date).
--sending-window-days N (or CHASQUI_SIMULATOR_SENDING_WINDOW_DAYS): SUNAT refuses a factura, boleta
or note more than N days after its issue date (2108); default 3, 0 accepts any date (fixtures with
old dates).`;

function integer(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`--${name} needs a non-negative integer`);
  return n;
}

/** `chasqui simulator`: runs the SUNAT/OSE simulator until SIGINT or SIGTERM. */
export async function simulatorCommand(argv: string[]): Promise<number> {
  let port: number;
  let ticketPolls: number;
  let sendingWindowDays: number;
  let options;
  try {
    ({ values: options } = parseArgs({
      args: argv,
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        'data-dir': { type: 'string' },
        'ticket-polls': { type: 'string' },
        'sunat-rules': { type: 'boolean' },
        'sending-window-days': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
    if (options.help) {
      console.log(USAGE);
      return 0;
    }
    port = integer(options.port, 'port', loadConfig().simulatorPort);
    ticketPolls = integer(options['ticket-polls'], 'ticket-polls', 1);
    sendingWindowDays = integer(
      options['sending-window-days'],
      'sending-window-days',
      loadConfig().simulatorSendingWindowDays,
    );
  } catch (err) {
    console.error(`chasqui simulator: ${(err as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const dataDir = options['data-dir'] === undefined ? undefined : path.resolve(options['data-dir']);
  const host = options.host ?? '127.0.0.1';
  const config = loadConfig();
  const sunatRules =
    options['sunat-rules'] || config.simulatorSunatRules
      ? { cacheDir: config.validatorCacheDir, warmUp: true }
      : undefined;
  const sim = await startSimulator({
    port,
    host,
    dataDir,
    ticketPolls,
    sunatRules,
    rules: config.rules,
    sendingWindowDays,
  });
  console.log(
    `SUNAT simulator on ${sim.url} (billService ${sim.url}/ol-ti-itcpfegem-beta/billService, admin ${sim.url}/__admin/rules)`,
  );
  await untilShutdownSignal();
  await sim.close();
  logger.info('simulator stopped');
  return 0;
}
