/**
 * Issue 44: the file store is a dependency, built once by an entry beside its database and handed in (AppDeps,
 * ActivityDeps), never a module's own. A store builder (`openDocumentFiles`, `openStore`, `new DocumentFiles`,
 * `new S3Store`, `new DirectoryStore`) is called only at STORE_BUILD_SITES, inside a function (a call at a module's top
 * level is a store every importer shares), and no file that builds one keeps a module-level Map or WeakMap (the cache
 * `documentFiles(config)` was). docs/architecture.md, "The file store is handed in".
 */
import { FUNCTIONS } from './shape';
import { walk, type Node, type Parsed } from './syntax';

const BUILDERS = new Set(['openDocumentFiles', 'openStore', 'DocumentFiles', 'S3Store', 'DirectoryStore']);

/** Where a store may be built: the entries, the store's own room, the tests' stacks and the files suites, the benchmarks. */
export const STORE_BUILD_SITES = [
  'files/documents.ts',
  'files/migrate.ts',
  'cli/commands/start.ts',
  'cli/commands/api.ts',
  'cli/commands/worker.ts',
  'cli/commands/files.ts',
  'test/support/',
  'test/files/',
  'bench/',
];

/** A cheap look at the text first: most files name no builder and are never parsed for this check. */
export const mayBuildStores = (text: string) =>
  /\b(?:openDocumentFiles|openStore|DocumentFiles|S3Store|DirectoryStore)\b/.test(text);

/** The name a call or `new` is made with: `f(…)`, `x.f(…)`, `new F(…)`. */
function calleeName(node: Node): string | null {
  if (node.type !== 'CallExpression' && node.type !== 'NewExpression') return null;
  let callee = node.callee as Node;
  if (callee.type === 'MemberExpression') callee = callee.property as Node;
  return callee.type === 'Identifier' ? (callee.value as string) : null;
}

/** A module-level `const x = new Map(…)` / `new WeakMap(…)` (exported or not). */
function moduleCaches(program: Node): Node[] {
  return (program.body as Node[]).flatMap((statement) => {
    const declaration = statement.type === 'ExportDeclaration' ? (statement.declaration as Node) : statement;
    if (declaration.type !== 'VariableDeclaration') return [];
    return (declaration.declarations as Node[]).filter((d) => {
      const init = d.init as Node | undefined;
      return init?.type === 'NewExpression' && ['Map', 'WeakMap'].includes(calleeName(init) ?? '');
    });
  });
}

/** What one file breaks: `file:line: name() …` for each builder call out of place, and each cache beside one. */
export function storeBuilds(file: string, parsed: Parsed): string[] {
  const found: string[] = [];
  const site = STORE_BUILD_SITES.some((s) => file.startsWith(s));
  let builds = false;
  walk(parsed.program, (node, ancestors) => {
    const name = calleeName(node);
    if (!name || !BUILDERS.has(name)) return;
    builds = true;
    const where = `${file}:${parsed.line(node)}: ${node.type === 'NewExpression' ? 'new ' : ''}${name}()`;
    if (!site) found.push(`${where} outside the entries (hand the store in: AppDeps, ActivityDeps)`);
    else if (!ancestors.some((a) => FUNCTIONS.has(a.type))) found.push(`${where} at the module's top level`);
  });
  if (builds)
    for (const cache of moduleCaches(parsed.program))
      found.push(`${file}:${parsed.line(cache)}: a module-level cache beside a store builder`);
  return found;
}
