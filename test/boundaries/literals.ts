/**
 * Issue 35: only lifecycle/ decides a document's status. A literal of DOCUMENT_STATUSES compared anywhere else
 * (`===`/`!==`, a `case`, an array literal or a `new Set([...])` asked `.includes(`, `.has(` or `.indexOf(`, or
 * any list asked one of those of a status literal) is a status rule written outside the room
 * (docs/architecture.md, "Status literals"). Setting a status (`status: 'queued'`) and a query that carries out a
 * decision (`where({ status })`, `whereIn('status', [...])`) compare nothing in JavaScript and are allowed. The checker
 * reads no types: the same word of another machine counts too.
 */
import { DOCUMENT_STATUSES } from '../../lifecycle/transitions';
import { walk, type Node, type Parsed } from './syntax';

/** Where statuses may be compared: the lifecycle room; SUNAT's own states in the simulator; the tests. */
export const STATUS_RULES_MAY_LIVE = ['lifecycle/', 'simulator/', 'test/'];

const STATUSES = new Set<string>(DOCUMENT_STATUSES);
const COMPARISONS = new Set(['===', '!==', '==', '!=']);
const TYPESCRIPT = /\.[cm]?tsx?$|\.[cm]?jsx?$/;

/** An expression without its parentheses and type assertions (`(['a'] as const)`). */
function bare(node: Node): Node {
  while (
    [
      'ParenthesisExpression',
      'TsAsExpression',
      'TsConstAssertion',
      'TsSatisfiesExpression',
      'TsNonNullExpression',
    ].includes(node.type)
  )
    node = node.expression as Node;
  return node;
}

/** The calls that ask a list whether it holds a value. */
const MEMBERSHIP = new Set(['includes', 'has', 'indexOf']);

/** The array literal a membership question is asked of: `[...]` itself, or the one a `new Set([...])` is made of. */
function listOf(node: Node): Node | null {
  if (node.type === 'ArrayExpression') return node;
  if (node.type !== 'NewExpression') return null;
  const first = (node.arguments as { expression: Node }[] | undefined)?.[0]?.expression;
  const array = first && bare(first);
  return array?.type === 'ArrayExpression' ? array : null;
}

const statusOf = (node: Node | null | undefined): string | null => {
  if (!node) return null;
  const b = bare(node);
  return b.type === 'StringLiteral' && STATUSES.has(b.value as string) ? (b.value as string) : null;
};

/** The statuses among some expressions. */
const statusesOf = (nodes: (Node | null | undefined)[]) => nodes.map(statusOf).filter((s): s is string => s !== null);

/** The status literals a node compares, if it is a comparison. */
function compared(node: Node): string[] {
  if (node.type === 'BinaryExpression' && COMPARISONS.has(node.operator as string))
    return statusesOf([node.left as Node, node.right as Node]);
  if (node.type === 'SwitchCase') return statusesOf([node.test as Node]);
  if (node.type === 'CallExpression') {
    let callee = bare(node.callee as Node);
    if (callee.type === 'OptionalChainingExpression') callee = callee.base as Node;
    if (callee.type !== 'MemberExpression') return [];
    const property = callee.property as Node;
    if (property?.type !== 'Identifier' || !MEMBERSHIP.has(property.value as string)) return [];
    const list = listOf(bare(callee.object as Node));
    // `['accepted', 'observed'].includes(status)`, `new Set([...]).has(status)`, or `statuses.includes('accepted')`.
    return statusesOf(
      list
        ? (list.elements as ({ expression: Node } | null)[]).map((e) => e?.expression)
        : [(node.arguments as { expression: Node }[])[0]?.expression],
    );
  }
  return [];
}

/** Whether status rules may live in `file`. */
export const mayDecideStatuses = (file: string) =>
  !TYPESCRIPT.test(file) || STATUS_RULES_MAY_LIVE.some((room) => file.startsWith(room));

/** Every status literal compared in one file, as `file:line: 'status'`. */
export function statusComparisons(file: string, parsed: Parsed): string[] {
  const found: string[] = [];
  walk(parsed.program, (node) => {
    const statuses = compared(node);
    if (statuses.length) found.push(`${file}:${parsed.line(node)}: ${statuses.map((s) => `'${s}'`).join(', ')}`);
  });
  return found;
}
