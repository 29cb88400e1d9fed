import { describe, expect, it } from 'vitest';
import { AicapError } from '../errors/aicap-error.js';
import { ManifestParseError } from '../errors/manifest-parse-error.js';
import { defaultManifestMaxSizeInBytes } from './manifest-size-limit.js';
import { parseJsonDocument, readJsonDocument } from './parse-json-document.js';

// The entry every untrusted JSON document goes through: what it reads, what it refuses, with which
// issue code, line, column and JSON Pointer, whichever of its two readers (the engine's parser
// checked, or the strict one) saw the text.

const encoder = new TextEncoder();

function parseError(input: string | Uint8Array, options = {}): ManifestParseError {
  try {
    parseJsonDocument(input, options);
  } catch (error) {
    if (error instanceof ManifestParseError) return error;
    throw error;
  }
  throw new Error('expected parseJsonDocument to throw');
}

function nested(depth: number): string {
  return `${'['.repeat(depth)}${']'.repeat(depth)}`;
}

describe('parseJsonDocument', () => {
  it.each([
    ['an object', '{"a":[1,-2.5e3,true,false,null,"x"]}', { a: [1, -2500, true, false, null, 'x'] }],
    ['surrounding whitespace', ' \t\r\n{}\n ', {}],
    ['escapes', '"\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9"', '"\\/\b\f\n\r\té'],
    ['an escaped NUL, kept as data', '{"a\\u0000b":"\\u0000"}', { 'a\u0000b': '\u0000' }],
    ['a surrogate pair written as two escapes', '"\\ud83d\\ude00"', '😀'],
    ['a raw astral character', '"😀"', '😀'],
    ['the largest double', '1.7976931348623157e308', Number.MAX_VALUE],
    ['an underflowing number, which becomes 0', '1e-400', 0],
    ['a "constructor" key holding a string', '{"constructor":"x"}', { constructor: 'x' }],
  ])('parses %s', (_label, text, expected) => {
    expect(parseJsonDocument(text)).toEqual(expected);
  });

  it('keeps the sign of negative zero', () => {
    expect(Object.is(parseJsonDocument('-0'), -0)).toBe(true);
  });

  it('accepts and strips one byte-order mark, from text and from bytes', () => {
    expect(parseJsonDocument('\uFEFF{"a":1}')).toEqual({ a: 1 });
    expect(parseJsonDocument(new Uint8Array([0xef, 0xbb, 0xbf, ...encoder.encode('{"a":1}')]))).toEqual({ a: 1 });
  });

  it('strips only one byte-order mark', () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, 0xef, 0xbb, 0xbf, ...encoder.encode('{}')]);
    expect(parseError(bytes).position).toEqual({ line: 1, column: 1 });
  });

  it.each([
    ['a trailing comma', '{\n  "a": 1,\n}', 3, 1, 'json.syntax'],
    ['a single-quoted string', "{'a':1}", 1, 2, 'json.syntax'],
    ['a missing colon', '{\n"a" 1}', 2, 5, 'json.syntax'],
    ['an unterminated string', '{"a":"b', 1, 8, 'json.syntax'],
    ['a raw control character in a string', '"a\u0001"', 1, 3, 'json.syntax'],
    ['a bad escape', '"\\x41"', 1, 2, 'json.syntax'],
    ['a short \\u escape', '"\\u12"', 1, 2, 'json.syntax'],
    ['a leading zero', '012', 1, 2, 'json.syntax'],
    ['a bare minus', '-', 1, 1, 'json.syntax'],
    ['NaN', 'NaN', 1, 1, 'json.syntax'],
    ['Infinity as 1e309', '{"a":\n 1e309}', 2, 2, 'json.syntax'],
    ['-1e309', '-1e309', 1, 1, 'json.syntax'],
    ['a 400-digit integer', '9'.repeat(400), 1, 1, 'json.syntax'],
    ['trailing content', '{} {}', 1, 4, 'json.syntax'],
    ['an empty document', '  ', 1, 3, 'json.syntax'],
    ['a comment', '{/* no */}', 1, 2, 'json.syntax'],
    ['a lone high surrogate escape', '{"a":"\\ud800"}', 1, 6, 'json.invalid_unicode'],
    ['a lone low surrogate escape', '"x\\udc00y"', 1, 1, 'json.invalid_unicode'],
    ['a reversed surrogate pair', '"\\ude00\\ud83d"', 1, 1, 'json.invalid_unicode'],
    ['a raw lone surrogate', '"\ud800"', 1, 1, 'json.invalid_unicode'],
    ['a lone surrogate in a key', '{"\\udfff":1}', 1, 2, 'json.invalid_unicode'],
  ])('refuses %s with its line and column', (_label, text, line, column, code) => {
    const error = parseError(text);
    expect(error.issueCode).toBe(code);
    expect(error.position).toEqual({ line, column });
    expect(error.message).toContain(`line ${line}, column ${column}`);
    expect(error.code).toBe('MANIFEST_PARSE_FAILED');
  });

  it.each([
    ['plain text', 'not json', '"not"'],
    ['a misspelt literal', '{"a": nul}', '"nul"'],
    ['a truncated literal', '[tru]', '"tru"'],
  ])('names the unexpected token in %s instead of guessing a literal', (_label, text, token) => {
    const error = parseError(text);
    expect(error.message).toContain(`Unexpected token ${token}: expected a JSON value`);
  });

  it.each([
    ['a duplicate key', '{"a":{"b":1,"b":2}}', '/a/b', 'json.duplicate_key'],
    ['a duplicate key spelled with an escape', '{"ab":1,"a\\u0062":2}', '/ab', 'json.duplicate_key'],
    ['a __proto__ key', '{"tools":[{"__proto__":{"x":1}}]}', '/tools/0/__proto__', 'json.forbidden_key'],
    ['a __proto__ key spelled with escapes', '{"\\u005f_proto__":{}}', '/__proto__', 'json.forbidden_key'],
    ['a constructor key holding an object', '{"a":{"constructor":{"prototype":{}}}}', '/a/constructor', 'json.forbidden_key'],
    ['a constructor key holding an array', '{"constructor":[]}', '/constructor', 'json.forbidden_key'],
    ['a syntax error deep inside', '{"tools":[{"id":"a"},{"id":tru}]}', '/tools/1/id', 'json.syntax'],
    ['a key with / and ~', '{"a/b~c":{"x":1,"x":2}}', '/a~1b~0c/x', 'json.duplicate_key'],
    ['a lone surrogate in an array', '{"d":["ok","\\ud800"]}', '/d/1', 'json.invalid_unicode'],
  ])('refuses %s and points at it', (_label, text, pointer, code) => {
    const error = parseError(text);
    expect(error.issueCode).toBe(code);
    expect(error.pointer).toBe(pointer);
  });

  it('leaves Object.prototype untouched by hostile keys', () => {
    for (const text of ['{"__proto__":{"polluted":1}}', '{"constructor":{"prototype":{"polluted":1}}}', '{"a":{"__proto__":{"polluted":1}}}']) {
      expect(() => parseJsonDocument(text)).toThrow(ManifestParseError);
    }
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(Object.getOwnPropertyNames(Object.prototype)).not.toContain('polluted');
  });

  it('produces plain objects with the ordinary prototype', () => {
    const value = parseJsonDocument('{"a":{"b":1}}') as { a: object };
    expect(Object.getPrototypeOf(value.a)).toBe(Object.prototype);
  });

  describe('size cap', () => {
    const limit = defaultManifestMaxSizeInBytes;
    const exactlyTheLimit = `"${'a'.repeat(limit - 2)}"`;

    it('accepts a document of exactly the default limit (8 MiB) and refuses one byte more', () => {
      expect(limit).toBe(8 * 1024 * 1024);
      expect(parseJsonDocument(exactlyTheLimit)).toHaveLength(limit - 2);
      expect(parseError(`${exactlyTheLimit} `).issueCode).toBe('json.too_large');
      expect(parseError(encoder.encode(`${exactlyTheLimit} `)).issueCode).toBe('json.too_large');
    });

    it('counts UTF-8 bytes, not UTF-16 code units', () => {
      // 3,000,000 euro signs are 3,000,000 code units but 9,000,000 bytes.
      const text = `"${'€'.repeat(3_000_000)}"`;
      expect(text.length).toBeLessThan(limit);
      expect(parseError(text).issueCode).toBe('json.too_large');
    });

    it('measures a short text of multi-byte characters exactly near the limit', () => {
      // 32 euro signs and 3 ASCII characters are 35 code units but 99 bytes of UTF-8.
      const text = `"${'€'.repeat(32)}a"`;
      expect(parseJsonDocument(text, { maxSizeInBytes: 99 })).toBe(`${'€'.repeat(32)}a`);
      expect(parseError(text, { maxSizeInBytes: 98 }).issueCode).toBe('json.too_large');
    });

    it('honours a configured maxSizeInBytes and names the option', () => {
      const error = parseError('{"a":"0123456789"}', { maxSizeInBytes: 10 });
      expect(error.issueCode).toBe('json.too_large');
      expect(error.message).toContain('`maxSizeInBytes`');
      expect(parseJsonDocument('{"a":1}', { maxSizeInBytes: 7 })).toEqual({ a: 1 });
    });
  });

  describe('depth cap', () => {
    it('accepts 64 levels and refuses 65 with a pointer to the deepest container', () => {
      expect(parseJsonDocument(nested(64))).toBeInstanceOf(Array);
      const error = parseError(nested(65));
      expect(error.issueCode).toBe('json.too_deep');
      expect(error.pointer).toBe('/0'.repeat(64));
      expect(error.message).toContain('`maxDepth`');
    });

    it('refuses 100,000 levels quickly and without a stack overflow', () => {
      expect(parseError(nested(100_000)).issueCode).toBe('json.too_deep');
      expect(parseError(`${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`).issueCode).toBe('json.too_deep');
    });

    it('honours a configured maxDepth', () => {
      expect(parseError('[[[]]]', { maxDepth: 2 }).issueCode).toBe('json.too_deep');
      expect(parseJsonDocument(nested(200), { maxDepth: 200 })).toBeInstanceOf(Array);
    });
  });

  it.each([
    ['maxDepth', 0],
    ['maxDepth', 1001],
    ['maxDepth', 1.5],
    ['maxSizeInBytes', -1],
    ['maxSizeInBytes', Number.NaN],
    ['maxSizeInBytes', '100'],
  ])('refuses the option %s = %s with INVALID_OPTION naming it', (name, value) => {
    let caught: unknown;
    try {
      parseJsonDocument('{}', { [name]: value });
    } catch (error) {
      caught = error;
    }
    expect(AicapError.isInstance(caught) && caught.code).toBe('INVALID_OPTION');
    expect((caught as Error).message).toContain(`\`${name}\``);
  });

  it.each([
    ['an invalid byte', new Uint8Array([0x22, 0xff, 0x22])],
    ['a lone continuation byte', new Uint8Array([0x22, 0x80, 0x22])],
    ['an overlong encoding of "/"', new Uint8Array([0x22, 0xc0, 0xaf, 0x22])],
    ['an encoded surrogate', new Uint8Array([0x22, 0xed, 0xa0, 0x80, 0x22])],
    ['a cut multi-byte character', new Uint8Array([0x22, 0xe2, 0x82])],
  ])('refuses bytes that are not UTF-8 (%s) with json.encoding and what to do', (_label, bytes) => {
    const error = parseError(bytes);
    expect(error.issueCode).toBe('json.encoding');
    expect(error.message).toMatch(/Serve the manifest as UTF-8/);
  });

  it.each<[unknown, string]>([
    [null, 'null'],
    [undefined, 'undefined'],
    [42, 'number'],
    [[1, 2], 'an array'],
    [{ a: 1 }, 'object'],
  ])('refuses %j as input with json.input_type saying what it got', (input, described) => {
    const error = parseError(input as string);
    expect(error.issueCode).toBe('json.input_type');
    expect(error.message).toContain(`got ${described}`);
  });
});

describe('readJsonDocument', () => {
  it.each<[string, string | Uint8Array, boolean, boolean]>([
    ['canonical text', '{"a":1,"b":[true,null]}', true, true],
    ['members in order, with spaces', '{ "a": 1, "b": 2 }', true, false],
    ['members out of order', '{"b":1,"a":2}', false, false],
    ['canonical bytes', encoder.encode('{"a":"é"}'), true, true],
    ['canonical text after a byte-order mark', '\uFEFF{"a":1}', true, false],
    // The engine enumerates index-like names first whatever their order in the text: the text is not the canonical one.
    ['index-like names written out of order', '{"1":1,"0":2}', true, false],
  ])('reports what it saw of %s', (_label, input, membersInOrder, textIsCanonical) => {
    const reading = readJsonDocument(input);
    expect({ membersInOrder: reading.membersInOrder, textIsCanonical: reading.textIsCanonical }).toEqual({ membersInOrder, textIsCanonical });
  });
});
