import { describe, expect, it } from 'vitest';
import { mediaTypeOf, readResponseBody } from './read-response-body.js';

const options = { maxSizeInBytes: 16, option: 'response.maxSizeInBytes', method: 'GET', displayUrl: 'https://api.example.com/x' };

function streamOf(chunks: string[]): { body: ReadableStream<Uint8Array>; pulled: () => number } {
  let index = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (index >= chunks.length) return controller.close();
      controller.enqueue(new TextEncoder().encode(chunks[index++]));
    },
  });
  return { body, pulled: () => index };
}

describe('readResponseBody', () => {
  it.each([
    ['application/json; charset=utf-8', '{"a":1}', { a: 1 }],
    ['application/problem+json', '{"type":"x"}', { type: 'x' }],
    ['text/plain', 'hello', 'hello'],
    ['', 'no type', 'no type'],
    ['application/json', '{"a":', '{"a":'],
  ])('decodes %j', async (contentType, text, data) => {
    const result = await readResponseBody(new Response(text, { headers: contentType ? { 'content-type': contentType } : {} }), options);
    expect(result.data).toEqual(data);
  });

  it('refuses duplicate keys and __proto__ in JSON, keeping the raw text', async () => {
    const result = await readResponseBody(new Response('{"__proto__":{"x":1}}', { headers: { 'content-type': 'application/json' } }), { ...options, maxSizeInBytes: 100 });
    expect(result.data).toBe('{"__proto__":{"x":1}}');
    expect(result.parseError).toBeDefined();
    expect(({} as Record<string, unknown>)['x']).toBeUndefined();
  });

  it('stops reading as soon as the cap is passed', async () => {
    const { body, pulled } = streamOf(['0123456789', '0123456789', '0123456789', '0123456789']);
    await expect(readResponseBody(new Response(body), options)).rejects.toMatchObject({ code: 'RESPONSE_TOO_LARGE' });
    expect(pulled()).toBeLessThanOrEqual(3);
  });

  it('fails before reading when an honest Content-Length is over the cap', async () => {
    const { body, pulled } = streamOf(['x']);
    const response = new Response(body, { headers: { 'content-length': '1000' } });
    await expect(readResponseBody(response, options)).rejects.toThrow(/`response.maxSizeInBytes`/);
    expect(pulled()).toBe(0);
  });

  it('describes binary content and handles empty bodies', async () => {
    expect((await readResponseBody(new Response(new Uint8Array([1, 2, 3]), { headers: { 'content-type': 'application/pdf' } }), options)).data).toEqual({ binary: true, mediaType: 'application/pdf', sizeInBytes: 3 });
    expect((await readResponseBody(new Response(null, { status: 204 }), options)).data).toBeUndefined();
  });

  it('parses media types instead of matching substrings', () => {
    expect(mediaTypeOf('Application/JSON ; charset=utf-8')).toBe('application/json');
    expect(mediaTypeOf(null)).toBe('');
  });
});
