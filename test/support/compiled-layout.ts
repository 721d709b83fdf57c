import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

const ROOT = path.resolve(__dirname, '../..');

/**
 * The image's layout (Dockerfile: `npm run build` into a folder, production dependencies beside it) in `dir`: the
 * compiled JavaScript with source maps, bin/chasqui and what the code reads beside itself, with the clone's
 * node_modules linked in. Returns `dir`.
 */
export async function buildCompiledLayout(dir: string): Promise<string> {
  try {
    await promisify(execFile)('sh', [path.join(ROOT, 'deploy/build.sh'), dir], { cwd: ROOT, timeout: 300_000 });
  } catch (err: any) {
    throw new Error(`deploy/build.sh failed: ${err.message}\n${err.stdout ?? ''}${err.stderr ?? ''}`);
  }
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  return dir;
}
