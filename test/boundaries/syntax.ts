/**
 * Source files as syntax trees, for the checks that read more than imports (literals.ts, shape.ts). TypeScript 7 is
 * native and has no JavaScript API; swc (a dependency of @temporalio/worker, pinned in devDependencies) parses instead.
 */
import { parseSync } from '@swc/core';

/** A node of swc's tree: a `type` and a `span` of UTF-8 byte offsets. */
export interface Node {
  type: string;
  span?: { start: number; end: number };
  [key: string]: unknown;
}

export interface Parsed {
  program: Node;
  /** The 1-based line of a node's start (or, with `end`, of its end). */
  line(node: Node, end?: 'end'): number;
}

// swc counts spans from 1 and, in some versions, on from the previous parse: a statement of known length is put
// first so the file's own offsets are read from it.
const LEAD = '0;';

/** Parses a file's text once, when a check first asks (parsing is most of the checks' time). */
export function lazyParse(file: string, text: string): () => Parsed {
  let parsed: Parsed | undefined;
  return () => (parsed ??= parse(file, text));
}

export function parse(file: string, text: string): Parsed {
  const program = parseSync(LEAD + text, {
    syntax:
      file.endsWith('.ts') || file.endsWith('.tsx') || file.endsWith('.mts') || file.endsWith('.cts')
        ? 'typescript'
        : 'ecmascript',
    tsx: file.endsWith('.tsx'),
    jsx: file.endsWith('.jsx'),
    comments: false,
  }) as unknown as Node;
  const base = ((program.body as Node[])[0].span!.start as number) + Buffer.byteLength(LEAD);
  const bytes = Buffer.from(text, 'utf8');
  // Byte offset → line: the offsets of each line's start.
  const starts = [0];
  for (let i = 0; i < bytes.length; i++) if (bytes[i] === 0x0a) starts.push(i + 1);
  const lineAt = (offset: number) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
  return {
    program,
    line: (node, end) => lineAt(end ? node.span!.end - base - 1 : node.span!.start - base),
  };
}

/** Calls `visit` on every node under `node`, parents first, with the chain of its ancestors (read it, do not keep it). */
export function walk(
  node: unknown,
  visit: (node: Node, ancestors: readonly Node[]) => void,
  ancestors: Node[] = [],
): void {
  if (Array.isArray(node)) {
    for (const child of node) if (child && typeof child === 'object') walk(child, visit, ancestors);
    return;
  }
  const isNode = typeof (node as Node).type === 'string';
  if (isNode) {
    visit(node as Node, ancestors);
    ancestors.push(node as Node);
  }
  for (const key in node as object) {
    const value = (node as Record<string, unknown>)[key];
    if (key !== 'span' && value && typeof value === 'object') walk(value, visit, ancestors);
  }
  if (isNode) ancestors.pop();
}
