import { describe, expect, it } from 'vitest';
import { HAS_REDIS_SERVER, REDIS_MISSING, useRedisConnections } from '../../test/helpers/start-redis-server.js';
import { createRedisCacheStore, createRedisPinStore } from './create-redis-cache-store.js';
import { createRedisSessionStore } from './create-redis-session-store.js';

if (!HAS_REDIS_SERVER) console.warn(`Skipping the Redis client store tests: ${REDIS_MISSING}`);

describe.skipIf(!HAS_REDIS_SERVER)('Redis client stores', () => {
  const connections = useRedisConnections('client-test:');

  it('increments atomically across connections: of 60 concurrent increments exactly 50 see a value ≤ 50', async () => {
    const stores = [createRedisSessionStore({ redis: connections.first }), createRedisSessionStore({ redis: connections.second })];
    const values = await Promise.all(Array.from({ length: 60 }, (_, index) => stores[index % 2]?.increment('budget', 1)));
    expect(values.filter((value) => (value ?? Infinity) <= 50)).toHaveLength(50);
    expect(new Set(values).size).toBe(60);
    const ttl = await connections.first.command<number>(['PTTL', 'client-test:session:budget']);
    expect(ttl).toBeGreaterThan(0);
  });

  it('stores JSON values with expiry and refuses oversize ones by name', async () => {
    const store = createRedisSessionStore({ redis: connections.first, maxValueBytes: 100 });
    await store.set('checkpoint', { lastEventId: 7 }, 60_000);
    expect(await createRedisSessionStore({ redis: connections.second }).get('checkpoint')).toEqual({ lastEventId: 7 });
    await expect(store.set('big', 'x'.repeat(200))).rejects.toThrow(/big is 202 bytes, over `maxValueBytes` \(100\)/);
    await store.delete('checkpoint');
    expect(await store.get('checkpoint')).toBeUndefined();
  });

  it('shares the cache and pins between connections; a cache skips oversize values, the pin store refuses them', async () => {
    const cache = createRedisCacheStore<{ body: string }>({ redis: connections.first, maxValueBytes: 100 });
    await cache.set('m', { body: 'manifest' }, 60_000);
    expect(await createRedisCacheStore({ redis: connections.second }).get('m')).toEqual({ body: 'manifest' });
    await cache.set('huge', { body: 'x'.repeat(200) });
    expect(await cache.get('huge')).toBeUndefined();
    const pins = createRedisPinStore({ redis: connections.first, maxValueBytes: 100 });
    await pins.set('https://api.example|transfer', 'sha256-abc');
    expect(await createRedisPinStore({ redis: connections.second }).get('https://api.example|transfer')).toBe('sha256-abc');
    await expect(pins.set('p', 'x'.repeat(200))).rejects.toThrow(/over `maxValueBytes`/);
  });

  it('fails closed while Redis is down (STORE_UNAVAILABLE, nothing counted) and resumes when it is back', async () => {
    const sessions = createRedisSessionStore({ redis: connections.first });
    const pins = createRedisPinStore({ redis: connections.first });
    await connections.server.stop();
    await expect(sessions.increment('outage', 1)).rejects.toMatchObject({ code: 'STORE_UNAVAILABLE', message: expect.stringContaining('the operation was not performed') });
    await expect(pins.get('any')).rejects.toMatchObject({ code: 'STORE_UNAVAILABLE' });
    await connections.server.start();
    let value: number | undefined;
    for (let attempt = 0; attempt < 100 && value === undefined; attempt++) {
      value = await Promise.resolve(sessions.increment('outage', 1)).catch(async () => {
        await new Promise((resolve) => setTimeout(resolve, 50));
        return undefined;
      });
    }
    expect(value).toBe(1);
  });
});
