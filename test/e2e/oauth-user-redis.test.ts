import { beforeAll, describe, expect, it } from 'vitest';
import { completeUserAuthorization, createClient, startUserAuthorization } from '../../src/client/index.js';
import { createRedisTokenStore } from '../../src/redis/index.js';
import { followAuthorizationRedirects, PRE_REGISTERED_CLIENT_ID, useProtectedApis, type OidcAuthorizationServer, type ProtectedApi } from '../helpers/oidc-authorization-server.js';
import { HAS_REDIS_SERVER, REDIS_MISSING, useRedisConnections } from '../helpers/start-redis-server.js';

if (!HAS_REDIS_SERVER) console.warn(`Skipping the Redis user-token tests: ${REDIS_MISSING}`);

describe.skipIf(!HAS_REDIS_SERVER)('user tokens in Redis, shared by two processes', () => {
  const connections = useRedisConnections('oauth-user:');
  const servers = useProtectedApis('User API');
  let authorizationServer: OidcAuthorizationServer;
  let api: ProtectedApi;
  beforeAll(() => {
    ({
      authorizationServer,
      apis: { 'User API': api },
    } = servers);
  });

  it('logs in through one connection, refreshes through the other, and both see the rotated tokens', async () => {
    const loginStore = createRedisTokenStore({ redis: connections.first });
    const callerStore = createRedisTokenStore({ redis: connections.second });
    const pending = await startUserAuthorization({
      origin: api.origin,
      discoveryUrl: api.resourceMetadataUrl,
      issuer: authorizationServer.issuer,
      redirectUri: 'http://127.0.0.1:1/callback',
      clientId: PRE_REGISTERED_CLIENT_ID,
      scopes: ['read'],
    });
    const { key, tokens } = await completeUserAuthorization(pending, await followAuthorizationRedirects(pending.authorizationUrl), { tokenStore: loginStore });
    expect(await callerStore.get(key)).toEqual([tokens]);
    await loginStore.put(key, { ...tokens, expiresAtInMs: Date.now() - 1_000 });
    const client = createClient({ cache: false, network: { allow: [authorizationServer.issuer] } });
    try {
      await client.discover(api.origin, { credentials: { user: { tokenStore: callerStore, issuer: authorizationServer.issuer } } });
      const result = await client.call('whoami');
      expect(result.ok).toBe(true);
      const [rotated] = await loginStore.get(key);
      expect(rotated?.accessToken).not.toBe(tokens.accessToken);
      expect(rotated?.refreshToken).not.toBe(tokens.refreshToken);
      expect(api.authorizations.at(-1)).toBe(`Bearer ${rotated?.accessToken}`);
    } finally {
      await client.close();
    }
  });

  it('sends one refresh request when two processes race one expired token (the refresh lock)', async () => {
    const stores = [createRedisTokenStore({ redis: connections.first }), createRedisTokenStore({ redis: connections.second })];
    const pending = await startUserAuthorization({
      origin: api.origin,
      discoveryUrl: api.resourceMetadataUrl,
      issuer: authorizationServer.issuer,
      redirectUri: 'http://127.0.0.1:1/callback',
      clientId: PRE_REGISTERED_CLIENT_ID,
      scopes: ['read'],
      user: 'racer',
    });
    const { key, tokens } = await completeUserAuthorization(pending, await followAuthorizationRedirects(pending.authorizationUrl), { tokenStore: stores[0]! });
    await stores[0]!.put(key, { ...tokens, expiresAtInMs: Date.now() - 1_000 });
    const processes = stores.map((tokenStore) => ({ tokenStore, client: createClient({ cache: false, network: { allow: [authorizationServer.issuer] } }) }));
    try {
      for (const { client, tokenStore } of processes) await client.discover(api.origin, { credentials: { user: { tokenStore, user: 'racer', issuer: authorizationServer.issuer } } });
      const before = authorizationServer.grants['refresh_token'] ?? 0;
      const results = await Promise.all(processes.flatMap(({ client }) => Array.from({ length: 10 }, () => client.call('whoami'))));
      expect(results.map((result) => result.error?.code ?? 'ok')).toEqual(Array.from({ length: 20 }, () => 'ok'));
      expect((authorizationServer.grants['refresh_token'] ?? 0) - before).toBe(1);
    } finally {
      await Promise.all(processes.map(({ client }) => client.close()));
    }
  });
});
