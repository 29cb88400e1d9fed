import { describe, expect, it } from 'vitest';
import { errorOf } from '../../../test/helpers/error-of.js';
import { createMemoryTokenStore } from './create-memory-token-store.js';
import { createUserTokenSource } from './create-user-token-source.js';
import type { TokenSet } from '../shapes/token-store.js';

const api = 'https://api.example';
const issuer = 'https://idp.example';
const resource = `${api}/v2`;
const key = { user: 'default', resource };

/** An injected fetch answering the protected-resource and authorization-server metadata, and recording token requests. */
function authorizationServer(asIssuer = issuer): { fetch: (input: string | URL, init?: RequestInit) => Promise<Response>; tokenRequests: string[] } {
  const tokenRequests: string[] = [];
  return {
    tokenRequests,
    fetch: async (input, init) => {
      const url = new URL(input);
      if (url.pathname === '/.well-known/oauth-protected-resource/v2') return Response.json({ resource, authorization_servers: [asIssuer] });
      if (url.pathname === '/.well-known/oauth-authorization-server') return Response.json({ issuer: asIssuer, token_endpoint: `${asIssuer}/token` });
      tokenRequests.push(String(init?.body));
      return Response.json({ error: 'invalid_grant' }, { status: 400 });
    },
  };
}

const stored = (overrides: Partial<TokenSet> = {}): TokenSet => ({
  accessToken: 'access-token-1',
  refreshToken: 'refresh-token-1',
  expiresAtInMs: 0,
  scopes: ['read'],
  issuer,
  clientId: 'aicap',
  ...overrides,
});

function source(fetch: (input: string | URL, init?: RequestInit) => Promise<Response>, tokenStore = createMemoryTokenStore(), issuerOption: string | undefined = issuer) {
  return createUserTokenSource({
    credentials: { tokenStore, ...(issuerOption === undefined ? {} : { issuer: issuerOption }) },
    providerDiscovery: `${api}/.well-known/oauth-protected-resource/v2`,
    resourceOrigin: api,
    fetch,
    now: () => 1_000,
    refreshBeforeExpiryInMs: 0,
  });
}

describe('createUserTokenSource', () => {
  it('hands out a stored token that has not expired without any token request, reading the store once', async () => {
    const server = authorizationServer();
    const tokenStore = createMemoryTokenStore();
    await tokenStore.put(key, stored({ expiresAtInMs: 60_000 }));
    let reads = 0;
    const counting = { ...tokenStore, get: (...args: Parameters<typeof tokenStore.get>) => (reads++, tokenStore.get(...args)) };
    const tokens = source(server.fetch, counting);
    expect(await tokens.getToken({ forceRefresh: false })).toBe('access-token-1');
    // Until it nears expiry, the token is kept: no store read per call.
    expect(await tokens.getToken({ forceRefresh: false })).toBe('access-token-1');
    expect(reads).toBe(1);
    expect(server.tokenRequests).toEqual([]);
  });

  it('says to log in when nothing is stored, and when an expired token has no refresh token', async () => {
    const server = authorizationServer();
    const empty = await errorOf(source(server.fetch).getToken({ forceRefresh: false }));
    expect(empty.message).toContain(`run \`aicap login ${api}\``);
    const tokenStore = createMemoryTokenStore();
    const { refreshToken: _dropped, ...withoutRefresh } = stored();
    await tokenStore.put(key, withoutRefresh);
    const expired = await errorOf(source(server.fetch, tokenStore).getToken({ forceRefresh: false }));
    expect(expired).toMatchObject({ code: 'AUTH_FAILED' });
    expect(expired.message).toMatch(/no refresh token was issued; run `aicap login/);
  });

  it('refuses to send the refresh token to an issuer other than the one that issued it', async () => {
    const server = authorizationServer('https://api.example');
    const tokenStore = createMemoryTokenStore();
    await tokenStore.put(key, stored());
    const error = await errorOf(source(server.fetch, tokenStore, undefined).getToken({ forceRefresh: false }));
    expect(error.message).toContain(`were issued by ${issuer}, but the API now names https://api.example`);
    expect(server.tokenRequests).toEqual([]);
  });

  it('does not refresh after a 401 when the store already holds another token than the rejected one', async () => {
    const server = authorizationServer();
    const tokenStore = createMemoryTokenStore();
    await tokenStore.put(key, stored({ accessToken: 'access-token-2', expiresAtInMs: 60_000 }));
    expect(await source(server.fetch, tokenStore).getToken({ forceRefresh: true, rejectedToken: 'access-token-1' })).toBe('access-token-2');
    expect(server.tokenRequests).toEqual([]);
  });

  it('without a step-up hook, names the scopes to authorize', async () => {
    const server = authorizationServer();
    const tokenStore = createMemoryTokenStore();
    await tokenStore.put(key, stored({ expiresAtInMs: 60_000 }));
    const error = await errorOf(source(server.fetch, tokenStore).getToken({ forceRefresh: false, requiredScopes: ['write'] }));
    expect(error).toMatchObject({ code: 'INSUFFICIENT_SCOPE' });
    expect(error.message).toContain(`aicap login '${api}' --scope 'read write'`);
  });
});
