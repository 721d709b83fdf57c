/**
 * The heavy-work pool's settings and the printed cache's (docs/configuration.md, "Heavy work"), read for
 * core/config.ts through env-values.ts as endpoints.ts reads the authority's.
 */
import os from 'node:os';
import { ConfigError, int } from './env-values';

/** The heavy-work pool's bounds (heavy/pool.ts). */
export interface HeavyConfig {
  /** Threads (CHASQUI_HEAVY_WORKERS). */
  workers: number;
  /** Tasks one account may have waiting (CHASQUI_HEAVY_QUEUE_PER_ACCOUNT); past it a 429. */
  queuePerAccount: number;
  /** Tasks all accounts may have waiting (CHASQUI_HEAVY_QUEUE_TOTAL); past it a 503. */
  queueTotal: number;
  /** Threads one account may hold at once (CHASQUI_HEAVY_RUNNING_PER_ACCOUNT; below `workers`, one is kept for others). */
  runningPerAccount: number;
  /** A task's time in its thread unless its caller says otherwise (CHASQUI_HEAVY_TIMEOUT_MS). */
  timeoutMs: number;
  /** A thread's JS heap (Worker resourceLimits; CHASQUI_HEAVY_HEAP_MB). */
  heapMb: number;
  /** Heap and Buffers a thread may keep after a task before it is replaced (CHASQUI_HEAVY_RECYCLE_MB). */
  recycleMb: number;
}

/** The PDFs kept so that the same bytes are never rendered twice (0 MB: none kept). */
export interface PdfCacheConfig {
  maxBytes: number;
  maxAgeSeconds: number;
}

export function heavyConfigOf(env: NodeJS.ProcessEnv): HeavyConfig {
  const workers = int(env, 'CHASQUI_HEAVY_WORKERS', os.availableParallelism());
  const config: HeavyConfig = {
    workers,
    queuePerAccount: int(env, 'CHASQUI_HEAVY_QUEUE_PER_ACCOUNT', 4 * workers),
    queueTotal: int(env, 'CHASQUI_HEAVY_QUEUE_TOTAL', 32 * workers),
    // One thread is always left to the other accounts (on one thread, nothing can be left).
    runningPerAccount: int(env, 'CHASQUI_HEAVY_RUNNING_PER_ACCOUNT', Math.max(1, workers - 1)),
    timeoutMs: int(env, 'CHASQUI_HEAVY_TIMEOUT_MS', 30_000),
    heapMb: int(env, 'CHASQUI_HEAVY_HEAP_MB', 512),
    recycleMb: int(env, 'CHASQUI_HEAVY_RECYCLE_MB', 256),
  };
  for (const [name, value] of [
    ['CHASQUI_HEAVY_WORKERS', config.workers],
    ['CHASQUI_HEAVY_RUNNING_PER_ACCOUNT', config.runningPerAccount],
    ['CHASQUI_HEAVY_TIMEOUT_MS', config.timeoutMs],
    ['CHASQUI_HEAVY_HEAP_MB', config.heapMb],
  ] as const)
    if (value < 1) throw new ConfigError(`${name} must be at least 1`);
  return config;
}

export function pdfCacheConfigOf(env: NodeJS.ProcessEnv): PdfCacheConfig {
  return {
    maxBytes: int(env, 'CHASQUI_PDF_CACHE_MB', 256) * 1024 * 1024,
    maxAgeSeconds: int(env, 'CHASQUI_PDF_CACHE_DAYS', 7) * 86_400,
  };
}

/** The API's pool of threads for PDFs, PKCS#12 uploads and external XML (heavy/pool.ts), and the PDFs it keeps. */
export interface HeavySettings {
  heavy: HeavyConfig;
  pdfCache: PdfCacheConfig;
}

export const heavySettingsOf = (env: NodeJS.ProcessEnv): HeavySettings => ({
  heavy: heavyConfigOf(env),
  pdfCache: pdfCacheConfigOf(env),
});
