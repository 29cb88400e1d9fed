import { describe, expect, it } from 'vitest';
import type { TokenSet } from '../client/shapes/token-store.js';
import { HAS_REDIS_SERVER, REDIS_MISSING, useRedisConnections } from '../../test/helpers/start-redis-server.js';
import { createRedisTokenStore } from './create-redis-token-store.js';

if (!HAS_REDIS_SERVER) console.warn(`Skipping the Redis token store tests: ${REDIS_MISSING}`);

const tokens = (accessToken: string, scopes: string[]): TokenSet => ({
  accessToken,
  refreshToken: `refresh-${accessToken}`,
  expiresAtInMs: 1_900_000_000_000,
  scopes,
  issuer: 'https://idp.example',
  clientId: 'aicap',
});

describe.skipIf(!HAS_REDIS_SERVER)('createRedisTokenStore', () => {
  const connections = useRedisConnections('token-test:');
  const key = { user: 'alice', resource: 'https://api.example/v2' };

  it('round-trips token sets between connections, one per scope set, order ignored', async () => {
    const first = createRedisTokenStore({ redis: connections.first });
    const second = createRedisTokenStore({ redis: connections.second });
    await first.put(key, tokens('a1', ['read']));
    await first.put(key, tokens('a2', ['write', 'read']));
    // Same scopes in another order: replaces the second set.
    await second.put(key, tokens('a3', ['read', 'write']));
    const stored = await second.get(key);
    expect(stored.map((set) => set.accessToken).sort()).toEqual(['a1', 'a3']);
    expect(stored.find((set) => set.accessToken === 'a3')).toEqual(tokens('a3', ['read', 'write']));
    expect(await first.get({ user: 'bob', resource: key.resource })).toEqual([]);
    const names = await connections.first.command<string[]>(['KEYS', 'token-test:tokens:*']);
    expect(names).toEqual([`token-test:tokens:alice:${encodeURIComponent(key.resource)}`]);
  });

  it('deletes one scope set or the whole key, and expires keys when asked', async () => {
    const store = createRedisTokenStore({ redis: connections.first, timeToLiveInMs: 60_000 });
    const key = { user: 'carol', resource: 'https://api.example/v2' };
    await store.put(key, tokens('b1', ['read']));
    await store.put(key, tokens('b2', ['write']));
    expect(await connections.first.command<number>(['PTTL', `token-test:tokens:carol:${encodeURIComponent(key.resource)}`])).toBeGreaterThan(0);
    await store.delete(key, ['write']);
    expect((await store.get(key)).map((set) => set.accessToken)).toEqual(['b1']);
    await store.delete(key);
    expect(await store.get(key)).toEqual([]);
    expect(() => createRedisTokenStore({ redis: connections.first, timeToLiveInMs: 0 })).toThrow(/`timeToLiveInMs`/);
  });
});
