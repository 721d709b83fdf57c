import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { Worker } from '@temporalio/worker';
import { historyFromJSON } from '@temporalio/common/lib/proto-utils';
import { HISTORIES } from '../support/histories';

/**
 * Determinism guard: histories recorded from real runs (RECORD_HISTORIES=1 npm run test:one --
 * test/issuing/delivery.test.ts) must replay with today's workflow code. A change that reorders or adds commands
 * fails here and needs `patched()` (docs/delivery.md) before it may ship.
 */
describe('workflow replay of recorded histories', function () {
  this.timeout(120_000);
  const files = fs.existsSync(HISTORIES)
    ? fs
        .readdirSync(HISTORIES)
        .filter((f) => f.endsWith('.json'))
        .sort()
    : [];

  it('has recorded histories of the document workflow to replay', () => {
    expect(files.filter((f) => f.startsWith('documentWorkflow-')).length).to.be.at.least(5);
  });

  it('replays every recorded history without a determinism error', async () => {
    const histories = files.map((file) => ({
      workflowId: file.replace(/\.json$/, ''),
      history: historyFromJSON(JSON.parse(fs.readFileSync(path.join(HISTORIES, file), 'utf8'))),
    }));
    const failures: string[] = [];
    for await (const result of Worker.runReplayHistories(
      { workflowsPath: require.resolve('../../workflows') },
      histories,
    )) {
      if (result.error) failures.push(`${result.workflowId}: ${result.error.message}`);
    }
    expect(failures).to.deep.equal([]);
  });
});
