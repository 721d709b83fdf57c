import { Worker, type NativeConnection } from '@temporalio/worker';
import type { Config } from '../core/config';
import { registerBatchLaneGauges } from '../core/metrics';
import type { createActivities } from '../activities';
import { batchTaskQueue } from '../workflows/priority-types';
import { Lanes } from './lanes';
import { workflowBundle } from './workflow-bundle';

/**
 * The process's workers. With fairness on, two lanes on one connection: the task queue every interactive start goes
 * to, and the batch queue (`<queue>-batch`) whose slots narrow while interactive work runs; both run every workflow
 * and activity. With fairness off, one worker in arrival order, as before issue 40.
 */
export async function createWorkers(
  config: Config,
  connection: NativeConnection,
  activities: ReturnType<typeof createActivities>,
): Promise<{ workers: Worker[]; lanes: Lanes | null }> {
  const { taskQueue, namespace, workflowTaskSlots, lanes: options } = config.temporal;
  const base = { connection, namespace, workflowBundle: await workflowBundle(), activities };
  const fixed = (numSlots: number) => ({ type: 'fixed-size' as const, numSlots });
  if (!config.temporal.fairness) {
    const worker = await Worker.create({
      ...base,
      taskQueue,
      maxConcurrentWorkflowTaskExecutions: workflowTaskSlots,
      maxConcurrentActivityTaskExecutions: options.activityTaskSlots,
    });
    return { workers: [worker], lanes: null };
  }
  const lanes = new Lanes({
    interactiveSlots: { workflow: workflowTaskSlots, activity: options.activityTaskSlots },
    batchSlots: options.batchSlots,
    busyBatchSlots: options.busyBatchSlots,
    quietMs: options.quietMs,
  });
  registerBatchLaneGauges(lanes);
  // Local activities (a document's first send) run inside a workflow task, whose slot the lane already bounds.
  const others = (slots: number) => ({ localActivityTaskSlotSupplier: fixed(slots), nexusTaskSlotSupplier: fixed(1) });
  const interactive = await Worker.create({
    ...base,
    taskQueue,
    // What the worker takes beyond what it can run promptly waits in Temporal, where the fairness keys order it.
    tuner: {
      workflowTaskSlotSupplier: lanes.interactiveSupplier('workflow'),
      activityTaskSlotSupplier: lanes.interactiveSupplier('activity'),
      ...others(options.activityTaskSlots),
    },
  });
  const batch = await Worker.create({
    ...base,
    taskQueue: batchTaskQueue(taskQueue),
    tuner: {
      workflowTaskSlotSupplier: lanes.batchSupplier('workflow'),
      activityTaskSlotSupplier: lanes.batchSupplier('activity'),
      ...others(options.batchSlots),
    },
    // Few pollers: each holds a reserved slot, and a narrowed lane should hold few.
    maxConcurrentWorkflowTaskPolls: 2,
    maxConcurrentActivityTaskPolls: 1,
  });
  return { workers: [interactive, batch], lanes };
}
