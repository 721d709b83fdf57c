/** The worker's lanes (runtime/lanes.ts, docs/delivery.md "Two lanes in every worker"), read for core/config.ts. */
import { int } from './env-values';

export interface LaneSettings {
  /** Activities the interactive lane runs at once (CHASQUI_ACTIVITY_TASK_SLOTS, Temporal's default 100). */
  activityTaskSlots: number;
  /** The batch lane's workflow tasks, and as many activities, while interactive work is quiet (CHASQUI_BATCH_SLOTS). */
  batchSlots: number;
  /** Its width while interactive work runs or ran within `quietMs` (CHASQUI_BATCH_BUSY_SLOTS). */
  busyBatchSlots: number;
  /** How long the batch lane stays narrow after the last interactive task (CHASQUI_BATCH_QUIET_MS). */
  quietMs: number;
}

export function laneSettingsOf(env: NodeJS.ProcessEnv): LaneSettings {
  return {
    activityTaskSlots: int(env, 'CHASQUI_ACTIVITY_TASK_SLOTS', 100, 1),
    // Two pollers of workflow tasks at least, as for CHASQUI_WORKFLOW_TASK_SLOTS.
    batchSlots: int(env, 'CHASQUI_BATCH_SLOTS', 8, 2),
    busyBatchSlots: int(env, 'CHASQUI_BATCH_BUSY_SLOTS', 2, 2),
    quietMs: int(env, 'CHASQUI_BATCH_QUIET_MS', 3_000, 0),
  };
}
