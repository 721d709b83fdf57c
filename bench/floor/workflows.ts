import { proxyLocalActivities } from '@temporalio/workflow';

const { noop } = proxyLocalActivities<{ noop(): Promise<void> }>({ startToCloseTimeout: '1 minute' });

/** Temporal's floor: a workflow that does nothing. */
export async function emptyWorkflow(): Promise<void> {}

/** Temporal's floor for chasqui's shape: one local activity (an accepted document is one plus a plan read). */
export async function oneLocalActivityWorkflow(): Promise<void> {
  await noop();
}
