/**
 * Request bodies are parsed here so malformed JSON gets the 422 of spec 7.2 with `line`, `col` and `snippet`.
 * JSON.parse does the work; V8's messages do not reliably carry a position, so on failure a small scanner walks
 * the text again to find and describe the first error (only the error path pays for it).
 */
import { DocumentValidationError, type ValidationIssue } from '../errors';

const CODE = 'SYNTAX';
const SNIPPET_RADIUS = 30;

export function parseJsonPayload(text: string): unknown {
  // A UTF-8 byte-order mark is harmless; JSON.parse would reject it.
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  try {
    return JSON.parse(body);
  } catch {
    const { offset, problem } = locateJsonError(body);
    throw new DocumentValidationError([jsonIssue(body, offset, problem)]);
  }
}

function jsonIssue(text: string, offset: number, problem: string): ValidationIssue {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  const col = offset - lineStart + 1;
  const lineEnd = text.indexOf('\n', offset);
  const from = Math.max(lineStart, offset - SNIPPET_RADIUS);
  const to = Math.min(lineEnd < 0 ? text.length : lineEnd, offset + SNIPPET_RADIUS);
  const snippet =
    (from > lineStart ? '…' : '') +
    text.slice(from, to).replace(/\r$/, '') +
    (to < (lineEnd < 0 ? text.length : lineEnd) ? '…' : '');
  return {
    code: CODE,
    source: 'JSON',
    message: `The body is not valid JSON (line ${line}, column ${col}): ${problem}`,
    path: null,
    line,
    col,
    snippet,
  };
}

class JsonSyntax {
  constructor(
    readonly offset: number,
    readonly problem: string,
  ) {}
}

/** The offset and a description of the first syntax error in `text` (which JSON.parse already rejected). */
export function locateJsonError(text: string): { offset: number; problem: string } {
  let pos = 0;

  const describe = (): string => (pos >= text.length ? 'the text ends' : `found ${JSON.stringify(text[pos])}`);
  const fail = (expected: string): never => {
    throw new JsonSyntax(pos, `expected ${expected} but ${describe()}`);
  };
  const skipSpace = () => {
    while (pos < text.length && ' \t\n\r'.includes(text[pos])) pos++;
  };
  const literal = (word: string) => {
    for (let i = 0; i < word.length; i++, pos++) if (text[pos] !== word[i]) fail(`the literal ${word}`);
  };
  const string = () => {
    pos++; // opening quote
    for (;;) {
      if (pos >= text.length) fail('a closing quote');
      const c = text.charCodeAt(pos);
      if (c === 0x22) return void pos++;
      if (c < 0x20)
        throw new JsonSyntax(pos, 'a control character (such as a line break) inside a string must be escaped');
      if (c === 0x5c) {
        const e = text[pos + 1];
        if (e === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(pos + 2, pos + 6)))
            throw new JsonSyntax(pos, 'invalid \\u escape in a string');
          pos += 6;
        } else if (e !== undefined && '"\\/bfnrt'.includes(e)) pos += 2;
        else throw new JsonSyntax(pos, 'invalid escape sequence in a string');
      } else pos++;
    }
  };
  const number = () => {
    const m = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(text.slice(pos, pos + 400));
    if (!m) fail('a value');
    pos += m![0].length;
  };
  const value = (): void => {
    skipSpace();
    const c = text[pos];
    if (c === '{') return object();
    if (c === '[') return array();
    if (c === '"') return string();
    if (c === 't') return literal('true');
    if (c === 'f') return literal('false');
    if (c === 'n') return literal('null');
    if (c === '-' || (c >= '0' && c <= '9')) return number();
    fail('a value (object, array, string, number, true, false or null)');
  };
  const object = () => {
    pos++;
    skipSpace();
    if (text[pos] === '}') return void pos++;
    for (;;) {
      skipSpace();
      if (text[pos] !== '"') fail('a property name in double quotes');
      string();
      skipSpace();
      if (text[pos] !== ':') fail("':' after the property name");
      pos++;
      value();
      skipSpace();
      if (text[pos] === '}') return void pos++;
      if (text[pos] !== ',') fail("',' or '}' after a property value");
      pos++;
    }
  };
  const array = () => {
    pos++;
    skipSpace();
    if (text[pos] === ']') return void pos++;
    for (;;) {
      value();
      skipSpace();
      if (text[pos] === ']') return void pos++;
      if (text[pos] !== ',') fail("',' or ']' after an array element");
      pos++;
    }
  };

  try {
    if (text.trim() === '') return { offset: 0, problem: 'the body is empty' };
    value();
    skipSpace();
    if (pos < text.length) fail('the end of the text after the JSON value');
    return { offset: pos, problem: 'the text is not valid JSON' };
  } catch (err) {
    if (err instanceof JsonSyntax) return { offset: err.offset, problem: err.problem };
    throw err;
  }
}
