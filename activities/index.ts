import type { ActivityDeps } from './deps';

/** All activities of the worker, one factory per capability so each keeps its own dependencies explicit. */
export function createActivities(_deps: ActivityDeps) {
  return {};
}

export type Activities = ReturnType<typeof createActivities>;
