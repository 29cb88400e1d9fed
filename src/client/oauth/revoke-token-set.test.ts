import { describe, expect, it } from 'vitest';
import { errorOf } from '../../../test/helpers/error-of.js';
import { basicCredentials, definedMembers, injectedAuthorizationServer, ISSUER, issuerMetadata, oauthJson, type AuthorizationRoute } from '../../../test/helpers/injected-authorization-server.js';
import { createMemoryClientRegistrationStore } from '../shapes/client-registration-store.js';
import type { TokenSet } from '../shapes/token-store.js';
import { createMemoryTokenStore } from './create-memory-token-store.js';
import { revokeTokenSet, revokeUserTokens } from './revoke-token-set.js';

const REVOKE = `${ISSUER}/revoke`;
const RFC8414 = `${ISSUER}/.well-known/oauth-authorization-server`;
const OPENID = `${ISSUER}/.well-known/openid-configuration`;

/** A token set; an override of `undefined` leaves the member out. */
function tokens(overrides: { [Member in keyof TokenSet]?: TokenSet[Member] | undefined } = {}): TokenSet {
  const merged = { accessToken: 'access-1', refreshToken: 'refresh-1', scopes: ['read'], issuer: ISSUER, clientId: 'cli', ...overrides };
  return definedMembers<TokenSet>(merged);
}
const accepting: AuthorizationRoute = () => new Response(null, { status: 200 });

function server(revoke: AuthorizationRoute = accepting, metadata: Record<string, unknown> = issuerMetadata()) {
  return injectedAuthorizationServer({ [RFC8414]: metadata, [REVOKE]: revoke });
}

describe('revokeTokenSet', () => {
  it('revokes the refresh token first, then the access token, each with its type hint, as a public client', async () => {
    const as = server();
    expect(await revokeTokenSet(tokens(), { fetch: as.fetch, registrationStore: createMemoryClientRegistrationStore() })).toEqual({ revoked: true });
    expect(as.to(REVOKE).map((request) => Object.fromEntries(request.form))).toEqual([
      { token: 'refresh-1', token_type_hint: 'refresh_token', client_id: 'cli' },
      { token: 'access-1', token_type_hint: 'access_token', client_id: 'cli' },
    ]);
    expect(as.to(REVOKE).some((request) => request.headers.has('authorization'))).toBe(false);
  });

  it('revokes the access token alone when there is no refresh token', async () => {
    const as = server();
    await revokeTokenSet(tokens({ refreshToken: undefined }), { fetch: as.fetch, registrationStore: createMemoryClientRegistrationStore() });
    expect(as.to(REVOKE).map((request) => request.form.get('token_type_hint'))).toEqual(['access_token']);
  });

  it.each([
    { name: 'the secret passed', clientSecret: 'given', stored: [{ clientId: 'cli', clientSecret: 'stored', method: 'dynamic-registration' as const }], expected: 'given' },
    { name: 'the secret stored for this client', clientSecret: undefined, stored: [{ clientId: 'cli', clientSecret: 'stored', method: 'dynamic-registration' as const }], expected: 'stored' },
    {
      name: 'no secret stored for another client',
      clientSecret: undefined,
      stored: [{ clientId: 'other', clientSecret: 'other-secret', method: 'dynamic-registration' as const }],
      expected: undefined,
    },
  ])('authenticates with $name', async ({ clientSecret, stored, expected }) => {
    const registrationStore = createMemoryClientRegistrationStore();
    for (const registration of stored) await registrationStore.put(ISSUER, registration);
    const as = server();
    await revokeTokenSet(tokens(), { fetch: as.fetch, registrationStore, ...(clientSecret === undefined ? {} : { clientSecret }) });
    for (const request of as.to(REVOKE)) expect(basicCredentials(request)?.clientSecret).toBe(expected);
    expect(JSON.stringify(as.requests.map((request) => [request.url, request.body, [...request.headers]]))).not.toContain('other-secret');
  });

  it('says the tokens stay valid when the server offers no revocation endpoint, sending them nowhere', async () => {
    const as = server(accepting, issuerMetadata(ISSUER, { revocation_endpoint: undefined }));
    expect(await revokeTokenSet(tokens(), { fetch: as.fetch })).toEqual({ revoked: false });
    expect(as.requests.map((request) => request.method)).toEqual(['GET']);
  });

  it('falls back to OpenID Connect discovery when the RFC 8414 document is absent', async () => {
    const as = injectedAuthorizationServer({ [OPENID]: issuerMetadata(), [REVOKE]: accepting });
    expect(await revokeTokenSet(tokens(), { fetch: as.fetch, registrationStore: createMemoryClientRegistrationStore() })).toEqual({ revoked: true });
    expect(as.requests.map((request) => request.url)).toEqual([RFC8414, OPENID, REVOKE, REVOKE]);
  });

  it.each([
    ['another origin', 'https://collector.example/revoke'],
    ['plain http', 'http://auth.example.com/revoke'],
    ['another port', 'https://auth.example.com:444/revoke'],
  ])('refuses a revocation endpoint on %s before sending a token', async (_name, endpoint) => {
    const as = server(accepting, issuerMetadata(ISSUER, { revocation_endpoint: endpoint }));
    const error = await errorOf(revokeTokenSet(tokens(), { fetch: as.fetch }));
    expect(error).toMatchObject({ code: 'AUTH_FAILED', message: expect.stringContaining(endpoint) });
    expect(as.requests.filter((request) => request.method === 'POST')).toEqual([]);
  });

  it.each([42, 'not a url', ['https://auth.example.com/revoke']])('refuses a revocation_endpoint of %j with AUTH_FAILED, sending no token', async (endpoint) => {
    const as = server(accepting, issuerMetadata(ISSUER, { revocation_endpoint: endpoint }));
    expect(await errorOf(revokeTokenSet(tokens(), { fetch: as.fetch }))).toMatchObject({ code: 'AUTH_FAILED', message: expect.stringContaining('`revocation_endpoint` that is not a URL') });
    expect(as.requests.filter((request) => request.method === 'POST')).toEqual([]);
  });

  it('refuses metadata that names another issuer (mix-up) before sending a token', async () => {
    const as = server(accepting, issuerMetadata('https://other.example', { revocation_endpoint: REVOKE }));
    expect((await errorOf(revokeTokenSet(tokens(), { fetch: as.fetch }))).code).toBe('AUTH_FAILED');
    expect(as.to(REVOKE)).toEqual([]);
  });

  it('says which OAuth error the revocation endpoint answered', async () => {
    const as = server(() => oauthJson({ error: 'unsupported_token_type' }, 400));
    const error = await errorOf(revokeTokenSet(tokens(), { fetch: as.fetch, registrationStore: createMemoryClientRegistrationStore() }));
    expect(error.message).toContain('(status 400, unsupported_token_type)');
  });

  it('refuses tokens whose issuer is not a URL with AUTH_FAILED naming it, sending nothing', async () => {
    const as = server();
    const error = await errorOf(revokeTokenSet(tokens({ issuer: 'auth.example.com' }), { fetch: as.fetch }));
    expect(error).toMatchObject({ code: 'AUTH_FAILED', message: expect.stringContaining('"auth.example.com"') });
    expect(as.requests).toEqual([]);
  });

  it.each([
    ['a server error', () => oauthJson({ error: 'server_error' }, 500)],
    ['a refusal echoing the token', () => oauthJson({ error: 'invalid_request', error_description: 'bad token refresh-1' }, 400)],
    ['a dropped connection', () => Promise.reject(new TypeError('fetch failed: socket hang up refresh-1'))],
  ])('reports %s as AUTH_FAILED naming the endpoint and which token, never the token itself', async (_name, revoke) => {
    const as = server(revoke as AuthorizationRoute);
    const error = await errorOf(revokeTokenSet(tokens(), { fetch: as.fetch, registrationStore: createMemoryClientRegistrationStore() }));
    expect(error.code).toBe('AUTH_FAILED');
    expect(error.message).toContain(`Revoking the refresh token at ${REVOKE} failed`);
    expect(error.message).not.toContain('refresh-1');
    expect(error.message).not.toContain('access-1');
  });
});

describe('revokeUserTokens', () => {
  const key = { user: 'default', resource: 'https://api.example.com/v2' };

  it('revokes every set under the key, deletes them all, and lists why the others were not revoked', async () => {
    const tokenStore = createMemoryTokenStore();
    await tokenStore.put(key, tokens({ accessToken: 'a-read', refreshToken: 'r-read', scopes: ['read'] }));
    await tokenStore.put(key, tokens({ accessToken: 'a-write', refreshToken: 'r-write', scopes: ['write'] }));
    await tokenStore.put(key, tokens({ accessToken: 'a-other', refreshToken: undefined, scopes: ['other'], issuer: 'https://no-revocation.example' }));
    const as = injectedAuthorizationServer({
      [RFC8414]: issuerMetadata(),
      [REVOKE]: (request) => (request.form.get('token') === 'r-write' ? oauthJson({ error: 'server_error' }, 503) : new Response(null, { status: 200 })),
      'https://no-revocation.example/.well-known/oauth-authorization-server': issuerMetadata('https://no-revocation.example', { revocation_endpoint: undefined }),
    });
    const result = await revokeUserTokens({ tokenStore, key, fetch: as.fetch, registrationStore: createMemoryClientRegistrationStore() });
    expect(result.deleted).toBe(3);
    expect(result.revoked).toBe(1);
    expect(result.failures).toHaveLength(2);
    expect(result.failures.join('\n')).toContain('Revoking the refresh token');
    expect(result.failures.join('\n')).toContain('https://no-revocation.example offers no revocation endpoint');
    expect(result.failures.join('\n')).not.toMatch(/a-write|r-write/);
    expect(await tokenStore.get(key)).toEqual([]);
  });

  it('deletes nothing and revokes nothing when the key holds no tokens', async () => {
    const as = server();
    expect(await revokeUserTokens({ tokenStore: createMemoryTokenStore(), key, fetch: as.fetch })).toEqual({ deleted: 0, revoked: 0, failures: [] });
    expect(as.requests).toEqual([]);
  });
});
