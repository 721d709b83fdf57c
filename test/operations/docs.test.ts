import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { COMMAND_HELP, OPTIONS } from '../../cli/support';
import { TOKEN_OPTIONS } from '../../cli/support/tokens';
import { SEARCH_ATTRIBUTES } from '../../workflows/search-attributes';
import {
  registerBatchLaneGauges,
  registerCheckGauges,
  registerRuntimeEolGauge,
  registerUnresolvedGauge,
  registry,
} from '../../core/metrics';

/** docs/operations.md is run by people who have not read the code: every command, query and series it names exists. */
describe('docs/operations.md', () => {
  const doc = fs.readFileSync(path.resolve(__dirname, '../../docs/operations.md'), 'utf8');

  it('uses only chasqui support commands and options that exist', () => {
    const commands = [...doc.matchAll(/chasqui support (\w[\w-]*)([^`\n]*)/g)];
    expect(commands.length).to.be.greaterThan(10);
    for (const [, command, rest] of commands) {
      expect(Object.keys(COMMAND_HELP), command).to.include(command);
      const options = command === 'tokens' ? TOKEN_OPTIONS : OPTIONS;
      for (const [flag] of rest.matchAll(/--[a-z-]+/g))
        expect(Object.keys(options), `${command} ${flag}`).to.include(flag.slice(2));
    }
  });

  it('queries only search attributes the workflows set, and names only series chasqui exports', async () => {
    const names = SEARCH_ATTRIBUTES.map((sa) => sa.name);
    for (const [, attribute] of doc.matchAll(/`(\w+) (?:=|IN|>=)/g)) {
      if (!['WorkflowType', 'ExecutionStatus'].includes(attribute)) expect(names, attribute).to.include(attribute);
    }
    // The API registers the gauge with its database; here it reads nothing.
    registerUnresolvedGauge([], async () => []);
    registerCheckGauges(async () => []);
    registerRuntimeEolGauge('24', () => 500); // every process registers it at start (runtime/start-checks.ts)
    registerBatchLaneGauges({ busy: () => false, batchHeld: () => 0 }); // the worker's, with fairness on (runtime/workers.ts)
    const exported = (await registry.getMetricsAsJSON()).map((m) => m.name);
    for (const [, series] of doc.matchAll(/`(chasqui_\w+)`/g)) expect(exported, series).to.include(series);
  });
});
