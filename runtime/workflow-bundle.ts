import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { WorkflowBundle } from '@temporalio/worker';

/**
 * The workflow code as the Temporal worker runs it, bundled by webpack in a short-lived child process. Bundling in the
 * worker's own process (Worker.create's `workflowsPath`) leaves webpack's modules, code and heap behind for the
 * process's whole life: ≈ 115 MB of the worker's resident memory (docs/benchmarks.md, bench:soak). Bundled once per
 * process; every worker of the process (tests start several) shares it.
 */
let bundled: Promise<WorkflowBundle> | undefined;

export function workflowBundle(): Promise<WorkflowBundle> {
  bundled ??= bundleInChild().catch((err) => {
    bundled = undefined;
    throw err;
  });
  return bundled;
}

async function bundleInChild(): Promise<WorkflowBundle> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chasqui-workflows-'));
  const out = path.join(dir, 'workflows.js');
  try {
    // The child loads the code as bin/chasqui does: the compiled JavaScript, or the TypeScript sources through tsx.
    const loader = __filename.endsWith('.ts') ? ['--require', require.resolve('tsx/cjs')] : [];
    await promisify(execFile)(process.execPath, [...loader, __filename, out], {
      timeout: 120_000,
    }).catch((err) => {
      throw new Error(`bundling the workflow code failed: ${err.stderr || err.message}`);
    });
    return { code: fs.readFileSync(out, 'utf8') };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (require.main === module) {
  // The child: webpack's own progress lines stay quiet; its warnings and errors reach the parent through stderr.
  const quiet = () => undefined;
  const logger = { log: quiet, trace: quiet, debug: quiet, info: quiet, warn: console.error, error: console.error };
  // Loaded here only, so a process that merely imports workflowBundle() never loads the bundler.
  const { bundleWorkflowCode } = require('@temporalio/worker') as typeof import('@temporalio/worker');
  bundleWorkflowCode({ workflowsPath: require.resolve('../workflows'), logger }).then(
    ({ code }) => fs.writeFileSync(process.argv[2], code),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}
