/** The admin surface, `/__admin/`: fault rules, reset, the request log, the credentials table, stored documents. */
import { seedDocument, seedProblem, type SeededDocument } from './seed';
import { ruleProblem, type FaultRule } from './rules';
import type { Credential, SimulatorStore } from './store';
import { json, type Reply } from './transport';
import type { LogEntry } from './log';

/** What the admin API acts on. */
export interface AdminTarget {
  readonly store: SimulatorStore;
  addRule(rule: Omit<FaultRule, 'id'> & { id?: string }): FaultRule;
  reset(): void;
  logEntries(): LogEntry[];
  clearLog(): void;
}

/** `/__admin/`: rules CRUD, reset, log, credentials table, stored documents. */
export function adminAnswer(sim: AdminTarget, method: string, path: string, body: string): Reply {
  let input: unknown = null;
  if (body.trim()) {
    try {
      input = JSON.parse(body);
    } catch {
      return json(400, { error: 'the body is not JSON' });
    }
  }
  const route = `${method} ${path.replace(/\/+$/, '')}`;
  const ruleId = /^DELETE \/__admin\/rules\/([^/]+)$/.exec(route)?.[1];
  if (ruleId) {
    const before = sim.store.rules.length;
    sim.store.setRules(sim.store.rules.filter((r) => r.id !== decodeURIComponent(ruleId)));
    return before === sim.store.rules.length ? json(404, { error: 'no such rule' }) : { status: 204, body: '' };
  }
  switch (route) {
    case 'GET /__admin/rules':
      return json(200, sim.store.rules);
    case 'POST /__admin/rules': {
      const problem =
        input && typeof input === 'object'
          ? ruleProblem(input as Partial<FaultRule>)
          : 'the body must be a rule object';
      if (problem) return json(400, { error: problem });
      return json(201, sim.addRule(input as FaultRule));
    }
    case 'DELETE /__admin/rules':
      sim.store.setRules([]);
      return { status: 204, body: '' };
    case 'POST /__admin/reset':
      sim.reset();
      return { status: 204, body: '' };
    case 'GET /__admin/log':
      return json(200, sim.logEntries());
    case 'DELETE /__admin/log':
      sim.clearLog();
      return { status: 204, body: '' };
    case 'GET /__admin/credentials':
      return json(200, shownCredentials(sim));
    case 'PUT /__admin/credentials':
    case 'POST /__admin/credentials':
      return storeCredentials(sim, input, route.startsWith('PUT'));
    case 'POST /__admin/documents': {
      const problem = seedProblem(input as Partial<SeededDocument> | null);
      if (problem) return json(400, { error: problem });
      const doc = seedDocument(sim.store, input as SeededDocument);
      return json(201, { name: doc.name, code: doc.code, status: doc.status });
    }
    case 'GET /__admin/documents':
      return json(
        200,
        [...sim.store.documents.entries()].map(([key, d]) => ({
          key,
          name: d.name,
          code: d.code,
          status: d.status,
          receivedAt: d.receivedAt,
        })),
      );
    default:
      return json(404, { error: `no admin route ${route}` });
  }
}

/** The credentials as the admin API shows them: never a password or a client secret. */
function shownCredentials(sim: AdminTarget) {
  return sim.store.credentials.map(({ ruc, user, clientId }) => ({ ruc, user, ...(clientId ? { clientId } : {}) }));
}

/** POST adds or replaces credentials by RUC and user; PUT (`replace`) replaces the whole table. */
function storeCredentials(sim: AdminTarget, input: unknown, replace: boolean): Reply {
  const list = Array.isArray(input) ? input : [input];
  const optional = (v: unknown) => v === undefined || typeof v === 'string';
  const valid = list.every(
    (c) =>
      c &&
      typeof c.ruc === 'string' &&
      typeof c.user === 'string' &&
      typeof c.password === 'string' &&
      optional(c.clientId) &&
      optional(c.clientSecret) &&
      !c.clientId === !c.clientSecret,
  );
  if (!valid)
    return json(400, {
      error: 'credentials are {ruc, user, password, clientId?, clientSecret?} (a GRE client needs both)',
    });
  const given = list as Credential[];
  const kept = replace
    ? []
    : sim.store.credentials.filter((c) => !given.some((g) => g.ruc === c.ruc && g.user === c.user));
  sim.store.setCredentials([
    ...kept,
    ...given.map(({ ruc, user, password, clientId, clientSecret }) => ({
      ruc,
      user,
      password,
      ...(clientId ? { clientId, clientSecret } : {}),
    })),
  ]);
  return json(200, shownCredentials(sim));
}
