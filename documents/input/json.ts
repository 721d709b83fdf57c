import { DocumentValidationError } from '../errors';

/**
 * JSON.parse with an error a person can act on: line, column and a snippet of the text around the fault
 * (spec 7.2 `details`). V8's own message names a position only for some faults, so on failure a small scanner
 * walks the text to find where it stops being JSON.
 */
export function parseJsonPayload(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    const offset = findJsonErrorOffset(text);
    const { line, col } = lineAndColumn(text, offset);
    const found = offset >= text.length ? 'the text ends' : `'${text[offset]}' appears`;
    const message = `The body is not valid JSON: ${found} at line ${line}, column ${col} (${(err as Error).message})`;
    throw new DocumentValidationError([
      { code: null, source: 'JSON', message, path: null, line, col, snippet: snippetAround(text, offset) },
    ]);
  }
}

export function lineAndColumn(text: string, offset: number): { line: number; col: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, col: offset - lineStart + 1 };
}

function snippetAround(text: string, offset: number): string {
  const start = Math.max(0, offset - 20);
  return text.slice(start, Math.min(text.length, offset + 20)).replace(/\s+/g, ' ');
}

/** Offset of the first character that makes `text` invalid JSON (text.length when it ends too early). */
export function findJsonErrorOffset(text: string): number {
  let i = 0;
  class Stop {
    constructor(readonly at: number) {}
  }
  const fail = (at = i): never => {
    throw new Stop(at);
  };
  const ws = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i])) i++;
  };
  const literal = (word: string) => {
    for (const ch of word) if (text[i++] !== ch) fail(i - 1);
  };
  const string = () => {
    if (text[i] !== '"') fail();
    i++;
    while (i < text.length && text[i] !== '"') {
      const c = text.charCodeAt(i);
      if (c < 0x20) fail();
      if (text[i] === '\\') {
        i++;
        if (text[i] === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 1, i + 5))) fail(i + 1);
          i += 5;
        } else if ('"\\/bfnrt'.includes(text[i] ?? '')) i++;
        else fail();
      } else i++;
    }
    if (i >= text.length) fail();
    i++;
  };
  const number = () => {
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
    if (!m || m[0] === '' || m[0] === '-') fail();
    i += m![0].length;
  };
  const value = (): void => {
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      ws();
      if (text[i] === '}') return void i++;
      for (;;) {
        ws();
        string();
        ws();
        if (text[i] !== ':') fail();
        i++;
        value();
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === '}') return void i++;
        else fail();
      }
    }
    if (c === '[') {
      i++;
      ws();
      if (text[i] === ']') return void i++;
      for (;;) {
        value();
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === ']') return void i++;
        else fail();
      }
    }
    if (c === '"') return string();
    if (c === 't') return literal('true');
    if (c === 'f') return literal('false');
    if (c === 'n') return literal('null');
    if (c === '-' || (c >= '0' && c <= '9')) return number();
    fail();
  };
  try {
    value();
    ws();
    if (i < text.length) fail();
    return text.length;
  } catch (e) {
    if (e instanceof Stop) return Math.min(e.at, text.length);
    throw e;
  }
}
