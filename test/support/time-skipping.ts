import { TestWorkflowEnvironment } from '@temporalio/testing';
import { encodeSearchAttributeIndexedValueType } from '@temporalio/common/lib/search-attributes';
import { obtainTemporalBinary } from '../../runtime/temporal-binaries';
import { testConfig } from './services';
import { installTemporalRuntime } from '../../runtime/services';
import { SEARCH_ATTRIBUTES } from '../../workflows/search-attributes';

/**
 * Temporal's time-skipping test server (real server, virtual clock) for workflows whose waits are minutes or days:
 * timers fire as soon as nothing else is running. The binary comes from runtime/temporal-binaries.ts
 * (TEMPORAL_TEST_SERVER_BIN, PATH, the cache, or a download). One environment per suite: its clock is shared by everything in it.
 * chasqui's search attributes are registered as on the dev server, since workflows upsert them.
 */
export async function createTimeSkippingEnv(): Promise<TestWorkflowEnvironment> {
  installTemporalRuntime();
  const config = testConfig();
  const bin = await obtainTemporalBinary('temporal-test-server', {
    explicit: config.temporal.testServerBin,
    cacheDir: config.cacheDir,
  });
  const env = await TestWorkflowEnvironment.createTimeSkipping({
    server: { executable: { type: 'existing-path', path: bin } },
  });
  await env.connection.operatorService.addSearchAttributes({
    namespace: env.namespace ?? 'default',
    searchAttributes: Object.fromEntries(
      SEARCH_ATTRIBUTES.map((sa) => [sa.name, encodeSearchAttributeIndexedValueType(sa.type)!]),
    ),
  });
  return env;
}
