/**
 * One thread of the heavy-work pool (heavy/pool.ts): answers each task with its value or its error, and with the
 * memory this thread's isolate holds afterwards, by which the pool decides to replace it.
 */
import os from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import type { TaskTable } from './pool';

const port = parentPort!;
/** How much lower than the API's event loop a pool thread runs (nice 10 of 19). */
const THREAD_NICE = 10;
// Below the API's event loop: on Linux a thread's nice value is its own (setpriority on the calling thread), so the
// requests of other accounts get the CPU before a render does. Where the system refuses, the thread runs as it is.
try {
  os.setPriority(THREAD_NICE);
} catch {
  // not permitted here: the pool's bounds still hold
}
// heavy/tasks.ts, or the tasks a test gives the pool.
const TASKS = (require(workerData.tasks) as { TASKS: TaskTable }).TASKS;

/** The isolate's heap and the memory it holds outside the heap (Buffers: most of a PDF's). */
function heldBytes(): number {
  const { heapUsed, external } = process.memoryUsage();
  return heapUsed + external;
}

port.on('message', async (task: { kind: string; input: never }) => {
  try {
    const value = await TASKS[task.kind](task.input);
    port.postMessage({ ok: true, value, held: heldBytes() });
  } catch (err) {
    port.postMessage({ ok: false, message: (err as Error).message ?? String(err), held: heldBytes() });
  }
});
port.postMessage({ ready: true });
