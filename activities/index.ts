import type { ActivityDeps } from './deps';
import { createCompanyProcedureActivities } from './company-procedures';
import { createDocumentActivities } from './documents';
import { createSweeperActivities } from './sweeper';
import { createSummaryActivities } from './summaries';
import { createCompanyKeys } from '../core/signing-keys';

/** All activities of the worker, one factory per capability so each keeps its own dependencies explicit. */
export function createActivities(deps: ActivityDeps) {
  return {
    ...createCompanyProcedureActivities(deps),
    ...createDocumentActivities(deps),
    ...createSweeperActivities(deps),
    ...createSummaryActivities(deps, createCompanyKeys(deps)),
  };
}

export type Activities = ReturnType<typeof createActivities>;
