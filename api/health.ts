import net from 'node:net';
import Router from '@koa/router';
import type { AppDeps } from './deps';
import { isGrpcServiceError, type Client, type Connection } from '@temporalio/client';
import { encodeSearchAttributeIndexedValueType } from '@temporalio/common/lib/search-attributes';
import { migrationConfig, type Db } from '../db/knex';
import { masterKeyProblem } from '../db/sealed-secrets';
import type { SecretBox } from '../core/secretbox';
import { SEARCH_ATTRIBUTES, SEARCH_ATTRIBUTE_TYPE_NAMES } from '../workflows/search-attributes';
import type { ObjectStore } from '../files/store';

/**
 * Liveness needs nothing; readiness (`readiness`) says whether documents would go through, and names what is wrong.
 * The API serves it here; the worker on its metrics port.
 */
export function healthRouter(deps: AppDeps): Router {
  const router = new Router();
  router.get('/healthz', (ctx) => {
    ctx.body = { success: true, message: 'alive', data: { uptime_seconds: Math.round(process.uptime()) } };
  });
  router.get('/readyz', async (ctx) => {
    const { status, body } = readinessAnswer(
      await readiness({
        db: deps.db,
        temporal: deps.temporal,
        secrets: deps.secrets,
        namespace: deps.config.temporal.namespace,
        files: deps.files.store,
      }),
    );
    ctx.status = status;
    ctx.body = body;
  });
  return router;
}

export interface ReadinessDeps {
  db: Db;
  temporal: Client;
  secrets: SecretBox;
  namespace: string;
  /** The object store CHASQUI_FILES_URL names; null (postgres:) adds no check. */
  files?: ObjectStore | null;
}

/** Each check's verdict: 'ok', or what is wrong followed by `; fix: …`. Checks behind an unreachable dependency are left out. */
export type Readiness = Record<string, string>;

/**
 * What a document needs besides a running process: PostgreSQL reachable, migrated as far as this code expects, and
 * the master key able to open its secrets; Temporal reachable, with the namespace and chasqui's search attributes (a
 * start without them is refused: the document waits in PostgreSQL until the cause is fixed). Each call within 3 s.
 */
export async function readiness(deps: ReadinessDeps): Promise<Readiness> {
  const verdict = (p: Promise<string | null>) =>
    p.then(
      (problem) => problem ?? 'ok',
      (err: unknown) => `unreachable: ${reasonOf(err)}`,
    );
  const reachable = (p: Promise<unknown>) => verdict(p.then(() => null));
  const [database, temporal] = await Promise.all([
    reachable(dependencyChecks.database(deps.db)),
    reachable(dependencyChecks.temporal(deps.temporal)),
  ]);
  const checks: Readiness = { database, temporal };
  // A store that is down refuses every issue (503): a HEAD of a key that never exists says whether it answers.
  if (deps.files) checks.files = await reachable(withTimeout(deps.files.head('.readyz'), 3_000, 'the file store'));
  const databaseChecks = async () => {
    [checks.migrations, checks.master_key] = await Promise.all([
      verdict(withTimeout(migrationsProblem(deps.db), 3_000, 'PostgreSQL')),
      verdict(withTimeout(masterKeyProblem(deps.db, deps.secrets), 3_000, 'PostgreSQL')),
    ]);
  };
  const temporalChecks = async () => {
    checks.temporal_namespace = await verdict(
      withTimeout(namespaceProblem(deps.temporal, deps.namespace), 3_000, 'Temporal'),
    );
  };
  await Promise.all([database === 'ok' && databaseChecks(), temporal === 'ok' && temporalChecks()]);
  return checks;
}

/** The /readyz answer of a readiness: 503 with a message naming each problem, or 200. */
export function readinessAnswer(checks: Readiness): {
  status: number;
  body: { success: boolean; message: string; data: Readiness };
} {
  const problems = Object.entries(checks).filter(([, v]) => v !== 'ok');
  return {
    status: problems.length ? 503 : 200,
    body: {
      success: !problems.length,
      message: problems.length ? `not ready: ${problems.map(([k, v]) => `${k}: ${v}`).join('; ')}` : 'ready',
      data: checks,
    },
  };
}

/** Null when every migration of this code is applied, else how many are missing and the command that applies them. */
export async function migrationsProblem(db: Db): Promise<string | null> {
  const [, pending] = (await db.migrate.list(migrationConfig)) as [unknown[], { file: string }[]];
  if (!pending.length) return null;
  return `the database is behind this code's migrations: ${pending.length} pending (${pending.map((m) => m.file.replace(/\.ts$/, '')).join(', ')}); fix: run chasqui migrate`;
}

/** One search attribute chasqui needs that the namespace lacks, or has with another type. */
export interface SearchAttributeGap {
  name: string;
  type: string;
  /** The type the namespace has it with; null when missing. */
  found: string | null;
}

/** The gaps between chasqui's search attributes and the namespace's; throws NamespaceMissing when there is no namespace. */
export async function searchAttributeGaps(temporal: Client, namespace: string): Promise<SearchAttributeGap[]> {
  let custom: Record<string, number>;
  try {
    await temporal.workflowService.describeNamespace({ namespace });
    custom = (await temporal.connection.operatorService.listSearchAttributes({ namespace })).customAttributes as Record<
      string,
      number
    >;
  } catch (err) {
    if (isGrpcServiceError(err) && err.code === GRPC_NOT_FOUND) throw new NamespaceMissing(namespace);
    throw err;
  }
  const typeName = (code: number) =>
    Object.entries(TEMPORAL_TYPE_NAMES).find(
      ([type]) => encodeSearchAttributeIndexedValueType(type as never) === code,
    )?.[1] ?? `type ${code}`;
  return SEARCH_ATTRIBUTES.flatMap((sa) => {
    const found = custom[sa.name];
    const type = SEARCH_ATTRIBUTE_TYPE_NAMES[sa.type];
    if (found === encodeSearchAttributeIndexedValueType(sa.type)) return [];
    return [{ name: sa.name, type, found: found === undefined ? null : typeName(found) }];
  });
}

const GRPC_NOT_FOUND = 5;

/** Every type as the `temporal` CLI names it, to say what a namespace has instead. */
const TEMPORAL_TYPE_NAMES: Record<string, string> = {
  TEXT: 'Text',
  KEYWORD: 'Keyword',
  INT: 'Int',
  DOUBLE: 'Double',
  BOOL: 'Bool',
  DATETIME: 'Datetime',
  KEYWORD_LIST: 'KeywordList',
};

export class NamespaceMissing extends Error {
  constructor(readonly namespace: string) {
    super(`Temporal namespace ${namespace} does not exist`);
  }
}

/** What to run on a Temporal cluster (a dev server is fixed by the worker itself). */
export function namespaceFix(namespace: string): string {
  return `fix: docker compose run --rm temporal-namespace (deploy/temporal/create-namespace.sh with TEMPORAL_NAMESPACE=${namespace}) creates the namespace and registers deploy/temporal/search-attributes`;
}

/** Null when the namespace exists with every search attribute of chasqui, with the right type. */
export async function namespaceProblem(temporal: Client, namespace: string): Promise<string | null> {
  let gaps: SearchAttributeGap[];
  try {
    gaps = await searchAttributeGaps(temporal, namespace);
  } catch (err) {
    if (err instanceof NamespaceMissing) return `${err.message}; ${namespaceFix(namespace)}`;
    throw err;
  }
  return gaps.length ? searchAttributesProblem(namespace, gaps) : null;
}

export function searchAttributesProblem(namespace: string, gaps: SearchAttributeGap[]): string {
  const missing = gaps.filter((g) => !g.found);
  const wrong = gaps.filter((g) => g.found);
  const what = [
    missing.length ? `lacks search attributes ${missing.map((g) => `${g.name} (${g.type})`).join(', ')}` : '',
    wrong.length ? `has ${wrong.map((g) => `${g.name} as ${g.found} (chasqui needs ${g.type})`).join(', ')}` : '',
  ].filter(Boolean);
  const commands = [
    ...wrong.map((g) => `temporal operator search-attribute remove --namespace ${namespace} --name ${g.name}`),
    ...gaps.map(
      (g) => `temporal operator search-attribute create --namespace ${namespace} --name ${g.name} --type ${g.type}`,
    ),
  ];
  return `Temporal namespace ${namespace} ${what.join(' and ')}: document workflows cannot start; fix: ${commands.join(' && ')} (the list is deploy/temporal/search-attributes; compose: docker compose run --rm temporal-namespace)`;
}

/** Rejects when `promise` has not settled in `ms` (a call that would otherwise wait out gRPC's own retries). */
export function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    promise,
    new Promise<never>(
      (_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: no answer in ${ms / 1000} s`)), ms)),
    ),
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
  for (
    let e = err as { message?: string; code?: string; cause?: unknown } | undefined;
    e && parts.length < 3;
    e = e.cause as typeof e
  ) {
    const text = (e.message || e.code || String(e)).split('\n')[0];
    if (text && !parts.includes(text)) parts.push(text);
  }
  return parts.join(': ') || String(err);
}
