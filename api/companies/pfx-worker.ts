import { Worker } from 'node:worker_threads';
import path from 'node:path';
import type { CertificateResult } from '../../documents/signing';

/** This file is the TypeScript source (development), not the compiled layout's JavaScript (npm run build). */
const fromSources = __filename.endsWith('.ts');

/** How long opening one uploaded PFX may take; the bounded rounds (documents/signing/pfx-cost.ts) need under a second. */
export const PFX_TIME_BOX_MS = 10_000;

/**
 * `loadPfx` in a worker thread of its own, ended after `timeoutMs`: node-forge is synchronous JavaScript, and even a
 * file within the bounds keeps a thread busy for up to a second, which is then not the API's event loop. The worker
 * loads the code as the process does (bin/chasqui: the compiled JavaScript, or the TypeScript sources through tsx) and
 * holds nothing but this file.
 */
export function loadPfxTimeBoxed(
  pfx: Buffer,
  password: string,
  options: { maxBytes: number; timeoutMs?: number },
): Promise<CertificateResult> {
  const timeoutMs = options.timeoutMs ?? PFX_TIME_BOX_MS;
  const worker = new Worker(
    `${fromSources ? `require(${JSON.stringify(require.resolve('tsx/cjs'))});` : ''}
     const { parentPort, workerData } = require('node:worker_threads');
     const { loadPfx } = require(workerData.module);
     parentPort.postMessage(loadPfx(Buffer.from(workerData.pfx), workerData.password, { maxBytes: workerData.maxBytes }));`,
    {
      eval: true,
      workerData: {
        module: path.resolve(__dirname, '../../documents/signing'),
        pfx,
        password,
        maxBytes: options.maxBytes,
      },
    },
  );
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      void worker.terminate();
      resolve({
        ok: false,
        reason: 'too_costly',
        message: `opening the file takes longer than ${timeoutMs / 1000} s; export it again with the default settings`,
      });
    }, timeoutMs);
    worker.once('message', (result: CertificateResult) => {
      clearTimeout(timer);
      void worker.terminate();
      resolve(result);
    });
    // loadPfx answers every file with an outcome; a worker that fails anyway has met a file it could not read.
    worker.once('error', () => {
      clearTimeout(timer);
      resolve({ ok: false, reason: 'not_pfx', message: 'the file is not a PFX/PKCS#12 certificate' });
    });
  });
}
