import fs from 'node:fs';
import path from 'node:path';
import type { Client } from '@temporalio/client';
import { historyToJSON } from '@temporalio/common/lib/proto-utils';

export const HISTORIES = path.resolve(__dirname, '../fixtures/histories');

/** Saves a finished workflow's history as JSON under test/fixtures/histories, named after the scenario. */
export async function recordHistory(client: Client, workflowId: string, scenario: string): Promise<void> {
  const handle = client.workflow.getHandle(workflowId);
  // A finished scenario's workflow ends within moments; one still waiting (e.g. for an operator) is not recorded.
  await Promise.race([handle.result().catch(() => undefined), new Promise((r) => setTimeout(r, 3_000))]);
  const description = await handle.describe();
  if (description.status.name === 'RUNNING') return;
  const name = scenario
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 60);
  fs.mkdirSync(HISTORIES, { recursive: true });
  fs.writeFileSync(
    path.join(HISTORIES, `${description.type}-${name}.json`),
    historyToJSON(await handle.fetchHistory()),
  );
}
