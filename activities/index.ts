import type { ActivityDeps } from './deps';
import { createCompanyProcedureActivities } from './company-procedures';

/** All activities of the worker, one factory per capability so each keeps its own dependencies explicit. */
export function createActivities(deps: ActivityDeps) {
  return {
    ...createCompanyProcedureActivities(deps),
  };
}

export type Activities = ReturnType<typeof createActivities>;
