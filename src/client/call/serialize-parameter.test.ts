import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { serialiseCookieParameter, serialiseHeaderParameter, serialisePathParameter, serialiseQueryParameter, UnserialisableValueError, type Serialisation } from './serialize-parameter.js';

// The values of OpenAPI 3.1's style examples (§4.8.12.4.2), and what each style writes for them.
const blue = 'blue';
const colours = ['blue', 'black', 'brown'];
const rgb = { R: 100, G: 200, B: 150 };
const query = (value: unknown, serialisation: Serialisation): string =>
  serialiseQueryParameter('color', value, serialisation)
    .map(([name, text]) => `${name}=${text}`)
    .join('&');

describe('path parameters (OpenAPI simple, label, matrix; RFC 6570)', () => {
  it.each([
    ['simple', false, '', 'blue', 'blue,black,brown', 'R,100,G,200,B,150'],
    ['simple', true, '', 'blue', 'blue,black,brown', 'R=100,G=200,B=150'],
    ['label', false, '.', '.blue', '.blue,black,brown', '.R,100,G,200,B,150'],
    ['label', true, '.', '.blue', '.blue.black.brown', '.R=100.G=200.B=150'],
    ['matrix', false, ';color', ';color=blue', ';color=blue,black,brown', ';color=R,100,G,200,B,150'],
    ['matrix', true, ';color', ';color=blue', ';color=blue;color=black;color=brown', ';R=100;G=200;B=150'],
  ] as const)('%s, explode %s', (style, explode, empty, primitive, array, object) => {
    const serialisation = { style, explode };
    expect([
      serialisePathParameter('color', '', serialisation),
      serialisePathParameter('color', blue, serialisation),
      serialisePathParameter('color', colours, serialisation),
      serialisePathParameter('color', rgb, serialisation),
    ]).toEqual([empty, primitive, array, object]);
  });

  it('percent-encodes every reserved character of a value, keeping the delimiters', () => {
    expect(serialisePathParameter('id', ['a/b', 'c d', 'e,f'], { style: 'simple', explode: false })).toBe('a%2Fb,c%20d,e%2Cf');
  });

  it('refuses a nested value, which no path style defines', () => {
    expect(() => serialisePathParameter('id', [{ a: 1 }], { style: 'simple', explode: false })).toThrow(UnserialisableValueError);
  });
});

describe('query parameters (OpenAPI form, spaceDelimited, pipeDelimited, deepObject)', () => {
  it.each([
    ['form', false, 'color=blue', 'color=blue,black,brown', 'color=R,100,G,200,B,150'],
    ['form', true, 'color=blue', 'color=blue&color=black&color=brown', 'R=100&G=200&B=150'],
    ['spaceDelimited', false, 'color=blue', 'color=blue%20black%20brown', 'color=R%20100%20G%20200%20B%20150'],
    ['pipeDelimited', false, 'color=blue', 'color=blue|black|brown', 'color=R|100|G|200|B|150'],
    ['deepObject', true, 'color=blue', 'color[0]=blue&color[1]=black&color[2]=brown', 'color[R]=100&color[G]=200&color[B]=150'],
  ] as const)('%s, explode %s', (style, explode, primitive, array, object) => {
    const serialisation = { style, explode };
    expect([query(blue, serialisation), query(colours, serialisation), query(rgb, serialisation)]).toEqual([primitive, array, object]);
  });

  it('writes an empty value for a primitive and a non-exploded empty list, as the table does', () => {
    expect(query('', { style: 'form', explode: true })).toBe('color=');
    expect(query([], { style: 'form', explode: false })).toBe('color=');
  });

  it('refuses an empty array or object that an exploded or deepObject style would make vanish', () => {
    for (const [value, style, explode] of [
      [[], 'form', true],
      [{}, 'form', true],
      [[], 'deepObject', true],
      [{}, 'deepObject', true],
      [{ a: [] }, 'deepObject', true],
    ] as const) {
      expect(() => query(value, { style, explode }), JSON.stringify(value)).toThrow(/empty (array|object)/);
    }
  });

  it('writes nested objects and arrays of objects with bracket names (Stripe), never as JSON text', () => {
    expect(query({ gt: 1, nested: { a: 'x y' } }, { style: 'deepObject', explode: true })).toBe('color[gt]=1&color[nested][a]=x%20y');
    expect(query([{ price: 'p_1', quantity: 2 }], { style: 'deepObject', explode: true })).toBe('color[0][price]=p_1&color[0][quantity]=2');
    // OpenAPI defines no form rendering for an array of objects: brackets rather than JSON text.
    expect(query([{ a: 1 }], { style: 'form', explode: true })).toBe('color[0][a]=1');
  });

  it('encodes spaces as %20 and reserved characters, unless allow_reserved keeps those that do not split the query', () => {
    expect(query('a b/c?d&e=f+g#h', { style: 'form', explode: true })).toBe('color=a%20b%2Fc%3Fd%26e%3Df%2Bg%23h');
    expect(query('a b/c?d&e=f+g#h', { style: 'form', explode: true, allowReserved: true })).toBe('color=a%20b/c?d%26e%3Df%2Bg%23h');
  });

  it('property: a deepObject value comes back from its decoded bracket pairs, leaf for leaf', () => {
    const key = fc.string({ minLength: 1, maxLength: 6 }).filter((text) => !/[[\]]/.test(text));
    const leaf = fc.oneof(fc.string({ maxLength: 8 }), fc.integer(), fc.boolean());
    const tree = fc.letrec((tie) => ({ node: fc.oneof({ depthSize: 'small' }, leaf, fc.dictionary(key, tie('node'), { minKeys: 1, maxKeys: 3 })) })).node;
    fc.assert(
      fc.property(fc.dictionary(key, tree, { minKeys: 1, maxKeys: 4 }), (value) => {
        const rebuilt: Record<string, unknown> = {};
        for (const [name, text] of serialiseQueryParameter('q', value, { style: 'deepObject', explode: true })) {
          const path = [...name.matchAll(/\[([^\]]*)\]/g)].map((match) => decodeURIComponent(match[1]!));
          let node = rebuilt;
          for (const part of path.slice(0, -1)) node = (node[part] ??= {}) as Record<string, unknown>;
          node[path.at(-1)!] = decodeURIComponent(text);
        }
        const asText = (node: unknown): unknown => (typeof node === 'object' && node !== null ? Object.fromEntries(Object.entries(node).map(([k, v]) => [k, asText(v)])) : String(node));
        expect(rebuilt).toEqual(asText(value));
      }),
      { numRuns: 200, seed: 37 },
    );
  });
});

describe('header and cookie parameters', () => {
  it('writes headers in the simple style, not percent-encoded', () => {
    expect(serialiseHeaderParameter(colours, { style: 'simple', explode: false })).toBe('blue,black,brown');
    expect(serialiseHeaderParameter(rgb, { style: 'simple', explode: true })).toBe('R=100,G=200,B=150');
    expect(serialiseHeaderParameter('a b', { style: 'simple', explode: false })).toBe('a b');
  });

  it('writes cookies in the form style', () => {
    expect(serialiseCookieParameter('color', colours, { style: 'form', explode: false })).toEqual([['color', 'blue,black,brown']]);
    expect(serialiseCookieParameter('color', colours, { style: 'form', explode: true })).toEqual([
      ['color', 'blue'],
      ['color', 'black'],
      ['color', 'brown'],
    ]);
    expect(() => serialiseCookieParameter('color', { a: { b: 1 } }, { style: 'form', explode: true })).toThrow(UnserialisableValueError);
  });
});
