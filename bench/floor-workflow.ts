import { proxyLocalActivities } from '@temporalio/workflow';

/** bench:cost's floor: what Temporal itself charges for the smallest workflow that does anything, one local activity. */
const { floorActivity } = proxyLocalActivities<{ floorActivity(): Promise<void> }>({
  startToCloseTimeout: '10 seconds',
});

export async function floorWorkflow(): Promise<void> {
  await floorActivity();
}
