/**
 * docs/architecture.md's rooms and what each may import, as `npm run check:boundaries` enforces them. The one place
 * the rule is written: change it here and in the docs' table and drawings together (the tests compare them: check.ts,
 * diagram.ts).
 *
 * Keys are paths from the repository root: a folder (`api/`), a file (`lifecycle/transitions.ts`) or files by name
 * (`workflows/*-client.ts`); a file belongs to the longest key its path starts with or matches, so a sub-room
 * (`cli/support/`), a pure file inside a room or a kind of file has rules of its own. `may` lists what a room may import besides its own files (path prefixes, the same way; `*` alone is everything,
 * a `*` inside a path stands for part of one file name: `workflows/*-client.ts`); `types` what it may import only with
 * `import type`. Packages from node_modules are not the table's business; a path into the repository is, however it
 * is written (relative, absolute, the package's own name, tsconfig's paths).
 */
export interface Room {
  /** What lives there, as the docs' table says it (for the failure message). */
  holds: string;
  may: string[];
  types?: string[];
  /** A room of data files only: a source file in it is a mistake. */
  data?: true;
}

/** What a document type's part (sales, guides, summaries) builds on: input, catalogs, the calendar, the XML. */
const DOCUMENT_PARTS_BELOW = [
  'documents/calendar/',
  'documents/catalogs/',
  'documents/decimal.ts',
  'documents/errors.ts',
  'documents/prepared.ts',
  'documents/input/',
  'documents/xml/',
];

export const ROOMS: Record<string, Room> = {
  'api/': {
    holds: 'Koa app, middleware, routes, OpenAPI',
    may: [
      'core/',
      'documents/',
      'db/',
      'keys/',
      'lifecycle/',
      'support/',
      'workflows/*-client.ts',
      'workflows/*-types.ts',
      'workflows/search-attributes.ts',
      'buyers/',
      'authority/cdr.ts',
      'files/',
      'heavy/',
    ],
  },
  'heavy/': {
    holds: 'the heavy-work pool: worker threads for PDFs, PKCS#12 uploads and external XML',
    may: ['core/', 'documents/'],
  },
  'documents/': { holds: 'the pure documents library', may: [] },
  // documents/' parts: each may import the parts below it, never a sibling it does not name.
  'documents/calendar/': {
    holds: "SUNAT's dated rules, one file each, the IGV rates and catalog 25",
    may: ['documents/decimal.ts'],
    types: ['documents/doc-type.ts'],
  },
  'documents/xml/': {
    holds: 'the UBL builders and XML readers',
    may: ['documents/decimal.ts', 'documents/catalogs/', 'documents/tax/', 'documents/despatch/catalogs.ts'],
    types: ['documents/input/', 'documents/sales/', 'documents/other/', 'documents/summaries/', 'documents/despatch/'],
  },
  'documents/signing/': { holds: 'signer, certificates, signature checks', may: ['documents/xml/'] },
  'documents/printed/': {
    holds: 'signed XML to PDF',
    may: ['documents/decimal.ts', 'documents/line-bounds.ts', 'documents/tax/', 'documents/xml/'],
  },
  'documents/sales/': {
    holds: 'sales documents: schema, rules, totals',
    may: [...DOCUMENT_PARTS_BELOW, 'documents/tax/'],
    types: ['documents/types.ts'],
  },
  'documents/despatch/': {
    holds: 'the guides (GRE 09 and 31)',
    may: DOCUMENT_PARTS_BELOW,
    types: ['documents/types.ts'],
  },
  'documents/summaries/': {
    holds: 'daily summaries and voids',
    may: [...DOCUMENT_PARTS_BELOW, 'documents/tax/', 'documents/sales/dated.ts', 'documents/sales/rules.ts'],
    types: ['documents/types.ts'],
  },
  'authority/': { holds: 'SUNAT/OSE connectors', may: ['core/', 'documents/'] },
  'simulator/': { holds: 'the SUNAT/OSE/portal simulator', may: ['core/', 'documents/', 'authority/', 'validator/'] },
  'validator/': {
    holds: '`chasqui validate`',
    may: [
      'documents/calendar/',
      'documents/xml/dtd.ts',
      'documents/xml/bounds.ts',
      'documents/csv.ts',
      'lifecycle/transitions.ts',
    ],
  },
  'workflows/': {
    holds: 'Temporal workflows and their clients',
    may: ['lifecycle/transitions.ts', 'lifecycle/webhooks.ts', 'lifecycle/email.ts'],
    types: ['activities/'],
  },
  'workflows/*-client.ts': {
    holds: "a workflow's client: starts and signals by name",
    may: ['workflows/*-types.ts', 'workflows/search-attributes.ts'],
    types: ['workflows/'],
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
      'lifecycle/checks.ts',
      'lifecycle/messages/',
      'lifecycle/webhooks.ts',
      'lifecycle/email.ts',
      'workflows/*-client.ts',
      'workflows/*-types.ts',
      'files/',
    ],
  },
  'db/': {
    holds: 'knex, migrations, repositories',
    may: [
      'core/',
      'documents/',
      'lifecycle/transitions.ts',
      'lifecycle/checks.ts',
      'lifecycle/webhooks.ts',
      'lifecycle/email.ts',
    ],
  },
  'core/': {
    holds: 'config, logger, metrics, secret box, net guard, Lima dates',
    may: ['documents/', 'files/location.ts'],
  },
  'keys/': {
    holds: 'signing keys for what chasqui signs',
    may: ['core/', 'db/', 'documents/', 'lifecycle/transitions.ts'],
  },
  'lifecycle/': { holds: "the lifecycle's pure rules: statuses, transitions, their words", may: [] },
  'support/': {
    holds: "the actions that carry the lifecycle's rules out: send, resend, recheck, redeliver, e-mail again; timeline",
    may: ['core/', 'db/', 'documents/input/parties.ts', 'lifecycle/', 'workflows/*-client.ts', 'workflows/*-types.ts'],
  },
  'buyers/': {
    holds: "what the buyer receives: e-mail, PDF, the consultation page's links",
    may: ['core/', 'db/', 'documents/', 'lifecycle/transitions.ts', 'authority/cdr.ts', 'files/'],
  },
  'files/': { holds: 'the file store: signed XML and CDRs by content hash', may: ['core/', 'db/'] },
  'lifecycle/transitions.ts': { holds: "the lifecycle's pure table", may: ['lifecycle/messages/'] },
  'lifecycle/messages/': { holds: "the lifecycle's words", may: [] },
  'lifecycle/checks.ts': { holds: "the company checks' pure table", may: [] },
  'lifecycle/webhooks.ts': { holds: "the webhook delivery's pure machine", may: [] },
  'lifecycle/email.ts': { holds: "the buyer e-mail's pure table", may: ['lifecycle/transitions.ts'] },
  'runtime/': { holds: 'embedded PostgreSQL, Temporal binaries, assembly of worker and API', may: ['*'] },
  'cli/': { holds: 'the `chasqui` command', may: ['*'] },
  'cli/support/': {
    holds: '`chasqui support`',
    may: ['core/', 'db/', 'lifecycle/', 'support/', 'workflows/*-client.ts', 'workflows/*-types.ts'],
  },
  'test/': { holds: 'mocha suites', may: ['*'] },
  'bench/': { holds: 'benchmarks', may: ['*'] },
  'examples/': { holds: 'what the docs show integrators, run as written by the tests', may: [] },
  'sunat/': { holds: "SUNAT's published files, unchanged", may: [], data: true },
  'deploy/': { holds: "what docker-compose.yml mounts into Temporal's images", may: [], data: true },
};

/**
 * Files that only the paths of `may` import, whatever a room's row says (issue 44): a room that may import `files/`
 * reaches the object stores through files/documents.ts, never a store's own module.
 */
export const PRIVATE_FILES: { files: string[]; may: string[]; why: string }[] = [
  {
    files: ['files/s3.ts', 'files/directory.ts'],
    may: ['files/', 'test/files/'],
    why: 'a store is opened by files/documents.ts (openDocumentFiles) and handed in; its callers read through one checked handle',
  },
];

/** The entry of PRIVATE_FILES that keeps `target` from `from`, if one does. */
export function privateTo(from: string, target: string): (typeof PRIVATE_FILES)[number] | null {
  return PRIVATE_FILES.find((p) => p.files.includes(target) && !p.may.some((m) => covers(m, from))) ?? null;
}

/**
 * The dynamic imports the checker cannot read (an argument that is not a literal), each with the reason it may stay.
 * Rooms that may import everything (`*`) need none. `call` is the call as written, spaces included.
 */
export const DYNAMIC_IMPORTS: { file: string; call: string; why: string }[] = [
  {
    file: 'documents/printed/fonts.ts',
    call: 'require.resolve(file)',
    why: "finds the two font files of @expo-google-fonts/noto-sans named in FILES: a package's data, no code",
  },
  {
    file: 'heavy/pool.ts',
    call: "require(${JSON.stringify(require.resolve('tsx/cjs'))})",
    why: "run from the sources, a pool thread's source text registers tsx, as bin/chasqui does, before it loads the TypeScript below",
  },
  {
    file: 'heavy/pool.ts',
    call: "require(require('node:worker_threads').workerData.module)",
    why: "a pool thread loads heavy/thread.ts (named by its absolute path), the pool's own file",
  },
  {
    file: 'heavy/thread.ts',
    call: 'require(workerData.tasks)',
    why: 'a pool thread runs the TASKS of heavy/tasks.ts, or of the module a test gives the pool (test/heavy/)',
  },
  {
    file: 'db/knex.ts',
    call: 'require(migration.path)',
    why: "knex's migrations: the files of db/migrations, .ts from the sources or .js in the compiled layout (npm run build)",
  },
];

/** Whether `path` is `pattern`, starts with it (a folder or file prefix), or matches it (a `*` inside a file name). */
function covers(pattern: string, path: string): boolean {
  if (pattern === '*') return true;
  if (!pattern.includes('*')) return path === pattern || path.startsWith(pattern);
  const glob = pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replaceAll('*', '[^/]*');
  return new RegExp(`^${glob}$`).test(path);
}

/** The room a path belongs to: the longest key it starts with or matches (null: a path the table does not know). */
export function roomOf(file: string): string | null {
  let best: string | null = null;
  for (const key of Object.keys(ROOMS)) if (covers(key, file) && (!best || key.length > best.length)) best = key;
  return best;
}

/** Whether `from` (a file) may import `target` (a file); `typeOnly` for `import type`. */
export function mayImport(from: string, target: string, typeOnly: boolean): boolean {
  const room = roomOf(from);
  if (!room || privateTo(from, target)) return false;
  // Its own files, its sub-rooms' included (a parent room is never stricter than its parts); a room of a kind of file
  // (`workflows/*-client.ts`) is no part of its folder's: the workflows import a client only if their row said so.
  const kind = roomOf(target);
  if (covers(room, target) && (kind === room || !kind?.includes('*'))) return true;
  const { may, types = [] } = ROOMS[room];
  const allowed = typeOnly ? [...may, ...types] : may;
  return allowed.some((pattern) => covers(pattern, target));
}
