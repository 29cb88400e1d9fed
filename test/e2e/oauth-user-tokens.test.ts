import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  completeUserAuthorization,
  createClient,
  createMemoryTokenStore,
  revokeTokenSet,
  revokeUserTokens,
  startUserAuthorization,
  type AuditEvent,
  type Client,
  type TokenSet,
  type TokenStore,
  type TokenStoreKey,
  type UserCredentials,
} from '../../src/client/index.js';
import { followAuthorizationRedirects, PRE_REGISTERED_CLIENT_ID, useProtectedApis, type OidcAuthorizationServer, type ProtectedApi } from '../helpers/oidc-authorization-server.js';

const servers = useProtectedApis('User API', 'Other API');
let authorizationServer: OidcAuthorizationServer;
let api: ProtectedApi;
let otherApi: ProtectedApi;
const clients: Client[] = [];
beforeAll(() => {
  ({
    authorizationServer,
    apis: { 'User API': api, 'Other API': otherApi },
  } = servers);
});
afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()));
});

/** Logs the test user in to `target` (the test plays the browser) and stores the tokens in `tokenStore`. */
async function login(tokenStore: TokenStore, scopes: readonly string[], target: ProtectedApi = api): Promise<{ key: TokenStoreKey; tokens: TokenSet }> {
  const pending = await startUserAuthorization({
    origin: target.origin,
    discoveryUrl: target.resourceMetadataUrl,
    issuer: authorizationServer.issuer,
    redirectUri: 'http://127.0.0.1:1/callback',
    clientId: PRE_REGISTERED_CLIENT_ID,
    scopes,
  });
  return completeUserAuthorization(pending, await followAuthorizationRedirects(pending.authorizationUrl), { tokenStore });
}

/** Marks the stored tokens as expired, as if their lifetime had passed (the server still knows them). */
async function expire(tokenStore: TokenStore, key: TokenStoreKey): Promise<void> {
  for (const tokens of await tokenStore.get(key)) await tokenStore.put(key, { ...tokens, expiresAtInMs: Date.now() - 1_000 });
}

async function userClient(user: UserCredentials, audit?: AuditEvent[], target: ProtectedApi = api): Promise<Client> {
  const client = createClient({
    cache: false,
    network: { allow: [authorizationServer.issuer] },
    retry: { baseDelayInMs: 5, maxDelayInMs: 20 },
    ...(audit === undefined ? {} : { onAudit: (event: AuditEvent) => audit.push(event) }),
  });
  clients.push(client);
  await client.discover(target.origin, { credentials: { user: { issuer: authorizationServer.issuer, ...user } } });
  return client;
}

const refreshes = (): number => authorizationServer.grants['refresh_token'] ?? 0;

describe('user tokens: refresh, rotation, revocation', () => {
  it('refreshes an expired access token before the call and stores the rotated refresh token', async () => {
    const tokenStore = createMemoryTokenStore();
    const { key, tokens } = await login(tokenStore, ['read']);
    await expire(tokenStore, key);
    const client = await userClient({ tokenStore });
    const before = refreshes();
    const result = await client.call('whoami');
    expect(result.ok).toBe(true);
    expect(refreshes()).toBe(before + 1);
    const [stored] = await tokenStore.get(key);
    expect(stored?.accessToken).not.toBe(tokens.accessToken);
    expect(stored?.refreshToken).toEqual(expect.any(String));
    expect(stored?.refreshToken).not.toBe(tokens.refreshToken);
    expect(api.authorizations.at(-1)).toBe(`Bearer ${stored?.accessToken}`);
  });

  it('sends one refresh request for 20 concurrent calls racing one expired token', async () => {
    const tokenStore = createMemoryTokenStore();
    const { key } = await login(tokenStore, ['read']);
    await expire(tokenStore, key);
    const client = await userClient({ tokenStore });
    const before = refreshes();
    const results = await Promise.all(Array.from({ length: 20 }, () => client.call('whoami')));
    expect(results.filter((result) => result.ok)).toHaveLength(20);
    expect(refreshes()).toBe(before + 1);
  });

  it('refreshes once after a 401, for 20 concurrent calls whose token the server revoked', async () => {
    const tokenStore = createMemoryTokenStore();
    const { key, tokens } = await login(tokenStore, ['read']);
    await authorizationServer.revokeAccessToken(tokens.accessToken);
    const client = await userClient({ tokenStore });
    const before = refreshes();
    const results = await Promise.all(Array.from({ length: 20 }, () => client.call('whoami')));
    expect(results.map((result) => result.error?.code ?? 'ok')).toEqual(Array.from({ length: 20 }, () => 'ok'));
    expect(refreshes()).toBe(before + 1);
    expect((await tokenStore.get(key))[0]?.accessToken).not.toBe(tokens.accessToken);
  });

  it('fails with AUTH_FAILED saying to run `aicap login` when the refresh token was revoked, with no token in the error or audit', async () => {
    const tokenStore = createMemoryTokenStore();
    const { key, tokens } = await login(tokenStore, ['read']);
    expect(await revokeTokenSet(tokens)).toEqual({ revoked: true });
    await expire(tokenStore, key);
    const audit: AuditEvent[] = [];
    const client = await userClient({ tokenStore }, audit);
    const result = await client.call('whoami');
    expect(result.ok).toBe(false);
    expect(result.error?.code).toBe('AUTH_FAILED');
    expect(result.error?.message).toContain(`\`aicap login ${api.origin}\``);
    expect(result.error?.message).toContain('invalid_grant');
    const everything = JSON.stringify({ result, audit });
    expect(everything).not.toContain(tokens.accessToken);
    expect(everything).not.toContain(tokens.refreshToken);
  });

  it('logs out: revokes at the server (RFC 7009) and deletes from the store', async () => {
    const tokenStore = createMemoryTokenStore();
    const { key, tokens } = await login(tokenStore, ['read']);
    expect(await revokeUserTokens({ tokenStore, key })).toEqual({ deleted: 1, revoked: 1, failures: [] });
    expect(await tokenStore.get(key)).toEqual([]);
    expect(await authorizationServer.lookup(tokens.accessToken)).toBeUndefined();
    const client = await userClient({ tokenStore });
    const result = await client.call('whoami');
    expect(result.error?.code).toBe('AUTH_FAILED');
    expect(result.error?.message).toContain('aicap login');
  });
});

describe('user tokens: step-up and resource binding', () => {
  it('steps up on 403 insufficient_scope through onInsufficientScope, asking for the union of scopes', async () => {
    const tokenStore = createMemoryTokenStore();
    await login(tokenStore, ['read']);
    const asked: string[][] = [];
    const client = await userClient({
      tokenStore,
      onInsufficientScope: async (request) => {
        asked.push(request.scopes);
        const pending = await startUserAuthorization({
          origin: request.origin,
          discoveryUrl: request.discoveryUrl,
          issuer: request.issuer!,
          redirectUri: 'http://127.0.0.1:1/callback',
          clientId: PRE_REGISTERED_CLIENT_ID,
          scopes: request.scopes,
        });
        await completeUserAuthorization(pending, await followAuthorizationRedirects(pending.authorizationUrl), { tokenStore });
      },
    });
    const result = await client.call('transfer');
    expect(result.error?.message).toBeUndefined();
    expect(result.data).toMatchObject({ scopes: expect.arrayContaining(['read', 'write']) });
    expect(asked).toEqual([['read', 'write']]);
  });

  it('without a step-up hook, fails with INSUFFICIENT_SCOPE naming the scopes and the login command', async () => {
    const tokenStore = createMemoryTokenStore();
    await login(tokenStore, ['read']);
    const client = await userClient({ tokenStore });
    const result = await client.call('transfer');
    expect(result.error?.code).toBe('INSUFFICIENT_SCOPE');
    expect(result.error?.message).toContain(`aicap login '${api.origin}' --scope 'read write'`);
  });

  it('never sends a token for one resource to another origin', async () => {
    const tokenStore = createMemoryTokenStore();
    const { tokens } = await login(tokenStore, ['read']);
    const client = await userClient({ tokenStore });
    // The same store given for the other API: its key is the other resource, which holds nothing.
    await client.discover(otherApi.origin, { credentials: { user: { tokenStore, issuer: authorizationServer.issuer } } });
    const namespaceOf = (origin: string): string => client.services().find((service) => service.origin === origin)!.namespace;
    expect((await client.call(`${namespaceOf(api.origin)}__whoami`)).ok).toBe(true);
    const other = await client.call(`${namespaceOf(otherApi.origin)}__whoami`);
    expect(other.error?.code).toBe('AUTH_FAILED');
    expect(other.error?.message).toContain(`No user authorization is stored for ${otherApi.origin}`);
    // A third service discovered without credentials is called without any.
    const bare = createClient({ cache: false });
    clients.push(bare);
    await bare.discover(otherApi.origin);
    expect((await bare.call('whoami')).error?.code).toBe('AUTH_FAILED');
    expect(otherApi.authorizations.filter((header) => header?.includes(tokens.accessToken))).toEqual([]);
  });
});
