import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { errorOf } from '../../../test/helpers/error-of.js';
import { API_ORIGIN, definedMembers, injectedAuthorizationServer, ISSUER, issuerMetadata, oauthJson, protectedResource } from '../../../test/helpers/injected-authorization-server.js';
import { createMemoryClientRegistrationStore } from '../shapes/client-registration-store.js';
import { startUserAuthorization, type StartUserAuthorizationOptions } from './start-user-authorization.js';

const DISCOVERY = `${API_ORIGIN}/.well-known/oauth-protected-resource/v2`;
const AS_METADATA = `${ISSUER}/.well-known/oauth-authorization-server`;
const REDIRECT = 'http://127.0.0.1:53682/callback';

function server(metadata: Record<string, unknown> = issuerMetadata(), resource: Record<string, unknown> = protectedResource(ISSUER, '/v2', { scopes_supported: ['read', 'write'] })) {
  return injectedAuthorizationServer({
    [DISCOVERY]: resource,
    [AS_METADATA]: metadata,
    [`${ISSUER}/register`]: () => oauthJson({ client_id: 'registered-client' }, 201),
  });
}

/** Starts an authorization as the CLI would; an override of `undefined` leaves the option out. */
function start(fetch: StartUserAuthorizationOptions['fetch'], overrides: { [Option in keyof StartUserAuthorizationOptions]?: StartUserAuthorizationOptions[Option] | undefined } = {}) {
  const merged = { origin: API_ORIGIN, discoveryUrl: DISCOVERY, issuer: ISSUER, redirectUri: REDIRECT, clientId: 'cli', fetch, ...overrides };
  return startUserAuthorization(definedMembers<StartUserAuthorizationOptions>(merged));
}

const s256 = (verifier: string): string => createHash('sha256').update(verifier).digest('base64url');

describe('startUserAuthorization', () => {
  it('builds the authorization URL with PKCE S256, state, the redirect URI, the scopes and the RFC 8707 resource', async () => {
    const pending = await start(server().fetch, { scopes: ['read'] });
    const url = new URL(pending.authorizationUrl);
    expect(url.origin + url.pathname).toBe(`${ISSUER}/authorize`);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      response_type: 'code',
      client_id: 'cli',
      redirect_uri: REDIRECT,
      scope: 'read',
      state: pending.state,
      code_challenge: s256(pending.codeVerifier),
      code_challenge_method: 'S256',
      resource: `${API_ORIGIN}/v2`,
    });
    expect(pending).toMatchObject({ origin: API_ORIGIN, redirectUri: REDIRECT, resource: `${API_ORIGIN}/v2`, scopes: ['read'], key: { user: 'default', resource: `${API_ORIGIN}/v2` } });
    expect(pending.authorizationServer.issuer).toBe(ISSUER);
  });

  it('keeps the verifier out of the URL and draws a fresh state and verifier each time', async () => {
    const as = server();
    const [first, second] = [await start(as.fetch), await start(as.fetch)];
    expect(first.authorizationUrl).not.toContain(first.codeVerifier);
    expect(first.state).not.toBe(second.state);
    expect(first.codeVerifier).not.toBe(second.codeVerifier);
    // RFC 7636 §4.1: 43 to 128 characters of the unreserved set.
    expect(first.codeVerifier).toMatch(/^[A-Za-z0-9._~-]{43,128}$/);
  });

  it.each([
    { name: 'the protected resource’s scopes_supported by default', scopes: undefined, resource: protectedResource(ISSUER, '/v2', { scopes_supported: ['a', 'b'] }), expected: 'a b' },
    { name: 'no scope parameter when none is known', scopes: undefined, resource: protectedResource(ISSUER, '/v2'), expected: null },
    { name: 'the scopes passed over scopes_supported', scopes: ['c'], resource: protectedResource(ISSUER, '/v2', { scopes_supported: ['a'] }), expected: 'c' },
  ])('requests $name', async ({ scopes, resource, expected }) => {
    const pending = await start(server(issuerMetadata(), resource).fetch, scopes === undefined ? {} : { scopes });
    expect(new URL(pending.authorizationUrl).searchParams.get('scope')).toBe(expected);
  });

  it('keys the tokens by the user given, and by the API origin when discovery names no resource', async () => {
    const as = injectedAuthorizationServer({ [`${API_ORIGIN}/.well-known/oauth-authorization-server`]: issuerMetadata(API_ORIGIN) });
    const pending = await start(as.fetch, { discoveryUrl: `${API_ORIGIN}/.well-known/oauth-authorization-server`, issuer: undefined, user: 'alice' });
    expect(pending.key).toEqual({ user: 'alice', resource: API_ORIGIN });
    expect(pending.resource).toBeUndefined();
    expect(new URL(pending.authorizationUrl).searchParams.has('resource')).toBe(false);
  });

  it('uses a pre-registered client without registering, keeping its secret out of the URL', async () => {
    const as = server();
    const pending = await start(as.fetch, { clientSecret: 'cli-secret' });
    expect(pending.client).toEqual({ clientId: 'cli', clientSecret: 'cli-secret', method: 'pre-registered' });
    expect(pending.authorizationUrl).not.toContain('cli-secret');
    expect(as.to(`${ISSUER}/register`)).toEqual([]);
  });

  it('registers a public client dynamically when no client id is given, with the redirect URI', async () => {
    const as = server();
    const pending = await start(as.fetch, { clientId: undefined, registrationStore: createMemoryClientRegistrationStore() });
    expect(pending.client).toEqual({ clientId: 'registered-client', method: 'dynamic-registration' });
    expect(new URL(pending.authorizationUrl).searchParams.get('client_id')).toBe('registered-client');
    const [registration] = as.to(`${ISSUER}/register`);
    expect(JSON.parse(registration!.body)).toMatchObject({ redirect_uris: [REDIRECT], grant_types: ['authorization_code', 'refresh_token'], token_endpoint_auth_method: 'none' });
  });

  it.each([
    { name: 'no authorization_endpoint', metadata: issuerMetadata(ISSUER, { authorization_endpoint: undefined }), reason: '`authorization_endpoint`' },
    { name: 'no code_challenge_methods_supported', metadata: issuerMetadata(ISSUER, { code_challenge_methods_supported: undefined }), reason: 'PKCE S256' },
    { name: 'only the plain PKCE method', metadata: issuerMetadata(ISSUER, { code_challenge_methods_supported: ['plain'] }), reason: 'PKCE S256' },
    { name: 'an authorization endpoint on a third origin', metadata: issuerMetadata(ISSUER, { authorization_endpoint: 'https://phish.example/authorize' }), reason: 'https://phish.example' },
    { name: 'another issuer in its metadata (mix-up)', metadata: issuerMetadata('https://other.example'), reason: 'unusable' },
  ])('refuses an authorization server with $name, registering nothing', async ({ metadata, reason }) => {
    const as = server(metadata);
    const error = await errorOf(start(as.fetch, { clientId: undefined, registrationStore: createMemoryClientRegistrationStore() }));
    expect(error.code).toBe('AUTH_FAILED');
    expect(error.message).toContain(reason);
    expect(as.to(`${ISSUER}/register`)).toEqual([]);
  });

  it('refuses protected-resource metadata naming an authorization server the user did not vouch for, naming `issuer`', async () => {
    const as = server(issuerMetadata(), protectedResource('https://other-as.example', '/v2'));
    const error = await errorOf(start(as.fetch));
    expect(error).toMatchObject({ code: 'AUTH_FAILED', message: expect.stringContaining('set `issuer`') });
    expect(as.requests.map((request) => new URL(request.url).origin)).toEqual([API_ORIGIN]);
  });

  it('refuses a registration endpoint on a third origin before posting to it', async () => {
    const as = server(issuerMetadata(ISSUER, { registration_endpoint: 'https://collector.example/register' }));
    const error = await errorOf(start(as.fetch, { clientId: undefined, registrationStore: createMemoryClientRegistrationStore() }));
    expect(error).toMatchObject({ code: 'AUTH_FAILED', message: expect.stringContaining('registration endpoint') });
    expect(as.requests.some((request) => request.method === 'POST')).toBe(false);
  });

  it.each([
    ['an authorization_endpoint that is a number', { authorization_endpoint: 42 }],
    ['an authorization_endpoint that is not a URL', { authorization_endpoint: 'not a url' }],
    ['a registration_endpoint that is a number', { registration_endpoint: 42 }],
    ['code_challenge_methods_supported as a string', { code_challenge_methods_supported: 'S256' }],
  ])('refuses authorization-server metadata with %s as AUTH_FAILED', async (_name, members) => {
    const as = server(issuerMetadata(ISSUER, members));
    const error = await errorOf(start(as.fetch, { clientId: undefined, registrationStore: createMemoryClientRegistrationStore() }));
    expect(error.code).toBe('AUTH_FAILED');
    expect(as.requests.some((request) => request.method === 'POST')).toBe(false);
  });
});
