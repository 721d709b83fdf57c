import { expect } from 'chai';
import { DocumentValidationError, formatIssue, type ValidationIssue } from '../../documents/errors';
import { parseJsonPayload } from '../../documents/input/json';

function failure(text: string): ValidationIssue {
  try {
    parseJsonPayload(text);
  } catch (err) {
    expect(err).to.be.instanceOf(DocumentValidationError);
    const { issues } = err as DocumentValidationError;
    expect(issues).to.have.length(1);
    return issues[0];
  }
  throw new Error('expected a DocumentValidationError');
}

describe('documents/input/json parseJsonPayload', () => {
  it('parses valid JSON, with or without a byte-order mark', () => {
    expect(parseJsonPayload('{"tipoDoc":"01","items":[{"cantidad":2.5}]}')).to.deep.equal({
      tipoDoc: '01',
      items: [{ cantidad: 2.5 }],
    });
    expect(parseJsonPayload('\ufeff{"a":1}')).to.deep.equal({ a: 1 });
  });

  it('points at a missing comma with line, column and snippet', () => {
    const text = '{\n  "tipoDoc": "01",\n  "serie": "F001"\n  "correlativo": "1"\n}';
    const found = failure(text);
    expect(found).to.include({ source: 'JSON', code: 'SYNTAX', line: 4, col: 3, path: null });
    expect(found.snippet).to.equal('  "correlativo": "1"');
    expect(found.message).to.equal(
      `The body is not valid JSON (line 4, column 3): expected ',' or '}' after a property value but found "\\""`,
    );
    expect(formatIssue(found)).to.match(/^\[JSON SYNTAX\] The body is not valid JSON \(line 4, column 3\)/);
  });

  it('describes a trailing comma, a single-quoted name, a bad literal and an unclosed string', () => {
    expect(failure('{"a": [1, 2,]}')).to.include({
      line: 1,
      col: 13,
      message:
        'The body is not valid JSON (line 1, column 13): expected a value (object, array, string, number, true, false or null) but found "]"',
    });
    expect(failure("{'a': 1}")).to.include({
      col: 2,
      message: `The body is not valid JSON (line 1, column 2): expected a property name in double quotes but found "'"`,
    });
    expect(failure('{"a": tru}')).to.include({ col: 10 });
    expect(failure('{"a": "abc\ndef"}')).to.include({
      line: 1,
      col: 11,
      message:
        'The body is not valid JSON (line 1, column 11): a control character (such as a line break) inside a string must be escaped',
    });
  });

  it('reports a truncated body at its end and an empty body at its start', () => {
    expect(failure('{"items": [{"a": 1}')).to.include({
      line: 1,
      col: 20,
      message:
        "The body is not valid JSON (line 1, column 20): expected ',' or ']' after an array element but the text ends",
    });
    expect(failure('   ')).to.include({
      line: 1,
      col: 1,
      message: 'The body is not valid JSON (line 1, column 1): the body is empty',
    });
  });

  it('cuts the snippet of a long line around the error', () => {
    const long = `{"descripcion": "${'x'.repeat(100)}", "cantidad": 1,, "unidad": "NIU", "other": "${'y'.repeat(100)}"}`;
    const found = failure(long);
    const offset = long.indexOf(',,') + 1;
    expect(found.col).to.equal(offset + 1);
    expect(found.snippet).to.equal(`…${long.slice(offset - 30, offset + 30)}…`);
    expect(found.snippet!.length).to.equal(62);
  });

  it('rejects text after the value', () => {
    expect(failure('{"a":1} {"b":2}')).to.include({
      col: 9,
      message:
        'The body is not valid JSON (line 1, column 9): expected the end of the text after the JSON value but found "{"',
    });
  });
});
