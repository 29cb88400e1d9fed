import { describe, expect, it } from 'vitest';
import { ManifestParseError } from '../errors/manifest-parse-error.js';
import { StrictJsonParser } from './strict-json-parser.js';

function parse(text: string, maxDepth = 64): unknown {
  return new StrictJsonParser(text, maxDepth).parseDocument();
}

function failure(text: string, maxDepth = 64): ManifestParseError {
  try {
    parse(text, maxDepth);
  } catch (error) {
    expect(error).toBeInstanceOf(ManifestParseError);
    return error as ManifestParseError;
  }
  throw new Error(`expected ${JSON.stringify(text)} to be refused`);
}

describe('StrictJsonParser values', () => {
  it('reads what JSON.parse reads, whitespace, escapes and numbers included', () => {
    const text = ' {\t"a" : [1, -0.5, 2e3, 1E-2, true, false, null],\r\n "s": "\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9\\ud83d\\ude00", "o": {}, "e": []} \n';
    expect(parse(text)).toEqual(JSON.parse(text));
  });

  it('keeps a well-formed surrogate pair given raw or escaped', () => {
    expect(parse('"😀"')).toBe('😀');
    expect(parse('"\\uD83D\\uDE00"')).toBe('😀');
  });

  it('reads a bare scalar as the whole document', () => {
    expect(parse('0')).toBe(0);
    expect(parse('"x"')).toBe('x');
    expect(parse('null')).toBeNull();
  });
});

describe('StrictJsonParser refusals', () => {
  it('refuses an empty or blank document', () => {
    expect(failure('').message).toMatch(/Document is empty/);
    expect(failure(' \n\t').issueCode).toBe('json.syntax');
  });

  it('names the line and column of the first bad character', () => {
    const error = failure('{\n  "a": 1,\n  "b": tru\n}');
    expect(error.position).toEqual({ line: 3, column: 8 });
    expect(error.pointer).toBe('/b');
    expect(error.message).toContain('line 3, column 8 (/b)');
    expect(error.message).toContain('"tru"');
  });

  it('says what it found at the start of text that is not JSON, not a misspelt literal', () => {
    const error = failure('not json at all');
    expect(error.message).toContain('Unexpected token "not"');
    expect(error.position).toEqual({ line: 1, column: 1 });
  });

  it('refuses content after the value', () => {
    expect(failure('{} {}').message).toMatch(/after the JSON value/);
    expect(failure('1 2').position).toEqual({ line: 1, column: 3 });
  });

  it('points into arrays by index', () => {
    const error = failure('{"tools": [{"id": 1}, {"id": 2,}]}');
    expect(error.pointer).toBe('/tools/1');
    expect(error.message).toMatch(/double-quoted property name/);
  });

  it('escapes "/" and "~" in the pointer', () => {
    expect(failure('{"a/b": {"c~d": [}}').pointer).toBe('/a~1b/c~0d/0');
  });

  it('refuses duplicate keys at the second one, pointing at it', () => {
    const error = failure('{"a": 1, "b": {"x": 1, "x": 2}}');
    expect(error.issueCode).toBe('json.duplicate_key');
    expect(error.pointer).toBe('/b/x');
    expect(error.position).toEqual({ line: 1, column: 24 });
  });

  it('refuses __proto__ anywhere and constructor holding an object', () => {
    expect(failure('{"a": {"__proto__": 1}}')).toMatchObject({ issueCode: 'json.forbidden_key', pointer: '/a/__proto__' });
    expect(failure('{"constructor": {"prototype": {}}}')).toMatchObject({ issueCode: 'json.forbidden_key', pointer: '/constructor' });
    expect(parse('{"constructor": "a string is harmless"}')).toEqual({ constructor: 'a string is harmless' });
  });

  it('allows exactly maxDepth levels of nesting and refuses one more', () => {
    expect(parse('[[[1]]]', 3)).toEqual([[[1]]]);
    const error = failure('[[[[1]]]]', 3);
    expect(error.issueCode).toBe('json.too_deep');
    expect(error.pointer).toBe('/0/0/0');
    expect(failure('{"a":{"b":{"c":{}}}}', 3)).toMatchObject({ issueCode: 'json.too_deep', pointer: '/a/b/c' });
  });

  it('refuses a lone surrogate, raw or escaped, as invalid unicode', () => {
    expect(failure('"\\uD800"').issueCode).toBe('json.invalid_unicode');
    expect(failure('{"k": "a\\uDC00b"}')).toMatchObject({ issueCode: 'json.invalid_unicode', pointer: '/k' });
    expect(failure(`"${String.fromCharCode(0xd800)}"`).issueCode).toBe('json.invalid_unicode');
  });

  it('refuses raw control characters, bad escapes and unterminated strings', () => {
    expect(failure('"a\nb"').message).toMatch(/Control character/);
    expect(failure('"\\x41"').message).toMatch(/Invalid escape sequence/);
    expect(failure('"\\u12G4"').message).toMatch(/Invalid \\u escape/);
    expect(failure('"\\u12"').message).toMatch(/Invalid \\u escape/);
    expect(failure('"abc').message).toMatch(/Unterminated string/);
    expect(failure('"\\').message).toMatch(/Invalid escape sequence/);
  });

  it('refuses numbers JSON does not allow, and ones a double cannot hold', () => {
    expect(failure('1e309').message).toMatch(/out of range/);
    expect(failure('-1e400').message).toMatch(/out of range/);
    expect(failure('-').message).toMatch(/Invalid number/);
    expect(failure('[01]').message).toMatch(/"," or "\]"/);
    expect(failure('[1.]').message).toMatch(/"," or "\]"/);
    expect(failure('+1').message).toMatch(/Unexpected character "\+"/);
  });

  it('refuses a missing colon, a trailing comma and an unclosed container', () => {
    expect(failure('{"a" 1}').message).toMatch(/Expected ":"/);
    expect(failure('[1,]').message).toMatch(/Unexpected character "\]"/);
    expect(failure('{"a": 1').message).toMatch(/"," or "}"/);
    expect(failure('[').message).toMatch(/Unexpected end of input/);
  });
});
