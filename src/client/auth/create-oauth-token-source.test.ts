import { describe, expect, it } from 'vitest';
import { errorOf } from '../../../test/helpers/error-of.js';
import {
  API_ORIGIN,
  basicCredentials,
  injectedAuthorizationServer,
  ISSUER,
  issuerMetadata,
  oauthJson,
  protectedResource,
  TOKEN_ENDPOINT,
  type AuthorizationRoute,
} from '../../../test/helpers/injected-authorization-server.js';
import { createOAuthTokenSource, type OAuthTokenSourceOptions } from './create-oauth-token-source.js';

const DISCOVERY = `${API_ORIGIN}/.well-known/oauth-protected-resource/v1`;

/** A token endpoint answering access tokens `token-1`, `token-2`, … valid for `expiresInSeconds` (`null`: no `expires_in`). */
function issuing(expiresInSeconds: number | null = 3600): AuthorizationRoute {
  let issued = 0;
  return () => oauthJson({ access_token: `token-${++issued}`, token_type: 'Bearer', ...(expiresInSeconds === null ? {} : { expires_in: expiresInSeconds }) });
}

function server(token: AuthorizationRoute = issuing(), metadata = issuerMetadata()) {
  return injectedAuthorizationServer({
    [DISCOVERY]: protectedResource(ISSUER, '/v1'),
    [`${ISSUER}/.well-known/oauth-authorization-server`]: metadata,
    [TOKEN_ENDPOINT]: token,
  });
}

function source(fetch: OAuthTokenSourceOptions['fetch'], overrides: Partial<OAuthTokenSourceOptions> = {}) {
  let nowInMs = 1_000_000;
  const tokens = createOAuthTokenSource({
    clientId: 'client-a',
    clientSecret: 'secret-a',
    scopes: ['read', 'write'],
    providerDiscovery: DISCOVERY,
    resourceOrigin: API_ORIGIN,
    issuer: ISSUER,
    fetch,
    now: () => nowInMs,
    refreshBeforeExpiryInMs: 60_000,
    ...overrides,
  });
  return { tokens, advance: (byInMs: number) => (nowInMs += byInMs) };
}

describe('createOAuthTokenSource', () => {
  it('asks the token endpoint with the client secret in HTTP Basic, the scopes and the RFC 8707 resource the metadata named', async () => {
    const as = server();
    const { tokens } = source(as.fetch);
    expect(await tokens.getToken(false)).toBe('token-1');
    const [request] = as.to(TOKEN_ENDPOINT);
    expect(request?.method).toBe('POST');
    expect(request?.form.get('grant_type')).toBe('client_credentials');
    expect(request?.form.get('scope')).toBe('read write');
    expect(request?.form.get('resource')).toBe(`${API_ORIGIN}/v1`);
    expect(basicCredentials(request!)).toEqual({ clientId: 'client-a', clientSecret: 'secret-a' });
  });

  it('sends the client secret to the token endpoint only, never to a metadata URL', async () => {
    const as = server();
    await source(as.fetch).tokens.getToken(false);
    const withSecret = as.requests.filter((request) => request.headers.has('authorization') || request.form.has('client_secret'));
    expect(withSecret.map((request) => request.url)).toEqual([TOKEN_ENDPOINT]);
  });

  it('leaves out `scope` when no scopes are configured', async () => {
    const as = server();
    await source(as.fetch, { scopes: [] }).tokens.getToken(false);
    expect(as.to(TOKEN_ENDPOINT)[0]?.form.has('scope')).toBe(false);
  });

  it.each([
    { name: 'well before expiry', elapsedInMs: 3_000_000, requests: 1, token: 'token-1' },
    { name: 'inside the refresh margin', elapsedInMs: 3_540_001, requests: 2, token: 'token-2' },
    { name: 'after expiry', elapsedInMs: 3_700_000, requests: 2, token: 'token-2' },
  ])('keeps a token until the refresh margin before it expires ($name)', async ({ elapsedInMs, requests, token }) => {
    const as = server();
    const { tokens, advance } = source(as.fetch);
    await tokens.getToken(false);
    advance(elapsedInMs);
    expect(await tokens.getToken(false)).toBe(token);
    expect(as.to(TOKEN_ENDPOINT)).toHaveLength(requests);
    // Discovery ran once: the second token request reused the metadata.
    expect(as.to(DISCOVERY)).toHaveLength(1);
  });

  it('keeps a token without `expires_in` until a 401 forces a refresh', async () => {
    const as = server(issuing(null));
    const { tokens, advance } = source(as.fetch);
    await tokens.getToken(false);
    advance(365 * 24 * 3_600_000);
    expect(await tokens.getToken(false)).toBe('token-1');
    expect(await tokens.getToken(true)).toBe('token-2');
  });

  it('shares one token request among concurrent callers', async () => {
    const as = server();
    const { tokens } = source(as.fetch);
    expect(await Promise.all([tokens.getToken(false), tokens.getToken(false), tokens.getToken(true)])).toEqual(['token-1', 'token-1', 'token-1']);
    expect(as.to(TOKEN_ENDPOINT)).toHaveLength(1);
  });

  it('does not keep a failed discovery: the next call discovers again', async () => {
    let attempts = 0;
    const as = injectedAuthorizationServer({
      [DISCOVERY]: () => (++attempts === 1 ? oauthJson({ error: 'unavailable' }, 503) : oauthJson(protectedResource(ISSUER, '/v1'))),
      [`${ISSUER}/.well-known/oauth-authorization-server`]: issuerMetadata(),
      [TOKEN_ENDPOINT]: issuing(),
    });
    const { tokens } = source(as.fetch);
    expect(await errorOf(tokens.getToken(false))).toMatchObject({ code: 'AUTH_FAILED', message: expect.stringContaining(DISCOVERY) });
    expect(await tokens.getToken(false)).toBe('token-1');
    expect(as.to(DISCOVERY)).toHaveLength(2);
  });

  it.each([
    ['another origin', 'https://collector.example/token'],
    ['plain http on the issuer host', 'http://auth.example.com/token'],
    ['another port of the issuer', 'https://auth.example.com:8443/token'],
    ['a look-alike host', 'https://auth.example.com.evil.example/token'],
  ])('refuses a token endpoint on %s before sending the secret', async (_name, endpoint) => {
    const as = server(issuing(), issuerMetadata(ISSUER, { token_endpoint: endpoint }));
    const error = await errorOf(source(as.fetch).tokens.getToken(false));
    expect(error.code).toBe('AUTH_FAILED');
    expect(error.message).toContain(endpoint);
    expect(error.message).toContain('`oauth.issuer`');
    expect(as.requests.some((request) => !request.url.startsWith(API_ORIGIN) && !request.url.startsWith(ISSUER + '/'))).toBe(false);
    expect(as.requests.some((request) => request.headers.has('authorization'))).toBe(false);
  });

  it('refuses an authorization server whose metadata names another issuer (mix-up), asking no token', async () => {
    const as = server(issuing(), issuerMetadata('https://other-issuer.example'));
    expect((await errorOf(source(as.fetch).tokens.getToken(false))).code).toBe('AUTH_FAILED');
    expect(as.to(TOKEN_ENDPOINT)).toEqual([]);
  });

  it('refuses an authorization server on an origin the credentials are not bound to', async () => {
    const as = server();
    const error = await errorOf(source(as.fetch, { issuer: undefined }).tokens.getToken(false));
    expect(error).toMatchObject({ code: 'AUTH_FAILED', message: expect.stringContaining('set `oauth.issuer`') });
    expect(as.to(`${ISSUER}/.well-known/oauth-authorization-server`)).toEqual([]);
  });

  it.each([
    ['no access token', oauthJson({ token_type: 'Bearer', expires_in: 60 }), /access_token/],
    ['an access token that is not a string', oauthJson({ access_token: 42, token_type: 'Bearer' }), /access_token/],
    ['a token type that is not bearer', oauthJson({ access_token: 'x', token_type: 'mac' }), /token_type|unsupported/i],
    ['expires_in that is not a number', oauthJson({ access_token: 'x', token_type: 'Bearer', expires_in: 'soon' }), /expires_in/],
    ['a body that is not JSON', new Response('<html>oops</html>', { status: 200, headers: { 'content-type': 'text/html' } }), /JSON|content-type/i],
    ['a JSON array', oauthJson([]), /object|JSON/i],
  ])('reports %s from the token endpoint as AUTH_FAILED naming the endpoint, and caches nothing', async (_name, response, reason) => {
    let answered = 0;
    const as = server(() => (++answered === 1 ? response : oauthJson({ access_token: 'good', token_type: 'Bearer' })));
    const { tokens } = source(as.fetch);
    const error = await errorOf(tokens.getToken(false));
    expect(error.code).toBe('AUTH_FAILED');
    expect(error.message).toContain(`token request to ${TOKEN_ENDPOINT} failed`);
    expect(error.message).toMatch(reason);
    expect(error.message).not.toContain('secret-a');
    expect(await tokens.getToken(false)).toBe('good');
  });

  it.each([
    {
      name: 'invalid_client with its description',
      response: oauthJson({ error: 'invalid_client', error_description: 'Client authentication failed' }, 401),
      reason: 'status 401, invalid_client: Client authentication failed',
    },
    { name: 'invalid_scope without a description', response: oauthJson({ error: 'invalid_scope' }, 400), reason: 'status 400, invalid_scope)' },
    { name: 'a description too long to print', response: oauthJson({ error: 'invalid_request', error_description: 'y'.repeat(10_000) }, 400), reason: `invalid_request: ${'y'.repeat(200)})` },
  ])('says which OAuth error the token endpoint answered: $name', async ({ response, reason }) => {
    const error = await errorOf(source(server(() => response).fetch).tokens.getToken(false));
    expect(error).toMatchObject({ code: 'AUTH_FAILED', message: expect.stringContaining(reason) });
  });

  it('keeps the client secret out of the message when the token endpoint echoes it', async () => {
    const error = await errorOf(source(server(() => oauthJson({ error: 'invalid_client', error_description: 'secret-a is wrong' }, 401)).fetch).tokens.getToken(false));
    expect(error.message).toContain('invalid_client');
    expect(error.message).not.toContain('secret-a');
  });

  it.each([500, 502, 503])('names the status of a token endpoint that fails with %i', async (status) => {
    const error = await errorOf(source(server(() => oauthJson({ error: 'server_error' }, status)).fetch).tokens.getToken(false));
    expect(error.message).toContain(`status ${status})`);
  });

  it('names the status of metadata that cannot be read', async () => {
    const as = injectedAuthorizationServer({ [DISCOVERY]: () => oauthJson({}, 502) });
    expect((await errorOf(source(as.fetch).tokens.getToken(false))).message).toContain('status 502)');
  });
});
