import { beforeAll, describe, expect, it } from 'vitest';
import {
  completeUserAuthorization,
  createClient,
  createLoopbackRedirectReceiver,
  findResourceMetadataUrl,
  createMemoryTokenStore,
  startUserAuthorization,
  type AuditEvent,
} from '../../src/client/index.js';
import { errorOf } from '../helpers/error-of.js';
import { followAuthorizationRedirects, PRE_REGISTERED_CLIENT_ID, useProtectedApis, type OidcAuthorizationServer, type ProtectedApi } from '../helpers/oidc-authorization-server.js';

const servers = useProtectedApis('User API');
let authorizationServer: OidcAuthorizationServer;
let api: ProtectedApi;
beforeAll(() => {
  ({
    authorizationServer,
    apis: { 'User API': api },
  } = servers);
});

describe('user authorization: authorization code with PKCE against a real authorization server', () => {
  it('logs in headlessly through the loopback receiver and calls a tool with the user token', async () => {
    const tokenStore = createMemoryTokenStore();
    // Discovery starts from the API's own 401 (RFC 9728 `resource_metadata`).
    const challenge = await fetch(`${api.origin}/api/whoami`);
    expect(challenge.status).toBe(401);
    const discoveryUrl = findResourceMetadataUrl(challenge.headers.get('www-authenticate'))!;
    expect(discoveryUrl).toBe(api.resourceMetadataUrl);
    const receiver = await createLoopbackRedirectReceiver();
    const pending = await startUserAuthorization({
      origin: api.origin,
      discoveryUrl,
      issuer: authorizationServer.issuer,
      redirectUri: receiver.redirectUri,
      clientId: PRE_REGISTERED_CLIENT_ID,
      scopes: ['read'],
    });
    const authorizationUrl = new URL(pending.authorizationUrl);
    expect(Object.fromEntries(authorizationUrl.searchParams)).toMatchObject({
      response_type: 'code',
      client_id: PRE_REGISTERED_CLIENT_ID,
      scope: 'read',
      code_challenge_method: 'S256',
      resource: api.resource,
      state: pending.state,
    });
    const redirect = await followAuthorizationRedirects(pending.authorizationUrl);
    // The browser lands on the receiver, which answers it with a plain page.
    const page = await fetch(redirect);
    expect(page.headers.get('content-type')).toContain('text/plain');
    const callbackUrl = await receiver.waitForCallback();
    const { key, tokens } = await completeUserAuthorization(pending, callbackUrl, { tokenStore });
    expect(key).toEqual({ user: 'default', resource: api.resource });
    expect(tokens).toMatchObject({ scopes: ['read'], issuer: authorizationServer.issuer, clientId: PRE_REGISTERED_CLIENT_ID });
    expect(tokens.refreshToken).toEqual(expect.any(String));
    expect(await tokenStore.get(key)).toEqual([tokens]);

    const audit: AuditEvent[] = [];
    const client = createClient({ cache: false, network: { allow: [authorizationServer.issuer] }, onAudit: (event) => audit.push(event) });
    try {
      await client.discover(api.origin, { credentials: { user: { tokenStore, issuer: authorizationServer.issuer } } });
      const result = await client.call('whoami');
      expect(result.error?.message).toBeUndefined();
      // The API echoed the token: the client registered it with its redactor, so the envelope does not carry it.
      expect(result.data).toEqual({ sub: 'alice', scopes: ['read'], authorization: 'Bearer [REDACTED]' });
      expect(JSON.stringify(result)).not.toContain(tokens.accessToken);
      expect(api.authorizations.at(-1)).toBe(`Bearer ${tokens.accessToken}`);
      const serialized = JSON.stringify(audit);
      expect(serialized).not.toContain(tokens.accessToken);
      expect(serialized).not.toContain(tokens.refreshToken);
    } finally {
      await client.close();
    }
  });

  it('refuses a callback whose state differs, naming the mismatch, and exchanges no code', async () => {
    const pending = await startUserAuthorization({
      origin: api.origin,
      discoveryUrl: api.resourceMetadataUrl,
      issuer: authorizationServer.issuer,
      redirectUri: 'http://127.0.0.1:1/callback',
      clientId: PRE_REGISTERED_CLIENT_ID,
      scopes: ['read'],
    });
    const callback = new URL(await followAuthorizationRedirects(pending.authorizationUrl));
    const code = callback.searchParams.get('code')!;
    callback.searchParams.set('state', 'forged-state');
    const before = authorizationServer.grants['authorization_code'] ?? 0;
    const error = await errorOf(completeUserAuthorization(pending, callback, { tokenStore: createMemoryTokenStore() }));
    expect(error).toMatchObject({ code: 'AUTH_FAILED' });
    expect(error.message).toMatch(/`state` does not match/);
    expect(error.message).not.toContain(code);
    expect(authorizationServer.grants['authorization_code'] ?? 0).toBe(before);
  });

  it('registers a client dynamically (RFC 7591) when no client id is given, once per issuer', async () => {
    const before = authorizationServer.registrations;
    const first = await startUserAuthorization({
      origin: api.origin,
      discoveryUrl: api.resourceMetadataUrl,
      issuer: authorizationServer.issuer,
      redirectUri: 'http://127.0.0.1:1111/callback',
      scopes: ['read'],
    });
    expect(first.client.method).toBe('dynamic-registration');
    expect(first.client.clientId).not.toBe(PRE_REGISTERED_CLIENT_ID);
    // Another loopback port is the same redirect URI to the server (RFC 8252 §7.3): no new registration.
    const second = await startUserAuthorization({
      origin: api.origin,
      discoveryUrl: api.resourceMetadataUrl,
      issuer: authorizationServer.issuer,
      redirectUri: 'http://127.0.0.1:2222/callback',
      scopes: ['read'],
    });
    expect(second.client.clientId).toBe(first.client.clientId);
    expect(authorizationServer.registrations).toBe(before + 1);
    const tokenStore = createMemoryTokenStore();
    const { tokens } = await completeUserAuthorization(second, await followAuthorizationRedirects(second.authorizationUrl), { tokenStore });
    expect(tokens.clientId).toBe(first.client.clientId);
  });

  it('refuses an authorization server off the API origin unless `issuer` names it', async () => {
    const error = await errorOf(startUserAuthorization({ origin: api.origin, discoveryUrl: api.resourceMetadataUrl, redirectUri: 'http://127.0.0.1:1/callback', clientId: PRE_REGISTERED_CLIENT_ID }));
    expect(error).toMatchObject({ code: 'AUTH_FAILED' });
    expect(error.message).toContain('`issuer`');
  });

  it('times out the loopback receiver with a typed error', async () => {
    const receiver = await createLoopbackRedirectReceiver({ timeoutInMs: 20 });
    const error = await errorOf(receiver.waitForCallback());
    expect(error).toMatchObject({ code: 'TIMEOUT' });
    expect(error.message).toContain(receiver.redirectUri);
  });
});
