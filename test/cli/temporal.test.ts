import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { Client } from '@temporalio/client';
import { getTestTemporalClient, testConfig, testTemporalAddress } from '../support/services';

const CHASQUI = path.resolve(__dirname, '../../bin/chasqui');

/** `chasqui temporal ARGS` with `env` over this process's environment: exit code and what it printed. */
function chasquiTemporal(
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CHASQUI, 'temporal', ...args], {
      env: { ...process.env, LOG_LEVEL: 'info', ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

/** The README's `temporal` commands without installing Temporal's CLI: chasqui runs the one it already has. */
describe('chasqui temporal', function () {
  this.timeout(60_000);
  let address: string;
  let workflowId: string;
  let client: Client;

  before(async () => {
    address = await testTemporalAddress();
    client = await getTestTemporalClient(testConfig());
    workflowId = `temporal-cli-${randomUUID()}`;
    // A workflow no worker runs: it stays open, for the CLI to describe.
    await client.workflow.start('documentWorkflow', {
      taskQueue: `nobody-${randomUUID()}`,
      workflowId,
      args: [{ externalId: workflowId }],
    });
  });
  after(() => client?.workflow.getHandle(workflowId).terminate('test over'));

  it("finds npm start's dev server by TEMPORAL_PORT when TEMPORAL_ADDRESS is unset, and prints only the CLI's output", async () => {
    const port = address.split(':').pop()!;
    const res = await chasquiTemporal(['workflow', 'describe', '--workflow-id', workflowId, '--output', 'json'], {
      TEMPORAL_ADDRESS: '',
      TEMPORAL_PORT: port,
    });
    expect(res.code, res.stderr).to.equal(0);
    const described = JSON.parse(res.stdout) as {
      workflowExecutionInfo: { execution: { workflowId: string }; type: { name: string } };
    };
    expect(described.workflowExecutionInfo.execution.workflowId).to.equal(workflowId);
    expect(described.workflowExecutionInfo.type.name).to.equal('documentWorkflow');
  });

  it("uses TEMPORAL_ADDRESS when set, and exits with the CLI's own code", async () => {
    const found = await chasquiTemporal(['workflow', 'describe', '--workflow-id', workflowId], {
      TEMPORAL_ADDRESS: address,
    });
    expect(found.code, found.stderr).to.equal(0);
    expect(found.stdout).to.contain(workflowId);
    const missing = await chasquiTemporal(['workflow', 'describe', '--workflow-id', `no-such-${randomUUID()}`], {
      TEMPORAL_ADDRESS: address,
    });
    expect(missing.code).to.equal(1);
    expect(missing.stderr).to.match(/not found/i);
  });
});
