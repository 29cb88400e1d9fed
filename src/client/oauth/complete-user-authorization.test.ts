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
import { createMemoryTokenStore } from './create-memory-token-store.js';
import { completeUserAuthorization } from './complete-user-authorization.js';
import { startUserAuthorization, type PendingUserAuthorization } from './start-user-authorization.js';

const DISCOVERY = `${API_ORIGIN}/.well-known/oauth-protected-resource/v2`;
const REDIRECT = 'http://127.0.0.1:53682/callback';
const NOW = 5_000_000;

const granting: AuthorizationRoute = () => oauthJson({ access_token: 'access-1', refresh_token: 'refresh-1', token_type: 'Bearer', expires_in: 600, scope: 'read' });

function server(token: AuthorizationRoute = granting, metadata = issuerMetadata()) {
  return injectedAuthorizationServer({
    [DISCOVERY]: protectedResource(ISSUER, '/v2'),
    [`${ISSUER}/.well-known/oauth-authorization-server`]: metadata,
    [TOKEN_ENDPOINT]: token,
  });
}

async function pendingFor(as: ReturnType<typeof server>, clientSecret?: string): Promise<PendingUserAuthorization> {
  return startUserAuthorization({
    origin: API_ORIGIN,
    discoveryUrl: DISCOVERY,
    issuer: ISSUER,
    redirectUri: REDIRECT,
    clientId: 'cli',
    ...(clientSecret === undefined ? {} : { clientSecret }),
    scopes: ['read', 'write'],
    fetch: as.fetch,
  });
}

function callback(parameters: Record<string, string>): string {
  return `${REDIRECT}?${new URLSearchParams(parameters)}`;
}

describe('completeUserAuthorization', () => {
  it('exchanges the code with the PKCE verifier, the redirect URI and the resource, and stores the tokens under the pending key', async () => {
    const as = server();
    const pending = await pendingFor(as);
    const tokenStore = createMemoryTokenStore();
    const done = await completeUserAuthorization(pending, callback({ code: 'code-1', state: pending.state }), { tokenStore, fetch: as.fetch, now: () => NOW });
    const [request] = as.to(TOKEN_ENDPOINT);
    expect(Object.fromEntries(request!.form)).toMatchObject({
      grant_type: 'authorization_code',
      code: 'code-1',
      code_verifier: pending.codeVerifier,
      redirect_uri: REDIRECT,
      resource: `${API_ORIGIN}/v2`,
      client_id: 'cli',
    });
    expect(done.key).toEqual({ user: 'default', resource: `${API_ORIGIN}/v2` });
    expect(done.tokens).toEqual({ accessToken: 'access-1', refreshToken: 'refresh-1', expiresAtInMs: NOW + 600_000, scopes: ['read'], issuer: ISSUER, clientId: 'cli' });
    expect(await tokenStore.get(done.key)).toEqual([done.tokens]);
  });

  it('authenticates a confidential client with HTTP Basic and keeps the secret out of the form', async () => {
    const as = server();
    const pending = await pendingFor(as, 'cli-secret');
    await completeUserAuthorization(pending, callback({ code: 'c', state: pending.state }), { tokenStore: createMemoryTokenStore(), fetch: as.fetch });
    const [request] = as.to(TOKEN_ENDPOINT);
    expect(basicCredentials(request!)).toEqual({ clientId: 'cli', clientSecret: 'cli-secret' });
    expect(request!.body).not.toContain('cli-secret');
  });

  it('records the requested scopes when the token response does not say which were granted', async () => {
    const as = server(() => oauthJson({ access_token: 'a', token_type: 'Bearer' }));
    const pending = await pendingFor(as);
    const { tokens } = await completeUserAuthorization(pending, new URL(callback({ code: 'c', state: pending.state })), { tokenStore: createMemoryTokenStore(), fetch: as.fetch });
    expect(tokens).toEqual({ accessToken: 'a', scopes: ['read', 'write'], issuer: ISSUER, clientId: 'cli' });
  });

  it.each([
    { name: 'no state', parameters: { code: 'c' }, reason: 'is missing' },
    { name: 'another state', parameters: { code: 'c', state: 'forged' }, reason: 'does not match' },
  ])('refuses a callback with $name before any token request (a forged or stale redirect)', async ({ parameters, reason }) => {
    const as = server();
    const pending = await pendingFor(as);
    const tokenStore = createMemoryTokenStore();
    const error = await errorOf(completeUserAuthorization(pending, callback(parameters), { tokenStore, fetch: as.fetch }));
    expect(error.code).toBe('AUTH_FAILED');
    expect(error.message).toContain(reason);
    expect(error.message).toContain('Start the authorization again');
    expect(as.to(TOKEN_ENDPOINT)).toEqual([]);
    expect(await tokenStore.get(pending.key)).toEqual([]);
  });

  it.each([
    { name: 'an error the user caused', parameters: { error: 'access_denied', error_description: 'The user said no' }, reason: 'access_denied: The user said no' },
    { name: 'an error without a description', parameters: { error: 'invalid_scope' }, reason: '(invalid_scope)' },
    { name: 'a description too long to print', parameters: { error: 'server_error', error_description: 'x'.repeat(5000) }, reason: `server_error: ${'x'.repeat(200)})` },
  ])('reports $name in the callback as AUTH_FAILED, asking no token', async ({ parameters, reason }) => {
    const as = server();
    const pending = await pendingFor(as);
    const error = await errorOf(completeUserAuthorization(pending, callback({ ...parameters, state: pending.state }), { tokenStore: createMemoryTokenStore(), fetch: as.fetch }));
    expect(error.code).toBe('AUTH_FAILED');
    expect(error.message).toContain(`did not authorize ${API_ORIGIN}`);
    expect(error.message).toContain(reason);
    expect(error.message.length).toBeLessThan(600);
    expect(as.to(TOKEN_ENDPOINT)).toEqual([]);
  });

  it('refuses a callback whose `iss` names another authorization server (RFC 9207 mix-up)', async () => {
    const as = server(granting, issuerMetadata(ISSUER, { authorization_response_iss_parameter_supported: true }));
    const pending = await pendingFor(as);
    const forged = callback({ code: 'c', state: pending.state, iss: 'https://attacker.example' });
    expect((await errorOf(completeUserAuthorization(pending, forged, { tokenStore: createMemoryTokenStore(), fetch: as.fetch }))).code).toBe('AUTH_FAILED');
    expect(as.to(TOKEN_ENDPOINT)).toEqual([]);
  });

  it('refuses a token endpoint on a third origin before sending the code and verifier', async () => {
    const as = server(granting, issuerMetadata(ISSUER, { token_endpoint: 'https://collector.example/token' }));
    const pending = await pendingFor(as);
    const error = await errorOf(completeUserAuthorization(pending, callback({ code: 'c', state: pending.state }), { tokenStore: createMemoryTokenStore(), fetch: as.fetch }));
    expect(error).toMatchObject({ code: 'AUTH_FAILED', message: expect.stringContaining('https://collector.example/token') });
    expect(as.requests.filter((request) => request.method === 'POST')).toEqual([]);
  });

  it.each([
    ['no access token', oauthJson({ token_type: 'Bearer' })],
    ['a token type that is not bearer', oauthJson({ access_token: 'a', token_type: 'pop' })],
    ['a refresh token that is not a string', oauthJson({ access_token: 'a', token_type: 'Bearer', refresh_token: 7 })],
    ['a scope that is not a string', oauthJson({ access_token: 'a', token_type: 'Bearer', scope: ['read'] })],
    ['HTML instead of JSON', new Response('<h1>login</h1>', { headers: { 'content-type': 'text/html' } })],
  ])('stores nothing and names the token endpoint when the token response has %s; the code and verifier stay out of the message', async (_name, response) => {
    const as = server(() => response);
    const pending = await pendingFor(as);
    const tokenStore = createMemoryTokenStore();
    const error = await errorOf(completeUserAuthorization(pending, callback({ code: 'the-code-value', state: pending.state }), { tokenStore, fetch: as.fetch }));
    expect(error.code).toBe('AUTH_FAILED');
    expect(error.message).toContain(`token request to ${TOKEN_ENDPOINT} failed`);
    expect(error.message).not.toContain('the-code-value');
    expect(error.message).not.toContain(pending.codeVerifier);
    expect(await tokenStore.get(pending.key)).toEqual([]);
  });

  it('says which OAuth error the token endpoint answered (an expired or reused code is invalid_grant)', async () => {
    const as = server(() => oauthJson({ error: 'invalid_grant', error_description: 'authorization code expired' }, 400));
    const pending = await pendingFor(as);
    const error = await errorOf(completeUserAuthorization(pending, callback({ code: 'c', state: pending.state }), { tokenStore: createMemoryTokenStore(), fetch: as.fetch }));
    expect(error).toMatchObject({ code: 'AUTH_FAILED', message: expect.stringContaining('(status 400, invalid_grant: authorization code expired)') });
  });
});
