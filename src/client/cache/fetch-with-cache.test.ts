import { describe, expect, it } from 'vitest';
import type { BufferedResponse } from '../fetch/guarded-fetch-options.js';
import { createMemoryCacheStore } from './cache-store.js';
import { fetchWithCache, type ManifestRequest } from './fetch-with-cache.js';

const URL_ = 'https://api.example.com/.well-known/ai-capabilities';

function server(answers: Array<Partial<BufferedResponse> & { status: number }>): { send: ManifestRequest; sent: Array<Record<string, string>> } {
  const sent: Array<Record<string, string>> = [];
  return {
    sent,
    send: async (url, headers) => {
      sent.push(headers);
      const answer = answers.shift()!;
      return { statusText: '', url, headers: new Headers(), body: new Uint8Array(0), ...answer };
    },
  };
}

describe('fetchWithCache', () => {
  it('answers within max-age from the cache with the very bytes it stored', async () => {
    const cache = createMemoryCacheStore();
    const body = new TextEncoder().encode('{"a":1}');
    const { send, sent } = server([{ status: 200, headers: new Headers({ etag: '"v1"', 'cache-control': 'max-age=60' }), body }]);
    const first = await fetchWithCache(send, cache, URL_, { accept: 'application/json' });
    expect(first.source).toBe('network');
    const hit = await fetchWithCache(send, cache, URL_, { accept: 'application/json' });
    expect(hit.source).toBe('cache');
    expect(hit.body).toBe(first.body);
    expect(sent).toHaveLength(1);
  });

  it('revalidates a stale entry with its validator and keeps the stored bytes on a 304', async () => {
    const cache = createMemoryCacheStore();
    const body = new TextEncoder().encode('{"a":1}');
    const { send, sent } = server([
      { status: 200, headers: new Headers({ etag: '"v1"', 'cache-control': 'max-age=0' }), body },
      { status: 304, headers: new Headers({ etag: '"v1"', 'cache-control': 'max-age=0' }) },
    ]);
    const first = await fetchWithCache(send, cache, URL_, { accept: 'application/json' });
    const revalidated = await fetchWithCache(send, cache, URL_, { accept: 'application/json' });
    expect(revalidated.source).toBe('revalidated');
    expect(revalidated.body).toBe(first.body);
    expect(sent[1]!['if-none-match']).toBe('"v1"');
  });

  it("keeps one principal's entry from another and throws HTTPError for a non-2xx answer", async () => {
    const cache = createMemoryCacheStore();
    const problem = new TextEncoder().encode('{"title":"Not Found"}');
    const { send } = server([
      { status: 200, headers: new Headers({ 'cache-control': 'max-age=60' }), body: new Uint8Array([1]) },
      { status: 404, body: problem },
    ]);
    await fetchWithCache(send, cache, URL_, { authorization: 'Bearer alice' });
    await expect(fetchWithCache(send, cache, URL_, { authorization: 'Bearer bob' })).rejects.toMatchObject({
      code: 'HTTP_ERROR',
      status: 404,
      responseBody: '{"title":"Not Found"}',
      responseBodyTruncated: false,
    });
  });
  it('stores entries a serialising store can keep: JSON round trips answer hits and 304s with the same bytes', async () => {
    const memory = createMemoryCacheStore<string>();
    const cache = {
      get: (key: string) => (memory.get(key) === undefined ? undefined : JSON.parse(memory.get(key) as string)),
      set: (key: string, value: unknown, timeToLiveInMs?: number) => memory.set(key, JSON.stringify(value), timeToLiveInMs),
      delete: (key: string) => memory.delete(key),
    };
    const body = new TextEncoder().encode('{"a":1}');
    const { send, sent } = server([
      { status: 200, headers: new Headers({ etag: '"v1"', 'cache-control': 'max-age=0', 'content-type': 'application/json' }), body },
      { status: 304, headers: new Headers({ etag: '"v1"', 'cache-control': 'max-age=60' }) },
    ]);
    await fetchWithCache(send, cache, URL_, { accept: 'application/json' });
    const stored = JSON.parse(memory.get(`manifest|${URL_}|anonymous`) as string) as { body: string; url: string; policy: object };
    expect(Buffer.from(stored.body, 'base64').toString()).toBe('{"a":1}');
    const revalidated = await fetchWithCache(send, cache, URL_, { accept: 'application/json' });
    expect(revalidated.source).toBe('revalidated');
    expect(new TextDecoder().decode(revalidated.body)).toBe('{"a":1}');
    const hit = await fetchWithCache(send, cache, URL_, { accept: 'application/json' });
    expect(hit.source).toBe('cache');
    expect(new TextDecoder().decode(hit.body)).toBe('{"a":1}');
    expect(hit.headers.get('content-type')).toBe('application/json');
    expect(sent).toHaveLength(2);
  });

  it('hands a store that copies values (structured clone) the body as bytes, not base64, and answers hits with them', async () => {
    const memory = createMemoryCacheStore();
    const stored: unknown[] = [];
    const cache = {
      get: (key: string) => structuredClone(memory.get(key)),
      set: (key: string, value: unknown, timeToLiveInMs?: number) => {
        stored.push(value);
        memory.set(key, structuredClone(value), timeToLiveInMs);
      },
      delete: (key: string) => memory.delete(key),
    };
    const body = new TextEncoder().encode('{"a":1}');
    const { send, sent } = server([{ status: 200, headers: new Headers({ 'cache-control': 'max-age=60', 'content-type': 'application/json' }), body }]);
    await fetchWithCache(send, cache, URL_, {});
    expect((stored[0] as { body: unknown }).body).toBeInstanceOf(Uint8Array);
    const hit = await fetchWithCache(send, cache, URL_, {});
    expect(hit.source).toBe('cache');
    expect(new TextDecoder().decode(hit.body)).toBe('{"a":1}');
    expect(hit.headers.get('content-type')).toBe('application/json');
    expect(sent).toHaveLength(1);
  });

  it('renews an entry on a 304 with the body object it already stored, which still writes itself to JSON as base64', async () => {
    const memory = createMemoryCacheStore();
    const stored: Array<{ body: unknown }> = [];
    const cache = {
      get: (key: string) => memory.get(key),
      set: (key: string, value: unknown, timeToLiveInMs?: number) => {
        stored.push(value as { body: unknown });
        memory.set(key, value, timeToLiveInMs);
      },
      delete: (key: string) => memory.delete(key),
    };
    const body = new TextEncoder().encode('{"a":1}');
    const { send } = server([
      { status: 200, headers: new Headers({ etag: '"v1"', 'cache-control': 'max-age=0' }), body },
      { status: 304, headers: new Headers({ etag: '"v1"', 'cache-control': 'max-age=0' }) },
    ]);
    await fetchWithCache(send, cache, URL_, {});
    const revalidated = await fetchWithCache(send, cache, URL_, {});
    expect(revalidated.source).toBe('revalidated');
    expect(stored).toHaveLength(2);
    expect(stored[1]!.body).toBe(stored[0]!.body);
    expect(JSON.parse(JSON.stringify(stored[1]!.body))).toBe(Buffer.from('{"a":1}').toString('base64'));
  });
});
