import { describe, expect, it } from 'vitest';
import { AicapError } from '../errors/aicap-error.js';
import { ManifestParseError } from '../errors/manifest-parse-error.js';
import { DEFAULT_MAX_DEPTH, parseJsonDocument, readJsonDocument, type ParseJsonOptions } from './parse-json-document.js';

// The entry every untrusted JSON document goes through: what it refuses, with which issue code and
// JSON Pointer, whichever of its two readers (the engine's parser checked, or the strict one) saw
// the text. The readers' own grammar is tested beside them.

const encode = (text: string): Uint8Array => new TextEncoder().encode(text);

function parseError(input: string | Uint8Array, options?: ParseJsonOptions): ManifestParseError {
  try {
    parseJsonDocument(input, options);
  } catch (error) {
    if (error instanceof ManifestParseError) return error;
    throw new Error(`expected a ManifestParseError, got ${String(error)}`, { cause: error });
  }
  throw new Error('expected a ManifestParseError, got a value');
}

describe('parseJsonDocument: hostile documents', () => {
  it.each<[string, string, string, string | undefined]>([
    ['a __proto__ key', '{"tools":[{"id":"a","__proto__":{"polluted":true}}]}', 'json.forbidden_key', '/tools/0/__proto__'],
    ['an escaped __proto__ key', '{"a":{"\\u005f_proto__":1}}', 'json.forbidden_key', '/a/__proto__'],
    ['a constructor holding an object', '{"x":{"constructor":{"prototype":{}}}}', 'json.forbidden_key', '/x/constructor'],
    ['a duplicate key, reported at the second one', '{"service":{"name":"a","name":"b"}}', 'json.duplicate_key', '/service/name'],
    ['a duplicate key written with an escape', '{"a":1,"\\u0061":2}', 'json.duplicate_key', '/a'],
    ['a lone surrogate', '{"d":["ok","\\ud800"]}', 'json.invalid_unicode', '/d/1'],
    ['a number beyond a double', '{"n":[1,1e400]}', 'json.syntax', undefined],
    ['a key holding "/" and "~"', '{"a/b":{"c~d":{"e":1,"e":2}}}', 'json.duplicate_key', '/a~1b/c~0d/e'],
  ])('refuses %s with %s at the pointer of the fault', (_, text, issueCode, pointer) => {
    const error = parseError(text);
    expect(error.code).toBe('MANIFEST_PARSE_FAILED');
    expect(error.issueCode).toBe(issueCode);
    if (pointer !== undefined) expect(error.pointer).toBe(pointer);
    expect(error.position?.line).toBeGreaterThanOrEqual(1);
  });

  it('leaves Object.prototype untouched by a __proto__ document', () => {
    parseError('{"__proto__":{"polluted":true}}');
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('accepts a constructor key holding a plain value, as ordinary data', () => {
    expect(parseJsonDocument('{"constructor":"Widget"}')).toEqual({ constructor: 'Widget' });
  });

  it('names the line and column of a syntax error several lines in', () => {
    const error = parseError('{\n  "a": 1,\n  "b": tru\n}');
    expect(error.issueCode).toBe('json.syntax');
    expect(error.position).toEqual({ line: 3, column: expect.any(Number) });
  });

  it.each([
    ['at the default depth', DEFAULT_MAX_DEPTH, undefined],
    ['at a depth given', 5, { maxDepth: 5 }],
  ])('allows exactly the depth %s and refuses one more level, at its pointer', (_, depth, options) => {
    const nested = (levels: number): string => '['.repeat(levels) + ']'.repeat(levels);
    expect(() => parseJsonDocument(nested(depth), options)).not.toThrow();
    const error = parseError(nested(depth + 1), options);
    expect(error.issueCode).toBe('json.too_deep');
    expect(error.pointer).toBe('/0'.repeat(depth));
  });

  it('refuses 100,000 nested arrays with a typed error, not a stack overflow', () => {
    const error = parseError('['.repeat(100_000) + ']'.repeat(100_000), { maxSizeInBytes: 1_000_000 });
    expect(error.issueCode).toBe('json.too_deep');
  });
});

describe('parseJsonDocument: size', () => {
  it.each<[string, string | Uint8Array]>([
    ['a string one byte over', `"${'a'.repeat(99)}"`],
    ['bytes one byte over', encode(`"${'a'.repeat(99)}"`)],
    // 34 three-byte characters are 102 bytes of UTF-8 in a string of 36 code units.
    ['a short string of multi-byte characters', `"${'€'.repeat(34)}"`],
  ])('refuses %s with json.too_large naming the option', (_, input) => {
    const error = parseError(input, { maxSizeInBytes: 100 });
    expect(error.issueCode).toBe('json.too_large');
    expect(error.message).toContain('100 bytes');
    expect(error.message).toContain('maxSizeInBytes');
  });

  it('accepts a document of exactly the limit, counted in UTF-8 bytes', () => {
    const text = `"${'€'.repeat(32)}a"`;
    expect(Buffer.byteLength(text)).toBe(99);
    expect(parseJsonDocument(text, { maxSizeInBytes: 99 })).toBe(`${'€'.repeat(32)}a`);
  });
});

describe('parseJsonDocument: encoding and input', () => {
  it('strips exactly one byte-order mark, from a string or from bytes', () => {
    expect(parseJsonDocument('\uFEFF{"a":1}')).toEqual({ a: 1 });
    expect(parseJsonDocument(new Uint8Array([0xef, 0xbb, 0xbf, ...encode('{"a":1}')]))).toEqual({ a: 1 });
    expect(parseError('\uFEFF\uFEFF{"a":1}').issueCode).toBe('json.syntax');
  });

  it.each([
    ['a lone continuation byte', new Uint8Array([0x22, 0x80, 0x22])],
    ['an overlong encoding of "/"', new Uint8Array([0x22, 0xc0, 0xaf, 0x22])],
    ['an encoded surrogate', new Uint8Array([0x22, 0xed, 0xa0, 0x80, 0x22])],
    ['a cut multi-byte character', new Uint8Array([0x22, 0xe2, 0x82])],
  ])('refuses bytes that are not UTF-8 (%s) with json.encoding and what to do', (_, bytes) => {
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

  it('reads text with raw control characters only where JSON allows them (between tokens)', () => {
    expect(parseJsonDocument('{\t"a"\r\n:\n1}')).toEqual({ a: 1 });
    expect(parseError('{"a":"x\u0007y"}').issueCode).toBe('json.syntax');
  });
});

describe('parseJsonDocument: options', () => {
  it.each<[ParseJsonOptions, string]>([
    [{ maxSizeInBytes: 0 }, 'maxSizeInBytes'],
    [{ maxSizeInBytes: 1.5 }, 'maxSizeInBytes'],
    [{ maxSizeInBytes: '100' as never }, 'maxSizeInBytes'],
    [{ maxDepth: 0 }, 'maxDepth'],
    [{ maxDepth: 1001 }, 'maxDepth'],
    [{ maxDepth: Number.NaN }, 'maxDepth'],
  ])('refuses %j with INVALID_OPTION naming %s, before reading anything', (options, name) => {
    let thrown: unknown;
    try {
      parseJsonDocument('{}', options);
    } catch (error) {
      thrown = error;
    }
    expect(AicapError.isInstance(thrown) && thrown.code).toBe('INVALID_OPTION');
    expect(thrown).not.toBeInstanceOf(ManifestParseError);
    expect((thrown as Error).message).toContain(name);
  });
});

describe('readJsonDocument', () => {
  it.each<[string, string | Uint8Array, boolean, boolean]>([
    ['canonical text', '{"a":1,"b":[true,null]}', true, true],
    ['members in order, with spaces', '{ "a": 1, "b": 2 }', true, false],
    ['members out of order', '{"b":1,"a":2}', false, false],
    ['canonical bytes', encode('{"a":"é"}'), true, true],
    ['canonical text after a byte-order mark', '\uFEFF{"a":1}', true, false],
    // The engine enumerates index-like names first whatever their order in the text: the text is not the canonical one.
    ['index-like names written out of order', '{"1":1,"0":2}', true, false],
  ])('reports what it saw of %s', (_, input, membersInOrder, textIsCanonical) => {
    const reading = readJsonDocument(input);
    expect({ membersInOrder: reading.membersInOrder, textIsCanonical: reading.textIsCanonical }).toEqual({ membersInOrder, textIsCanonical });
  });
});
