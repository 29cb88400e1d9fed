import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseJsonDocument } from './parse-json-document.js';
import { parseJsonFast } from './parse-json-fast.js';
import { StrictJsonParser } from './strict-json-parser.js';

/** What the strict parser alone makes of a text: its value as canonical text, or its message. */
function strictOutcome(text: string, maxDepth: number): { value: string } | { error: string } {
  try {
    return { value: JSON.stringify(new StrictJsonParser(text, maxDepth).parseDocument()) };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

function documentOutcome(text: string, maxDepth: number): { value: string } | { error: string } {
  try {
    return { value: JSON.stringify(parseJsonDocument(text, { maxDepth, maxSizeInBytes: 10_000_000 })) };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

// Edits that turn valid JSON into something the strict parser refuses, or that test the member count.
const mutations: Array<(text: string) => string> = [
  (text) => text,
  (text) => text.replace('{', '{"__proto__":1,'),
  (text) => text.replace(/\{"([^"\\]*)":/, '{"$1":0,"$1":'),
  (text) => text.replace('{', '{"constructor":{},'),
  (text) => text.replace('{', '{"constructor":"fine",'),
  (text) => text.replace('"', '"\\ud800'),
  (text) => text.replace('"', '"\\ud83d\\ude00:\\":'),
  (text) => text.replace('[', '[1e400,'),
  (text) => text.replace('{', '{":":":" , "k" : ":",'),
  (text) => text.replace('{', '{"a\\u003a":"\\u003A","a:":1,'),
  (text) => text.replace('{', '{"a\\u003a":1,"a:":1,'),
  (text) => text.replace(/,/, ',,'),
  (text) => `[[[[[[${text}]]]]]]`,
];

describe('parseJsonFast', () => {
  it("gives the strict parser's value or error for random and mutated JSON (property)", () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.json(), fc.json({ stringUnit: 'binary' }), fc.json({ stringUnit: 'grapheme' })),
        fc.integer({ min: 0, max: mutations.length - 1 }),
        fc.integer({ min: 1, max: 8 }),
        (json, mutation, maxDepth) => {
          const text = mutations[mutation]!(json);
          expect(documentOutcome(text, maxDepth)).toEqual(strictOutcome(text, maxDepth));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('refuses what JSON.parse accepts but the strict checks do not', () => {
    for (const text of ['{"a":1,"a":2}', '{"__proto__":{}}', '{"constructor":[]}', '[1e999]', '"\\udc00"', '{"x":{"y":{}}}', '{"a":"\\":","a":1}']) {
      expect(parseJsonFast(text, 2)).toBeUndefined();
    }
    // Duplicates in texts otherwise canonical, whose members are not counted: the member dropped makes them longer than the value's canonical text.
    for (const text of ['{"a":0,"a":0}', '{"a":"","b":{"c":[]},"b":{"c":[]}}', '{"a":"\\n","a":"\\n"}']) expect(parseJsonFast(text, 4)).toBeUndefined();
    expect(parseJsonFast('{"a":"\\u201c","a":"\\u201c"}', 4, { insertedEscapes: 2 })).toBeUndefined();
  });

  it('checks for lone surrogates in text decoded from UTF-8 only where an escape can write one', () => {
    expect(parseJsonFast('{"a":"\\ud800"}', 64, { decodedFromUtf8: true })).toBeUndefined();
    expect(parseJsonFast('{"a":"\\ud83d\\ude00"}', 64, { decodedFromUtf8: true })?.value).toEqual({ a: '\u{1F600}' });
    // Raw in a string given as text; the strict decoder refuses the UTF-8 bytes that would encode one.
    expect(parseJsonFast('{"a":"\ud800"}', 64)).toBeUndefined();
    expect(() => parseJsonDocument(Uint8Array.from([0x22, 0xed, 0xa0, 0x80, 0x22]))).toThrow(/not valid UTF-8/);
    expect(() => parseJsonDocument(new TextEncoder().encode('{"a":"\\udc00"}'))).toThrow(/lone UTF-16 surrogate/);
  });

  it('accepts names and values holding quotes, colons and escapes', () => {
    expect(parseJsonFast('{"a\\":b":":","c":"\\\\","d":[":",{"e:":"\\u0022:"}]}', 64)?.value).toEqual({ 'a":b': ':', c: '\\', d: [':', { 'e:': '":' }] });
  });

  it('says whether every object lists its members in canonical order, and when the text is the canonical one', () => {
    expect(parseJsonFast('{"a":{"x":1,"y":[{"b":2,"c":3}]},"b":true}', 64)).toMatchObject({ membersInOrder: true, textIsCanonical: true });
    // Every kind of token, empty containers and two-character escapes (the canonical text writes them so).
    expect(parseJsonFast('{"a":[true,false,null,{},[],"",-1.5,0],"b":"x\\ny\\"z\\\\"}', 64)).toMatchObject({ textIsCanonical: true });
    // A `u` or a `/` after an escaped backslash is text, not a `\u` or `\/` escape.
    expect(parseJsonFast('{"a":"C:\\\\users\\\\/x"}', 64)).toMatchObject({ value: { a: 'C:\\users\\/x' }, textIsCanonical: true });
    // In order, but longer than the canonical text somewhere: a space, `\/`, `-0`, a trailing zero, `.0`.
    for (const text of ['{"a": 1}', '{"a":[1 ]}', '{"a":"\\/"}', '{"a":-0}', '{"a":1.50}', '{"a":2.0}', '{"a":"b"} ']) {
      expect(parseJsonFast(text, 64)).toMatchObject({ membersInOrder: true, textIsCanonical: false });
    }
    // One object out of order, deep inside, is enough.
    expect(parseJsonFast('{"a":{"x":1,"y":[{"c":2,"b":3}]},"b":true}', 64)).toMatchObject({ membersInOrder: false, textIsCanonical: false });
    // In order, but not vouched for: an escape, an exponent, digits past a double's, an array index beside another member.
    for (const text of ['{"a":"\\u0041"}', '{"a":1e2}', '{"a":[0, 1E-7]}', '{"a":12345678901234567890}', '{"a":0.1234567890123456}', '{"0":1,"a":2}']) {
      expect(parseJsonFast(text, 64)).toMatchObject({ membersInOrder: true, textIsCanonical: false });
    }
    expect(parseJsonFast('{"0":{"1":2},"a":[1.5,-3,123456789012.345]}', 64)).toMatchObject({ textIsCanonical: false });
    // An array index written after another name is listed first, out of the text's order; a numeral past the indices keeps its place.
    expect(parseJsonFast('{"!":1,"5":2}', 64)).toMatchObject({ membersInOrder: false, textIsCanonical: false });
    expect(parseJsonFast('{"!":1,"4294967295":2}', 64)).toMatchObject({ membersInOrder: true, textIsCanonical: true });
    // Escapes written for characters the bytes had as themselves count as those characters, and only they.
    expect(parseJsonFast('{"a":"\\u201cx\\u201d"}', 64, { insertedEscapes: 2 })).toMatchObject({ textIsCanonical: true });
    expect(parseJsonFast('{"a":"\\u201cx\\u201d"}', 64, { insertedEscapes: 1 })).toMatchObject({ textIsCanonical: false });
    expect(parseJsonFast('{"a":"\\u201c\\/"}', 64, { insertedEscapes: 1 })).toMatchObject({ textIsCanonical: false });
    expect(parseJsonFast('{"a":{"1":2},"b":[1.5,-3,123456789012.345]}', 64)).toMatchObject({ textIsCanonical: true });
    // An exponent after spaces, a sign or a decimal point is still an exponent; digits and an "e" in a string are text.
    for (const text of ['{"a":[1, \n-2.5E3]}', '{"a":[5,1e3]}', '{"a": 1e3}']) expect(parseJsonFast(text, 64)).toMatchObject({ textIsCanonical: false });
    expect(parseJsonFast('{"a":"695e2e4","b":[1,"x1e3"]}', 64)).toMatchObject({ textIsCanonical: true });
  });
});
