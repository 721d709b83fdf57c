import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** The pinned schemathesis (PyPI) the fuzz suite runs; a venv per version, reused from run to run. */
export const SCHEMATHESIS_VERSION = '4.32.5';

/**
 * The `st` executable of a venv in the user's cache (outside the clone: ~/.cache/chasqui, or CHASQUI_CACHE_DIR),
 * created with python3 and pip on first use. Throws one line saying why when that cannot be done.
 */
export function schemathesisBin(): string {
  const cache = process.env.CHASQUI_CACHE_DIR ?? path.join(os.homedir(), '.cache', 'chasqui');
  const venv = path.join(cache, `schemathesis-${SCHEMATHESIS_VERSION}`);
  const st = path.join(venv, 'bin', 'st');
  if (fs.existsSync(st)) return st;
  try {
    fs.mkdirSync(cache, { recursive: true });
    execFileSync('python3', ['-m', 'venv', venv], { stdio: 'pipe' });
    execFileSync(path.join(venv, 'bin', 'pip'), ['install', '--quiet', `schemathesis==${SCHEMATHESIS_VERSION}`], {
      stdio: 'pipe',
      timeout: 600_000,
    });
  } catch (err) {
    fs.rmSync(venv, { recursive: true, force: true });
    const why = (
      (err as { stderr?: Buffer }).stderr?.toString().trim().split('\n').pop() ?? (err as Error).message
    ).slice(0, 200);
    throw new Error(
      `schemathesis ${SCHEMATHESIS_VERSION} could not be installed into ${venv} (python3 -m venv + pip from PyPI): ${why}`,
    );
  }
  return st;
}
