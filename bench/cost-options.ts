/** bench:cost's options (BENCH_* variables and `--files`), read once: the header of bench/cost.ts describes them. */
import { parseArgs } from 'node:util';

export const WARMUP = Number(process.env.BENCH_WARMUP ?? 20);
export const DOCUMENTS = Number(process.env.BENCH_DOCUMENTS ?? 400);
export const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
export const LINES = Number(process.env.BENCH_LINES ?? 5);
export const SHAPES = (process.env.BENCH_SHAPES ?? 'start,production').split(',');
export const LOG_LEVELS = (process.env.BENCH_LOG_LEVEL ?? 'info').split(',');
export const FILES = (
  parseArgs({ options: { files: { type: 'string' } } }).values.files ??
  process.env.BENCH_FILES ??
  'postgres'
)
  .split(',')
  .map((store) => {
    if (store !== 'postgres' && store !== 's3') throw new Error(`--files: postgres or s3, got '${store}'`);
    return store;
  });
export const IDLE_SECONDS = Number(process.env.BENCH_IDLE_SECONDS ?? 10);
/** Extra node flags for `chasqui start` (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` to profile it). */
export const NODE_ARGS = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
