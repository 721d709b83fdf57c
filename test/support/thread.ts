import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';

/**
 * CPU-only test work split across CI's two cores: `module` (an absolute path, from the sources through tsx as
 * heavy/pool.ts loads them) is loaded in a worker thread, where threadData gives it `data`; the one value it answers
 * is what this resolves with.
 */
export function inThread<T>(module: string, data: unknown): Promise<T> {
  const boot = `require(${JSON.stringify(require.resolve('tsx/cjs'))}); require(${JSON.stringify(module)});`;
  return new Promise((resolve, reject) => {
    const worker = new Worker(boot, { eval: true, workerData: { module, data } });
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the thread of ${module} exited (${code}) without an answer`)));
  });
}

/** In the thread inThread started for `module`, its data and the way to answer; elsewhere null. */
export function threadData<T>(module: string): { data: T; answer(value: unknown): void } | null {
  if (isMainThread || workerData?.module !== module) return null;
  return { data: workerData.data as T, answer: (value) => parentPort!.postMessage(value) };
}
