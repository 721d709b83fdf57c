// `npm test`'s pretest. First the Node the scripts run on (`npm run check:runtime`: exit 1 with one line past its end of
// life, a warning within 90 days of it), so no suite runs on a runtime production must not use. Then the Temporal
// servers the suites start and the browser they drive, found or fetched once (runtime/temporal-binaries.ts), so a bare
// clone's first `npm test` reports the download here instead of inside a suite's timeout.
import { loadConfig } from '../core/config';
import { obtainTemporalBinary } from '../runtime/temporal-binaries';
import { obtainChromium } from '../runtime/browser';
import { checkRuntimeCommand } from '../runtime/node-support';

(async () => {
  const runtime = checkRuntimeCommand([], process.version, new Date());
  if (runtime.stream === 'stderr') console.error(runtime.text);
  if (runtime.code) process.exit(runtime.code);
  const config = loadConfig({ ...process.env, CHASQUI_MASTER_KEY: undefined });
  await obtainTemporalBinary('temporal', { explicit: config.temporal.bin, cacheDir: config.cacheDir });
  await obtainTemporalBinary('temporal-test-server', {
    explicit: config.temporal.testServerBin,
    cacheDir: config.cacheDir,
  });
  await obtainChromium({ explicit: config.chromium, cacheDir: config.cacheDir });
})().catch((err: Error) => {
  console.error(`chasqui: ${err.message}`);
  process.exit(1);
});
