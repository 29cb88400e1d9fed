import { describe, expect, it } from 'vitest';
import { errorOf } from '../../../test/helpers/error-of.js';
import { injectedAuthorizationServer, oauthJson } from '../../../test/helpers/injected-authorization-server.js';
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

  /** An authorization server whose token endpoint rotates the refresh token on every refresh (`access-token-N`, `refresh-token-N`). */
  function rotatingServer(answer?: (form: URLSearchParams) => Response | undefined) {
    let issued = 1;
    return injectedAuthorizationServer({
      [`${api}/.well-known/oauth-protected-resource/v2`]: { resource, authorization_servers: [issuer] },
      [`${issuer}/.well-known/oauth-authorization-server`]: { issuer, token_endpoint: `${issuer}/token` },
      [`${issuer}/token`]: (request) =>
        answer?.(request.form) ?? oauthJson({ access_token: `access-token-${++issued}`, refresh_token: `refresh-token-${issued}`, token_type: 'Bearer', expires_in: 600, scope: 'read' }),
    });
  }

  it('refreshes an expired token with the refresh token and the resource, and stores the rotated refresh token', async () => {
    const server = rotatingServer();
    const tokenStore = createMemoryTokenStore();
    await tokenStore.put(key, stored());
    expect(await source(server.fetch, tokenStore).getToken({ forceRefresh: false })).toBe('access-token-2');
    const [request] = server.to(`${issuer}/token`);
    expect(Object.fromEntries(request!.form)).toMatchObject({ grant_type: 'refresh_token', refresh_token: 'refresh-token-1', resource, client_id: 'aicap' });
    expect(await tokenStore.get(key)).toEqual([{ accessToken: 'access-token-2', refreshToken: 'refresh-token-2', expiresAtInMs: 601_000, scopes: ['read'], issuer, clientId: 'aicap' }]);
    // The refresh token went to the token endpoint only.
    expect(server.requests.filter((sent) => sent.body.includes('refresh-token-1')).map((sent) => sent.url)).toEqual([`${issuer}/token`]);
  });

  it('sends one refresh for concurrent callers racing an expired token, spending the refresh token once', async () => {
    const server = rotatingServer();
    const tokenStore = createMemoryTokenStore();
    await tokenStore.put(key, stored());
    const tokens = source(server.fetch, tokenStore);
    const handed = await Promise.all(Array.from({ length: 5 }, () => tokens.getToken({ forceRefresh: false })));
    expect(new Set(handed)).toEqual(new Set(['access-token-2']));
    expect(server.to(`${issuer}/token`)).toHaveLength(1);
  });

  it('after a 401 for the token it holds, refreshes even before expiry', async () => {
    const server = rotatingServer();
    const tokenStore = createMemoryTokenStore();
    await tokenStore.put(key, stored({ expiresAtInMs: 60_000 }));
    expect(await source(server.fetch, tokenStore).getToken({ forceRefresh: true, rejectedToken: 'access-token-1' })).toBe('access-token-2');
  });

  it.each([
    {
      name: 'a revoked refresh token (invalid_grant)',
      answer: oauthJson({ error: 'invalid_grant' }, 400),
      reason: /rejected the refresh token .*invalid_grant.*run `aicap login https:\/\/api\.example`/s,
    },
    { name: 'a server error (its number named)', answer: oauthJson({ error: 'temporarily_unavailable' }, 503), reason: /unexpected HTTP status code\), status 503\)/ },
    { name: 'a refusal of the client', answer: oauthJson({ error: 'invalid_client', error_description: 'unknown client' }, 401), reason: /status 401, invalid_client: unknown client/ },
    { name: 'a token response without an access token', answer: oauthJson({ token_type: 'Bearer' }), reason: /at https:\/\/idp\.example\/token failed/ },
  ])('reports $name as AUTH_FAILED, keeping the stored tokens and never the refresh token in the message', async ({ answer, reason }) => {
    const server = rotatingServer(() => answer);
    const tokenStore = createMemoryTokenStore();
    await tokenStore.put(key, stored());
    const error = await errorOf(source(server.fetch, tokenStore).getToken({ forceRefresh: false }));
    expect(error.code).toBe('AUTH_FAILED');
    expect(error.message).toMatch(reason);
    expect(error.message).not.toContain('refresh-token-1');
    expect(await tokenStore.get(key)).toEqual([stored()]);
  });

  it('refuses a token endpoint off the bound origins before sending the refresh token', async () => {
    const server = injectedAuthorizationServer({
      [`${api}/.well-known/oauth-protected-resource/v2`]: { resource, authorization_servers: [issuer] },
      [`${issuer}/.well-known/oauth-authorization-server`]: { issuer, token_endpoint: 'https://collector.example/token' },
    });
    const tokenStore = createMemoryTokenStore();
    await tokenStore.put(key, stored());
    const error = await errorOf(source(server.fetch, tokenStore).getToken({ forceRefresh: false }));
    expect(error).toMatchObject({ code: 'AUTH_FAILED', message: expect.stringContaining('https://collector.example/token') });
    expect(server.requests.some((sent) => sent.body.includes('refresh-token-1'))).toBe(false);
  });

  it('refuses a protected resource that does not cover the API’s base URL, sending no token', async () => {
    const tokenStore = createMemoryTokenStore();
    await tokenStore.put(key, stored({ expiresAtInMs: 60_000 }));
    const tokens = createUserTokenSource({
      credentials: { tokenStore, issuer },
      providerDiscovery: `${api}/.well-known/oauth-protected-resource/v2`,
      resourceOrigin: api,
      baseUrl: `${api}/v3`,
      fetch: rotatingServer().fetch,
      now: () => 1_000,
      refreshBeforeExpiryInMs: 0,
    });
    expect(await errorOf(tokens.getToken({ forceRefresh: false }))).toMatchObject({ code: 'AUTH_FAILED', message: expect.stringContaining('does not cover the API at https://api.example/v3') });
  });

  it('steps up through `onInsufficientScope` with the union of held and required scopes, then hands out the new grant', async () => {
    const tokenStore = createMemoryTokenStore();
    await tokenStore.put(key, stored({ expiresAtInMs: 60_000 }));
    const asked: unknown[] = [];
    const tokens = createUserTokenSource({
      credentials: {
        tokenStore,
        issuer,
        onInsufficientScope: async (request) => {
          asked.push(request);
          await tokenStore.put(key, stored({ accessToken: 'access-wide', scopes: ['read', 'write'], expiresAtInMs: 60_000 }));
        },
      },
      providerDiscovery: `${api}/.well-known/oauth-protected-resource/v2`,
      resourceOrigin: api,
      fetch: rotatingServer().fetch,
      now: () => 1_000,
      refreshBeforeExpiryInMs: 0,
    });
    expect(await tokens.getToken({ forceRefresh: false, requiredScopes: ['write'] })).toBe('access-wide');
    expect(asked).toEqual([expect.objectContaining({ origin: api, resource, user: 'default', scopes: ['read', 'write'], issuer })]);
  });
});
