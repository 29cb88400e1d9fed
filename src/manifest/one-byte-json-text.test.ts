import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson, digestManifest, digestParsedBody } from './digest-manifest.js';
import { oneByteJsonText } from './one-byte-json-text.js';
import { parseJsonDocument, readJsonDocument } from './parse-json-document.js';

const encode = (text: string): Uint8Array => new TextEncoder().encode(text);
const isOneByte = (text: string): boolean => [...text].every((character) => character.charCodeAt(0) <= 0xff);

describe('oneByteJsonText', () => {
  it('gives ASCII bytes as they are', () => {
    expect(oneByteJsonText(encode('{"a":[1,"b"]}'))).toEqual({ text: '{"a":[1,"b"]}', insertedEscapes: 0, trailingSpaces: 0, mayHoldSurrogateEscape: false });
  });

  it('escapes every UTF-16 code unit of the other characters, so the text holds one-byte characters only', () => {
    const padding = 'x'.repeat(400);
    const read = oneByteJsonText(encode(`{"a":"“quoted” café 😀","b":"${padding}"}`))!;
    expect(read.text).toBe(`{"a":"\\u201cquoted\\u201d caf\\u00e9 \\ud83d\\ude00","b":"${padding}"}`);
    expect(read).toMatchObject({ insertedEscapes: 5, mayHoldSurrogateEscape: true });
    // Escapes inside the Basic Multilingual Plane write no surrogate; one in the bytes may.
    expect(oneByteJsonText(encode(`["“x”","${padding}"]`))).toMatchObject({ insertedEscapes: 2, mayHoldSurrogateEscape: false });
    expect(oneByteJsonText(encode(`["“x”","\\u0041${padding}"]`))).toMatchObject({ insertedEscapes: 2, mayHoldSurrogateEscape: true });
    expect(JSON.parse(read.text)).toEqual({ a: '“quoted” café 😀', b: padding });
  });

  it('finds characters anywhere, across the chunks and the slices of a chunk it checks at once', () => {
    for (const at of [0, 60, 61, 62, 63, 64, 125, 4093, 4094, 4095, 4096, 4156, 8191, 10_000]) {
      const text = `["${'x'.repeat(at)}é—","${'y'.repeat(5000)}"]`;
      const read = oneByteJsonText(encode(text))!;
      expect(isOneByte(read.text)).toBe(true);
      expect(JSON.parse(read.text)).toEqual(JSON.parse(text));
    }
  });

  it('leaves a byte-order mark, bytes that are not UTF-8 and mostly non-ASCII text to the decoder', () => {
    expect(oneByteJsonText(Uint8Array.from([0xef, 0xbb, 0xbf, 0x7b, 0x7d]))).toBeUndefined();
    expect(oneByteJsonText(Uint8Array.from([0x22, 0xed, 0xa0, 0x80, 0x22]))).toBeUndefined();
    expect(oneByteJsonText(Uint8Array.from([0x22, 0x61, 0xc3, 0x22]))).toBeUndefined();
    expect(oneByteJsonText(encode(`"${'日本語'.repeat(100)}"`))).toBeUndefined();
  });

  it('gives text of the same value as the decoded bytes (property)', () => {
    fc.assert(
      fc.property(fc.oneof(fc.json({ stringUnit: 'grapheme' }), fc.json({ stringUnit: 'binary' })), fc.string({ unit: 'grapheme', maxLength: 3 }), (json, padding) => {
        // Mostly ASCII, as manifests are, with a few other characters inside strings (and outside, which is no JSON either way).
        const text = `[${JSON.stringify('x'.repeat(400) + padding)},${json}]`;
        const bytes = encode(text);
        const read = oneByteJsonText(bytes);
        if (read === undefined) return;
        expect(isOneByte(read.text)).toBe(true);
        expect(JSON.parse(read.text)).toEqual(JSON.parse(text));
      }),
      { numRuns: 500 },
    );
  });
});

describe('readJsonDocument of bytes with non-ASCII characters', () => {
  it('reads texts of every size the same, those it pads with spaces included', () => {
    for (const size of [300_000, 1_000_000, 1_100_000]) {
      for (const extra of ['', '“x”']) {
        const value = { a: extra, b: 'y'.repeat(size) };
        const body = encode(canonicalJson(value));
        const read = oneByteJsonText(body)!;
        expect(read.text.trimEnd().length + read.trailingSpaces).toBe(read.text.length);
        expect(readJsonDocument(body)).toMatchObject({ value, textIsCanonical: true });
        // Spaces the bytes have themselves still make them another text than the canonical one.
        expect(readJsonDocument(encode(`${canonicalJson(value)} `))).toMatchObject({ value, textIsCanonical: false });
      }
    }
  });

  it('still sees canonical bytes as canonical, so their digest is their hash', () => {
    const value = { b: ['“quoted”', 'é'], a: { x: '😀' }, c: 'x'.repeat(400) };
    const body = encode(canonicalJson(value));
    const reading = readJsonDocument(body);
    expect(reading).toMatchObject({ value, membersInOrder: true, textIsCanonical: true });
    expect(digestParsedBody(body, reading)).toBe(digestManifest(value));
    // The same value with an escape the bytes wrote themselves is not their canonical text.
    expect(readJsonDocument(encode(canonicalJson(value).replace('😀', '\\ud83d\\ude00')))).toMatchObject({ value, textIsCanonical: false });
  });

  it('refuses a lone surrogate written as an escape beside characters it escapes itself', () => {
    expect(() => parseJsonDocument(encode(`["“x”","\\udc00${'y'.repeat(400)}"]`))).toThrow(/lone UTF-16 surrogate/);
    expect(parseJsonDocument(encode(`["“x😀”","\\ud83d\\ude00${'y'.repeat(400)}"]`))).toEqual(['“x😀”', `😀${'y'.repeat(400)}`]);
  });

  it('names the problem of a document with a character outside its strings as before', () => {
    expect(() => parseJsonDocument(encode('{"a":1,é:2}'))).toThrow(/line 1, column 8/);
    expect(() => parseJsonDocument(encode('{"a":"é","a":2}'))).toThrow(/duplicate/i);
  });
});
