import { TestWorkflowEnvironment } from '@temporalio/testing';
import { encodeSearchAttributeIndexedValueType } from '@temporalio/common/lib/search-attributes';
import { findTemporalBinary } from '../../runtime/temporal-server';
import { installTemporalRuntime } from '../../runtime/services';
import { SEARCH_ATTRIBUTES } from '../../workflows/search-attributes';

/**
 * Temporal's time-skipping test server (real server, virtual clock) for workflows whose waits are minutes or days:
 * timers fire as soon as nothing else is running. TEMPORAL_TEST_SERVER_BIN, `temporal-test-server` on PATH, the
 * project's venv, or the SDK's download. One environment per suite: its clock is shared by everything in it.
 * chasqui's search attributes are registered as on the dev server, since workflows upsert them.
 */
export async function createTimeSkippingEnv(): Promise<TestWorkflowEnvironment> {
  installTemporalRuntime();
  const bin = findTemporalBinary(process.env.TEMPORAL_TEST_SERVER_BIN ?? null, 'temporal-test-server');
  const env = await TestWorkflowEnvironment.createTimeSkipping({
    server: { executable: bin ? { type: 'existing-path', path: bin } : { type: 'cached-download' } },
  });
  await env.connection.operatorService.addSearchAttributes({
    namespace: env.namespace ?? 'default',
    searchAttributes: Object.fromEntries(SEARCH_ATTRIBUTES.map((sa) => [sa.name, encodeSearchAttributeIndexedValueType(sa.type)!])),
  });
  return env;
}
