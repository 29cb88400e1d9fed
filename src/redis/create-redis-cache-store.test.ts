import { describe, expect, it } from 'vitest';
import { HAS_REDIS_SERVER, REDIS_MISSING, useRedisConnections } from '../../test/helpers/start-redis-server.js';
import { createRedisCacheStore, createRedisPinStore } from './create-redis-cache-store.js';

if (!HAS_REDIS_SERVER) console.warn(`Skipping the Redis cache and pin store tests: ${REDIS_MISSING}`);

// What a fleet sharing one Redis relies on: values keyed under the prefix and namespace, expiry as
// asked, and a damaged or unstorable value giving a miss (cache) or a typed error (pins), never a
// SyntaxError or TypeError from inside the store.

describe.skipIf(!HAS_REDIS_SERVER)('createRedisCacheStore and createRedisPinStore', () => {
  const connections = useRedisConnections('cache-test:');

  it('keeps namespaces apart under the connection prefix, and keys such as __proto__ are plain keys', async () => {
    const cache = createRedisCacheStore<{ n: number }>({ redis: connections.first });
    const other = createRedisCacheStore<{ n: number }>({ redis: connections.second, namespace: 'other:' });
    await cache.set('__proto__', { n: 1 });
    await other.set('__proto__', { n: 2 });
    expect(await createRedisCacheStore({ redis: connections.second }).get('__proto__')).toEqual({ n: 1 });
    expect(await other.get('__proto__')).toEqual({ n: 2 });
    expect((await connections.first.command<string[]>(['KEYS', 'cache-test:*'])).sort()).toEqual(['cache-test:cache:__proto__', 'cache-test:other:__proto__']);
    await cache.delete('__proto__');
    expect(await cache.get('__proto__')).toBeUndefined();
    expect(await other.get('__proto__')).toEqual({ n: 2 });
  });

  it('sets the expiry it is given, rounded up to whole milliseconds, and none without one', async () => {
    const cache = createRedisCacheStore({ redis: connections.first });
    await cache.set('short', 1, 0.2);
    const shortTtl = await connections.first.command<number>(['PTTL', 'cache-test:cache:short']);
    expect(shortTtl === -2 || (shortTtl >= 0 && shortTtl <= 1)).toBe(true);
    await cache.set('minute', 1, 60_000);
    const ttl = await connections.first.command<number>(['PTTL', 'cache-test:cache:minute']);
    expect(ttl).toBeGreaterThan(50_000);
    expect(ttl).toBeLessThanOrEqual(60_000);
    await cache.set('forever', 1);
    expect(await connections.first.command<number>(['PTTL', 'cache-test:cache:forever'])).toBe(-1);
  });

  it('stores a value whose expiry is not a finite number without expiry rather than failing', async () => {
    const cache = createRedisCacheStore({ redis: connections.first });
    await cache.set('nan', 'v', Number.NaN);
    await cache.set('infinite', 'v', Number.POSITIVE_INFINITY);
    expect(await cache.get('nan')).toBe('v');
    expect(await cache.get('infinite')).toBe('v');
    expect(await connections.first.command<number>(['PTTL', 'cache-test:cache:infinite'])).toBe(-1);
  });

  it('treats a cache entry that is not JSON as a miss; the pin store refuses it with a typed error', async () => {
    await connections.first.command(['SET', 'cache-test:cache:damaged', '{not json']);
    await connections.first.command(['SET', 'cache-test:pins:damaged', '{not json']);
    expect(await createRedisCacheStore({ redis: connections.first }).get('damaged')).toBeUndefined();
    await expect(createRedisPinStore({ redis: connections.first }).get('damaged')).rejects.toMatchObject({
      code: 'STORE_UNAVAILABLE',
      message: expect.stringMatching(/cache-test:pins:damaged.*not JSON/),
    });
  });

  it('skips a value JSON cannot hold in the cache and refuses it in the pin store', async () => {
    const cache = createRedisCacheStore<unknown>({ redis: connections.first });
    await cache.set('undefined', undefined);
    expect(await cache.get('undefined')).toBeUndefined();
    const pins = createRedisPinStore({ redis: connections.first });
    await expect(pins.set('undefined', undefined as unknown as string)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });

  it('refuses a maxValueBytes that is not a positive integer, naming the option', () => {
    for (const maxValueBytes of [0, -1, 1.5, Number.NaN]) {
      expect(() => createRedisCacheStore({ redis: connections.first, maxValueBytes })).toThrow(expect.objectContaining({ code: 'INVALID_OPTION', message: expect.stringContaining('maxValueBytes') }));
    }
  });

  it('rejects with STORE_UNAVAILABLE while Redis is down, and works again once it is back', async () => {
    const cache = createRedisCacheStore({ redis: connections.first });
    await connections.server.stop();
    try {
      await expect(cache.get('any')).rejects.toMatchObject({ code: 'STORE_UNAVAILABLE' });
      await expect(createRedisPinStore({ redis: connections.first }).set('any', 'sha256-x')).rejects.toMatchObject({ code: 'STORE_UNAVAILABLE' });
    } finally {
      await connections.server.start();
    }
  });
});
