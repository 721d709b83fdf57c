import type { Config } from '../core/config';
import { documentWorkflowId } from '../workflows/document-client';

/** The document's workflow in the Temporal UI, where one is known (`chasqui support find`, the console). */
export function temporalUiLink(config: Config, externalId: string): string | null {
  const base = config.temporal.uiUrl ?? (config.temporal.address ? null : `http://127.0.0.1:${config.temporal.uiPort}`);
  return base
    ? `${base.replace(/\/$/, '')}/namespaces/${config.temporal.namespace}/workflows/${documentWorkflowId(externalId)}`
    : null;
}
