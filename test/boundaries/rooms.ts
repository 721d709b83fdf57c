/**
 * docs/architecture.md's rooms and what each may import, as `npm run check:boundaries` enforces them. The one place
 * the rule is written: change it here and in the docs' table together (the test compares the two).
 *
 * Keys are paths from the repository root: a folder (`api/`) or a file (`lifecycle/transitions.ts`); a file belongs to
 * the longest key its path starts with, so a sub-room (`cli/support/`) or a pure file inside a room has rules of its
 * own. `may` lists what a room may import besides its own files (path prefixes, the same way; `*` is everything);
 * `types` what it may import only with `import type`. Packages from node_modules are not the table's business.
 */
export interface Room {
  /** What lives there, as the docs' table says it (for the failure message). */
  holds: string;
  may: string[];
  types?: string[];
}

export const ROOMS: Record<string, Room> = {
  'api/': {
    holds: 'Koa app, middleware, routes, OpenAPI',
    may: ['core/', 'documents/', 'db/', 'keys/', 'lifecycle/', 'workflows/', 'buyers/', 'authority/cdr.ts'],
  },
  'documents/': { holds: 'the pure documents library', may: [] },
  'authority/': { holds: 'SUNAT/OSE connectors', may: ['core/', 'documents/'] },
  'simulator/': { holds: 'the SUNAT/OSE/portal simulator', may: ['core/', 'documents/', 'authority/', 'validator/'] },
  'validator/': { holds: '`chasqui validate`', may: ['documents/calendar/'] },
  'workflows/': {
    holds: 'Temporal workflows and their clients',
    may: ['lifecycle/transitions.ts'],
    types: ['activities/'],
  },
  'activities/': {
    holds: 'the I/O workflows call',
    may: [
      'core/',
      'db/',
      'authority/',
      'documents/',
      'keys/',
      'buyers/',
      'validator/dated-rules.ts',
      'lifecycle/transitions.ts',
      'workflows/',
    ],
  },
  'db/': { holds: 'knex, migrations, repositories', may: ['core/', 'documents/', 'lifecycle/transitions.ts'] },
  'core/': { holds: 'config, logger, metrics, secret box, net guard, Lima dates', may: ['documents/'] },
  'keys/': {
    holds: 'signing keys for what chasqui signs',
    may: ['core/', 'db/', 'documents/', 'lifecycle/transitions.ts'],
  },
  'lifecycle/': { holds: 'statuses, transitions, support actions', may: ['core/', 'db/', 'documents/', 'workflows/'] },
  'buyers/': {
    holds: "what the buyer receives: e-mail, PDF, the consultation page's links",
    may: ['core/', 'db/', 'documents/', 'authority/cdr.ts'],
  },
  'lifecycle/transitions.ts': { holds: "the lifecycle's pure table", may: [] },
  'runtime/': { holds: 'embedded PostgreSQL, Temporal binaries, assembly of worker and API', may: ['*'] },
  'cli/': { holds: 'the `chasqui` command', may: ['*'] },
  'cli/support/': { holds: '`chasqui support`', may: ['core/', 'db/', 'lifecycle/', 'workflows/'] },
  'test/': { holds: 'mocha suites', may: ['*'] },
  'bench/': { holds: 'benchmarks', may: ['*'] },
};

/** The room a path belongs to: the longest key it starts with (null: a path the table does not know). */
export function roomOf(file: string): string | null {
  let best: string | null = null;
  for (const key of Object.keys(ROOMS))
    if ((file === key || file.startsWith(key)) && (!best || key.length > best.length)) best = key;
  return best;
}

/** Whether `from` (a file) may import `target` (a file); `typeOnly` for `import type`. */
export function mayImport(from: string, target: string, typeOnly: boolean): boolean {
  const room = roomOf(from);
  if (!room) return false;
  // Its own files, its sub-rooms' included (a parent room is never stricter than its parts).
  if (target === room || target.startsWith(room)) return true;
  const { may, types = [] } = ROOMS[room];
  const allowed = typeOnly ? [...may, ...types] : may;
  return allowed.some((prefix) => prefix === '*' || target === prefix || target.startsWith(prefix));
}
