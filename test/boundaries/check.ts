/**
 * The boundary checker behind `npm run check:boundaries`: reads every source file under a root, every import of each
 * (static, re-export, side effect, `import()`, `require()`, `require.resolve()`, however its path is written) and
 * checks it against test/boundaries/rooms.ts. It works on any root so the tests can feed it small trees of their own.
 */
import fs from 'node:fs';
import path from 'node:path';
import { builtinModules } from 'node:module';
import { DYNAMIC_IMPORTS, mayImport, privateTo, roomOf, ROOMS } from './rooms';

/** Top-level folders that hold no source of chasqui: dependencies, git and other dot folders, build output. */
const notSources = (name: string) => ['node_modules', 'out', 'dist'].includes(name) || name.startsWith('.');
const SOURCE = /\.(?:[cm]?[jt]s|[jt]sx)$/;
/** A declaration file's imports are types only, and checked as such. */
const DECLARATIONS = /\.d\.[cm]?ts$/;

/** Every source file under `root`, as posix paths from it. Only the top level is skipped, never a nested folder. */
export function sources(root: string, dir = ''): string[] {
  return fs.readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const file = path.posix.join(dir, entry.name);
    if (entry.isDirectory()) return dir === '' && notSources(entry.name) ? [] : sources(root, file);
    return SOURCE.test(entry.name) ? [file] : [];
  });
}

/** What a path of an import can lead to, read from the root's package.json and tsconfig.json. */
interface Project {
  root: string;
  name: string | undefined;
  packages: Set<string>;
  baseUrl: string | undefined;
  paths: [string, string[]][];
}

function readJson(file: string): Record<string, any> {
  return fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : {};
}

function project(root: string): Project {
  const pkg = readJson(path.join(root, 'package.json'));
  const options = readJson(path.join(root, 'tsconfig.json')).compilerOptions ?? {};
  return {
    root,
    name: pkg.name,
    packages: new Set(
      ['dependencies', 'devDependencies', 'optionalDependencies', 'peerDependencies'].flatMap((k) =>
        Object.keys(pkg[k] ?? {}),
      ),
    ),
    baseUrl: options.baseUrl,
    paths: Object.entries(options.paths ?? {}),
  };
}

const packageOf = (spec: string) =>
  spec
    .split('/')
    .slice(0, spec.startsWith('@') ? 2 : 1)
    .join('/');

/** The repository path tsconfig's `paths` (or `baseUrl`) turn a bare path into, if they do. */
function throughTsconfig(p: Project, spec: string): string | undefined {
  const base = p.baseUrl ?? '.';
  for (const [pattern, [first]] of p.paths) {
    const [head, tail = ''] = pattern.split('*');
    const wild = pattern.includes('*');
    if (
      wild ? spec.startsWith(head) && spec.endsWith(tail) && spec.length >= head.length + tail.length : spec === pattern
    )
      return path.posix.join(
        base,
        wild ? first.replace('*', spec.slice(head.length, spec.length - tail.length)) : first,
      );
  }
  if (p.baseUrl && exists(p, path.posix.join(p.baseUrl, spec))) return path.posix.join(p.baseUrl, spec);
  return undefined;
}

const CANDIDATES = ['.ts', '.tsx', '.js', '/index.ts', '/index.js', ''];
const exists = (p: Project, file: string) => CANDIDATES.some((ext) => fs.existsSync(path.join(p.root, file + ext)));

/** The repository file `file` names (an extension may be left out, or written `.js` for a `.ts`). */
function existing(p: Project, file: string): string {
  const plain = file.replace(/\.js$/, '');
  for (const base of [file, plain])
    for (const ext of CANDIDATES)
      if (fs.existsSync(path.join(p.root, base + ext)) && fs.statSync(path.join(p.root, base + ext)).isFile())
        return base + ext;
  return file;
}

type Resolved = { target: string } | { package: string } | { refused: string };

/** Where an import's path leads: a file of the repository, a package, or nowhere it may go. */
function resolve(p: Project, from: string, spec: string): Resolved {
  if (spec.startsWith('node:') || builtinModules.includes(packageOf(spec))) return { package: spec };
  let file: string | undefined;
  if (spec.startsWith('.')) file = path.posix.join(path.posix.dirname(from), spec);
  else if (path.isAbsolute(spec)) file = path.relative(p.root, spec).split(path.sep).join('/');
  else if (p.name && (spec === p.name || spec.startsWith(`${p.name}/`))) file = spec.slice(p.name.length + 1) || '.';
  else file = throughTsconfig(p, spec);
  if (file === undefined) {
    if (p.packages.has(packageOf(spec))) return { package: spec };
    // A bare path naming a folder of the repository: what a baseUrl or a bundler would make of it.
    const top = spec.split('/')[0];
    if (!notSources(top) && fs.existsSync(path.join(p.root, top))) file = spec;
    else return { refused: 'neither a path into the repository nor a package of package.json' };
  }
  if (file === '..' || file.startsWith('../') || path.isAbsolute(file)) return { refused: 'outside the repository' };
  return { target: existing(p, file === '.' ? 'index' : file) };
}

export interface Import {
  from: string;
  spec: string;
  target: string;
  typeOnly: boolean;
}

export interface Findings {
  /** Files of no room of the table. */
  unroomed: string[];
  /** Source files in a room of data. */
  inData: string[];
  /** Imports their room may not make, or that lead nowhere they may go, as lines for the failure message. */
  broken: string[];
  /** Dynamic imports whose path the checker cannot read and that no entry of DYNAMIC_IMPORTS allows. */
  unread: string[];
  /** Entries of DYNAMIC_IMPORTS that no longer match a call (remove them). */
  stale: string[];
  imports: Import[];
  files: string[];
}

// Static imports and re-exports (with what they name, to tell type-only ones) and side-effect imports.
const STATIC =
  /(?:^|\n)[ \t]*(?:import|export)\s+(type\s+)?([^;'"]*?)\bfrom\s*['"]([^'"]+)['"]|(?:^|\n)[ \t]*import\s*['"]([^'"]+)['"]/g;
// Calls that load or name a module: import(), require(), require.resolve(); their argument is read by hand.
const CALL = /(?<![\w$.])(import|require(?:\.resolve)?)\s*\(\s*/g;

/** `{ type A, type B }`: every name imported as a type. */
const onlyTypes = (names: string) =>
  /^\{[^}]*\}$/.test(names.trim()) &&
  names
    .trim()
    .slice(1, -1)
    .split(',')
    .filter((n) => n.trim())
    .every((n) => /^type\s/.test(n.trim()));

/** A call's argument: a literal path (quotes, or backquotes without `${…}`), or the argument as written. */
function argument(text: string, start: number): { spec: string } | { call: string } {
  const quote = text[start];
  if (quote === "'" || quote === '"' || quote === '`') {
    const end = text.indexOf(quote, start + 1);
    const body = text.slice(start + 1, end);
    if (end > 0 && !(quote === '`' && body.includes('${')) && /^\s*[,)]/.test(text.slice(end + 1)))
      return { spec: body };
  }
  let depth = 1;
  let end = start;
  while (end < text.length && depth > 0) ((depth += text[end] === '(' ? 1 : text[end] === ')' ? -1 : 0), end++);
  return { call: text.slice(start, end - 1) };
}

function parse(text: string) {
  const specs: { spec: string; typeOnly: boolean }[] = [];
  const calls: string[] = [];
  for (const m of text.matchAll(STATIC))
    specs.push({ spec: m[3] ?? m[4], typeOnly: !!m[1] || (m[2] !== undefined && onlyTypes(m[2])) });
  for (const m of text.matchAll(CALL)) {
    const arg = argument(text, m.index + m[0].length);
    if ('spec' in arg) specs.push({ spec: arg.spec, typeOnly: /\btypeof\s*$/.test(text.slice(0, m.index)) });
    else calls.push(`${m[1]}(${arg.call})`);
  }
  return { specs, calls };
}

/** Checks every source file under `root` against the rooms of test/boundaries/rooms.ts. */
export function check(root: string): Findings {
  const p = project(root);
  const files = sources(root);
  const findings: Findings = { unroomed: [], inData: [], broken: [], unread: [], stale: [], imports: [], files };
  const allowed = new Set<string>();
  for (const from of files) {
    const room = roomOf(from);
    if (!room) findings.unroomed.push(from);
    else if (ROOMS[room].data) findings.inData.push(from);
    const { specs, calls } = parse(fs.readFileSync(path.join(root, from), 'utf8'));
    const declaration = DECLARATIONS.test(from);
    for (const { spec, typeOnly: typed } of specs) {
      const typeOnly = typed || declaration;
      const to = resolve(p, from, spec);
      if ('refused' in to) findings.broken.push(`${from} → ${spec}: ${to.refused}`);
      if (!('target' in to)) continue;
      findings.imports.push({ from, spec, target: to.target, typeOnly });
      if (!mayImport(from, to.target, typeOnly)) {
        const { holds, may } = ROOMS[room!] ?? { holds: 'no room', may: [] };
        const kept = privateTo(from, to.target);
        findings.broken.push(
          `${from} → ${to.target}${typeOnly ? ' (type)' : ''}: ` +
            (kept
              ? `only ${kept.may.join(', ')} may import it (${kept.why})`
              : `${room} (${holds}) may import ${may.join(', ') || 'only its own files'}`),
        );
      }
    }
    for (const call of calls) {
      const entry = DYNAMIC_IMPORTS.find((d) => d.file === from && d.call === call);
      if (entry) allowed.add(`${from}: ${call}`);
      else if (!room || !ROOMS[room].may.includes('*'))
        findings.unread.push(`${from}: ${call} (a literal path, or an entry with its reason in DYNAMIC_IMPORTS)`);
    }
  }
  findings.stale = DYNAMIC_IMPORTS.map((d) => `${d.file}: ${d.call}`).filter((d) => !allowed.has(d));
  return findings;
}

/**
 * The top-level folders holding TypeScript (declaration files aside) that tsconfig.json's `include` leaves out of the
 * type check: `npm test`'s `tsc --noEmit -p .` would never read them.
 */
export function typeCheckGaps(root: string, files: string[]): string[] {
  const include: string[] = readJson(path.join(root, 'tsconfig.json')).include ?? [];
  const folders = new Set(
    files.filter((f) => /\.[cm]?tsx?$/.test(f) && !DECLARATIONS.test(f)).map((f) => f.split('/')[0]),
  );
  return [...folders].filter((folder) => !include.includes(folder)).sort();
}

/** docs/architecture.md's Rooms table: each row's room and the paths its "may import" column names. */
export function docsTable(markdown: string): Map<string, string[]> {
  const start = markdown.indexOf('## Rooms');
  const section = markdown.slice(start, markdown.indexOf('\n## ', start + 1));
  // | `room` | what lives there | `a/`, `b/` (types: `c/`) |
  return new Map(
    [...section.matchAll(/^\| `([^`]+)` \|[^\n]*\| ([^|\n]*) \|$/gm)].map((m) => [
      m[1],
      [...m[2].matchAll(/`([^`]+)`/g)].map((x) => x[1]),
    ]),
  );
}

/** Where the docs' table and rooms.ts disagree, both ways. */
export function tableDifferences(markdown: string): string[] {
  const rows = docsTable(markdown);
  const differences = Object.keys(ROOMS)
    .filter((key) => !rows.has(key))
    .map((key) => `docs/architecture.md's Rooms table has no row for \`${key}\``);
  for (const [key, paths] of rows) {
    const room = ROOMS[key];
    if (!room) differences.push(`test/boundaries/rooms.ts has no room \`${key}\` (a row of the docs' table)`);
    else if (JSON.stringify(paths) !== JSON.stringify([...room.may, ...(room.types ?? [])]))
      differences.push(
        `\`${key}\` may import ${paths.join(', ')} in the docs, ${[...room.may, ...(room.types ?? [])]}`,
      );
  }
  return differences;
}
