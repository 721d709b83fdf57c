// `npm test`'s pretest: the Temporal servers the suites start and the browser they drive, found or fetched once (runtime/temporal-binaries.ts),
// so a bare clone's first `npm test` reports the download here instead of inside a suite's timeout.
import { loadConfig } from '../core/config';
import { obtainTemporalBinary } from '../runtime/temporal-binaries';
import { obtainChromium } from '../runtime/browser';

(async () => {
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
