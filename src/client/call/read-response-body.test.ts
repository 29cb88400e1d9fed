import { describe, expect, it } from 'vitest';
import { AicapError } from '../../errors/aicap-error.js';
import { readBodyBytes } from '../fetch/read-body-bytes.js';
import { decodeResponseBody } from './read-response-body.js';

const MAX_SIZE_IN_BYTES = 1000;
const encode = (text: string): Uint8Array => new TextEncoder().encode(text);
const decode = (text: string, contentType: string | null): ReturnType<typeof decodeResponseBody> => decodeResponseBody(encode(text), contentType, MAX_SIZE_IN_BYTES);

function streamOf(chunks: string[]): { body: ReadableStream<Uint8Array>; pulled: () => number } {
  let index = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (index >= chunks.length) return controller.close();
      controller.enqueue(encode(chunks[index++]!));
    },
  });
  return { body, pulled: () => index };
}

describe('decodeResponseBody', () => {
  it.each([
    ['application/json; charset=utf-8', '{"a":1}', { a: 1 }],
    ['application/problem+json', '{"type":"x"}', { type: 'x' }],
    ['text/plain', 'hello', 'hello'],
    [null, 'no type', 'no type'],
    ['application/json', '{"a":', '{"a":'],
  ])('decodes %j', (contentType, text, data) => {
    expect(decode(text, contentType).data).toEqual(data);
  });

  it.each([
    ['a __proto__ key', '{"__proto__":{"x":1}}'],
    ['an escaped __proto__ key', '{"\\u005f_proto__":{"x":1}}'],
    ['a constructor holding an object', '{"constructor":{"prototype":{"x":1}}}'],
    ['nesting deeper than 64 levels', `${'['.repeat(65)}${']'.repeat(65)}`],
    ['nesting deeper than 64 levels after many shallow objects', `[${'{},'.repeat(100)}${'['.repeat(65)}${']'.repeat(65)}]`],
  ])('refuses %s in JSON, keeping the raw text', (_case, text) => {
    const result = decode(text, 'application/json');
    expect(result.data).toBe(text);
    expect(result.parseError).toBeDefined();
    expect(({} as Record<string, unknown>)['x']).toBeUndefined();
  });

  it('parses JSON with brackets and quotes inside strings, 64 levels deep, and a repeated key (the last wins)', () => {
    const nested = `${'['.repeat(63)}"[[{\\"x"${']'.repeat(63)}`;
    expect(decode(`[${'{"a":"[[["},'.repeat(100)}${nested}]`, 'application/json').parseError).toBeUndefined();
    const result = decode(`{"a":1,"a":2,"deep":${nested}}`, 'application/json');
    expect(result.parseError).toBeUndefined();
    expect((result.data as { a: number }).a).toBe(2);
    expect(decode('{"constructor":"Ada"}', 'application/json').data).toEqual({ constructor: 'Ada' });
  });

  it('describes binary content and handles empty bodies', () => {
    expect(decodeResponseBody(new Uint8Array([1, 2, 3]), 'application/pdf', MAX_SIZE_IN_BYTES).data).toEqual({ binary: true, mediaType: 'application/pdf', sizeInBytes: 3 });
    expect(decodeResponseBody(new Uint8Array(0), 'application/json', MAX_SIZE_IN_BYTES).data).toBeUndefined();
  });
});

describe('readBodyBytes', () => {
  const tooLarge = (): AicapError => new AicapError('RESPONSE_TOO_LARGE', 'too large');

  it('reads every chunk under the cap', async () => {
    const { body } = streamOf(['0123456789', 'abcdef']);
    expect(new TextDecoder().decode(await readBodyBytes(new Response(body), 16, tooLarge))).toBe('0123456789abcdef');
  });

  it('stops reading as soon as the cap is passed', async () => {
    const { body, pulled } = streamOf(['0123456789', '0123456789', '0123456789', '0123456789']);
    await expect(readBodyBytes(new Response(body), 16, tooLarge)).rejects.toMatchObject({ code: 'RESPONSE_TOO_LARGE' });
    expect(pulled()).toBeLessThanOrEqual(3);
  });

  it('fails before reading when an honest Content-Length is over the cap', async () => {
    const { body, pulled } = streamOf(['x']);
    await expect(readBodyBytes(new Response(body, { headers: { 'content-length': '1000' } }), 16, tooLarge)).rejects.toMatchObject({ code: 'RESPONSE_TOO_LARGE' });
    expect(pulled()).toBe(0);
  });

  it('reads a bodiless response as no bytes', async () => {
    expect((await readBodyBytes(new Response(null, { status: 204 }), 16, tooLarge)).byteLength).toBe(0);
  });
});
