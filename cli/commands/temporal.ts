import { spawn } from 'node:child_process';
import { loadConfig } from '../../core/config';
import { logger } from '../../core/logger';
import { obtainTemporalBinary } from '../../runtime/temporal-binaries';
import { commandTemporalAddress } from '../../runtime/instance';

/**
 * `chasqui temporal …`: Temporal's own CLI (docs/delivery.md's `temporal workflow …`), the binary `npm start` runs as
 * its dev server, found or fetched the same way (TEMPORAL_BIN, PATH, the cache, a download). Pointed at chasqui's
 * Temporal: TEMPORAL_ADDRESS, else the dev server of the `npm start` of CHASQUI_DATA_DIR (from its record), else
 * TEMPORAL_PORT; in TEMPORAL_NAMESPACE. The arguments pass through untouched and the exit code is the CLI's.
 */
export async function temporalCommand(argv: string[]): Promise<number> {
  const config = loadConfig();
  // stdout belongs to the CLI (`-o json | jq`): where the binary was found is not worth a line there.
  logger.level = 'warn';
  const bin = await obtainTemporalBinary('temporal', { explicit: config.temporal.bin, cacheDir: config.cacheDir });
  const env = {
    ...process.env,
    TEMPORAL_ADDRESS: commandTemporalAddress(config),
    TEMPORAL_NAMESPACE: config.temporal.namespace,
  };
  const child = spawn(bin, argv, { stdio: 'inherit', env });
  // Ctrl-C reaches the CLI too (same process group): it decides how to stop, and its exit code is ours.
  const ignore = () => undefined;
  process.on('SIGINT', ignore);
  try {
    return await new Promise<number>((resolve, reject) => {
      child.once('error', reject);
      child.once('exit', (code, signal) => resolve(code ?? (signal === 'SIGINT' ? 130 : 1)));
    });
  } finally {
    process.off('SIGINT', ignore);
  }
}
