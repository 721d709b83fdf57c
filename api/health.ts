import net from 'node:net';
import Router from '@koa/router';
import type { AppDeps } from './deps';
import type { Client, Connection } from '@temporalio/client';
import type { Db } from '../db/knex';

/**
 * Liveness needs nothing; readiness checks the two things a request depends on, PostgreSQL and Temporal, each within
 * 3 s, and names the one that is missing (`chasqui api` listens before they are reachable and keeps retrying).
 */
export function healthRouter(deps: AppDeps): Router {
  const router = new Router();
  router.get('/healthz', (ctx) => {
    ctx.body = { success: true, message: 'alive', data: { uptime_seconds: Math.round(process.uptime()) } };
  });
  router.get('/readyz', async (ctx) => {
    const check = (p: Promise<unknown>) => p.then(() => 'ok', (err: unknown) => `unreachable: ${reasonOf(err)}`);
    const [database, temporal] = await Promise.all([check(dependencyChecks.database(deps.db)), check(dependencyChecks.temporal(deps.temporal))]);
    const checks: Record<string, string> = { database, temporal };
    const missing = Object.keys(checks).filter((k) => checks[k] !== 'ok');
    ctx.status = missing.length ? 503 : 200;
    ctx.body = { success: !missing.length, message: missing.length ? `not ready: waiting for ${missing.join(' and ')}` : 'ready', data: checks };
  });
  return router;
}

/** Rejects when `promise` has not settled in `ms` (a call that would otherwise wait out gRPC's own retries). */
export function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: no answer in ${ms / 1000} s`)), ms))),
  ]).finally(() => clearTimeout(timer));
}

/** One call each to PostgreSQL and Temporal, bounded in time (readiness and start-up waits). */
export const dependencyChecks = {
  database: (db: Db) => withTimeout(db.raw('select 1'), 3_000, 'PostgreSQL'),
  // A refused connection is reported as such at once; the client itself would retry it until the timeout.
  temporal: async (temporal: Client) => {
    const address = (temporal.connection as Partial<Connection>).options?.address;
    if (address) await tcpReachable(address, 3_000);
    await withTimeout(temporal.workflowService.getSystemInfo({}), 3_000, 'Temporal');
  },
};

function tcpReachable(address: string, ms: number): Promise<void> {
  const at = address.lastIndexOf(':');
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: address.slice(0, at), port: Number(address.slice(at + 1)), timeout: ms });
    socket.once('connect', () => {
      socket.destroy();
      resolve();
    });
    socket.once('timeout', () => {
      socket.destroy();
      reject(new Error(`no answer from ${address} in ${ms / 1000} s`));
    });
    socket.once('error', reject);
  });
}

/** The first line of an error and of its causes: what refused, without a stack. */
export function reasonOf(err: unknown): string {
  const parts: string[] = [];
  for (let e = err as { message?: string; code?: string; cause?: unknown } | undefined; e && parts.length < 3; e = e.cause as typeof e) {
    const text = (e.message || e.code || String(e)).split('\n')[0];
    if (text && !parts.includes(text)) parts.push(text);
  }
  return parts.join(': ') || String(err);
}
