/**
 * What every JSON body must be before anything reads it (docs/issuing.md, "Input rules"): nested at most
 * MAX_DEPTH levels, no key that is an `Object.prototype` name (`__proto__`, `constructor`, `toString`…: refused like
 * any unknown field, never silently dropped or resolved to a function), and no text carrying U+0000, control
 * characters other than tab and line breaks, or lone surrogates (XML cannot carry them; PostgreSQL refuses U+0000).
 * The walk is iterative, so no depth of input can overflow the stack.
 */
import { issue, type ValidationIssue } from '../errors';

export const MAX_DEPTH = 32;
const MAX_ISSUES = 20;
const PROTOTYPE_NAMES = new Set(Object.getOwnPropertyNames(Object.prototype));
// C0 controls but tab, LF and CR; DEL and C1 controls; unpaired surrogates; the two XML non-characters.
const FORBIDDEN_TEXT =
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

const childPath = (parent: string, key: string | number) =>
  typeof key === 'number' ? `${parent}[${key}]` : parent ? `${parent}.${key}` : key;

function describeChar(text: string): string {
  const m = FORBIDDEN_TEXT.exec(text)!;
  const code = m[0].charCodeAt(0);
  return `U+${code.toString(16).toUpperCase().padStart(4, '0')} at character ${m.index + 1}`;
}

export function inspectJson(root: unknown): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const stack: { value: unknown; path: string; depth: number }[] = [{ value: root, path: '', depth: 0 }];
  while (stack.length && issues.length < MAX_ISSUES) {
    const { value, path, depth } = stack.pop()!;
    if (typeof value === 'string') {
      if (FORBIDDEN_TEXT.test(value)) {
        issues.push(
          issue(
            'chasqui',
            'BR_TEXT_CHARACTERS',
            `'${path || 'body'}' contains a character that cannot be issued (${describeChar(value)}): control characters other than tab and line breaks, and unpaired surrogates, are refused`,
            path || null,
          ),
        );
      }
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    if (depth >= MAX_DEPTH) {
      issues.push(
        issue('chasqui', 'BR_NESTING', `'${path || 'body'}' is nested deeper than ${MAX_DEPTH} levels`, path || null),
      );
      continue;
    }
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--)
        stack.push({ value: value[i], path: childPath(path, i), depth: depth + 1 });
      continue;
    }
    const keys = Object.keys(value);
    for (let i = keys.length - 1; i >= 0; i--) {
      const key = keys[i];
      const at = childPath(path, key);
      if (PROTOTYPE_NAMES.has(key)) {
        issues.push(issue('chasqui', 'BR_UNKNOWN_FIELD', `'${at}' is not an accepted field`, at));
        continue;
      }
      if (FORBIDDEN_TEXT.test(key)) {
        issues.push(
          issue(
            'chasqui',
            'BR_TEXT_CHARACTERS',
            `a field name under '${path || 'body'}' contains a character that cannot be accepted (${describeChar(key)})`,
            path || null,
          ),
        );
        continue;
      }
      stack.push({ value: (value as Record<string, unknown>)[key], path: at, depth: depth + 1 });
    }
  }
  return issues;
}
