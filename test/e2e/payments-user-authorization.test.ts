/**
 * The Payments example's user authorization server (`oidc-provider`), driven by a real OAuth client
 * (`oauth4webapi`) and a headless user (`loginAsUser`): discovery, dynamic registration, authorization
 * code with PKCE, the API's answers to user tokens, refresh rotation, revocation, the device grant and
 * the RFC 8414 metadata as the MCP SDK reads it.
 */
import * as oauth from 'oauth4webapi';
import { discoverAuthorizationServerMetadata } from '@modelcontextprotocol/client';
import { discoverAuthorizationServerMetadata as discoverWithSdkV1, discoverOAuthProtectedResourceMetadata } from '@modelcontextprotocol/sdk/client/auth.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_NATIVE_CLIENT, startPaymentsServer, type PaymentsServer } from '../../examples/payments/start-payments-server.js';
import { approveDevice, loginAsUser } from '../../examples/payments/login-as-user.js';

const REDIRECT_URI = 'http://127.0.0.1:53682/callback';
let payments: PaymentsServer;
let as: oauth.AuthorizationServer;
const allowInsecure = { [oauth.allowInsecureRequests]: true };

beforeAll(async () => {
  payments = await startPaymentsServer({ authorization: { accessTokenTtlInSeconds: 60 } });
  const issuer = new URL(payments.origin);
  as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...allowInsecure }));
});

afterAll(async () => {
  await payments.close();
});

interface Tokens {
  access_token: string;
  refresh_token?: string;
  scope?: string;
}

/** Authorization code + PKCE for `user`, as a CLI would run it. */
async function authorize(client: oauth.Client, user: string, password: string, scope: string): Promise<Tokens> {
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = new URL(as.authorization_endpoint!);
  url.search = new URLSearchParams({
    client_id: client.client_id,
    redirect_uri: REDIRECT_URI,
    response_type: 'code',
    scope,
    state,
    resource: payments.baseUrl,
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
  }).toString();
  const callbackUrl = await loginAsUser({ authorizationUrl: url, user, password });
  expect(callbackUrl.startsWith(REDIRECT_URI)).toBe(true);
  const parameters = oauth.validateAuthResponse(as, client, new URL(callbackUrl), state);
  const response = await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), parameters, REDIRECT_URI, verifier, { additionalParameters: { resource: payments.baseUrl }, ...allowInsecure });
  return (await oauth.processAuthorizationCodeResponse(as, client, response)) as Tokens;
}

function callSummary(accessToken: string): Promise<Response> {
  return fetch(`${payments.baseUrl}/accounts/12345/summary`, { headers: { Authorization: `Bearer ${accessToken}`, 'X-Agent-ID': 'user-test' } });
}

describe('Payments example: a real authorization server for users', () => {
  it('publishes one RFC 8414 document that the MCP SDK accepts, on the API origin', async () => {
    expect(payments.userAuthorization).toBe(true);
    const metadata = await discoverAuthorizationServerMetadata(new URL(payments.origin));
    expect(metadata).toMatchObject({
      issuer: payments.origin,
      response_types_supported: ['code'],
      code_challenge_methods_supported: ['S256'],
      registration_endpoint: `${payments.origin}/oauth/register`,
    });
    // The v1 SDK parses the documents with its own schemas: both are accepted as they are served.
    expect((await discoverOAuthProtectedResourceMetadata(new URL(payments.baseUrl))).authorization_servers).toEqual([payments.origin]);
    expect(await discoverWithSdkV1(new URL(payments.origin))).toMatchObject({
      issuer: payments.origin,
      device_authorization_endpoint: `${payments.origin}/oauth/device/auth`,
      revocation_endpoint: `${payments.origin}/oauth/revoke`,
    });
    expect(as.grant_types_supported).toEqual(expect.arrayContaining(['authorization_code', 'refresh_token', 'client_credentials', 'urn:ietf:params:oauth:grant-type:device_code']));
  });

  it('registers a public loopback client, logs alice in with PKCE, and the API accepts her token', async () => {
    const registration = await oauth.dynamicClientRegistrationRequest(
      as,
      { redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: 'none', grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], application_type: 'native' },
      allowInsecure,
    );
    const client = (await oauth.processDynamicClientRegistrationResponse(registration)) as oauth.Client;
    const tokens = await authorize(client, 'alice', 'alice-password', 'read offline_access');
    expect(tokens.scope?.split(' ')).toContain('read');
    const response = await callSummary(tokens.access_token);
    expect(response.status).toBe(200);
    expect(((await response.json()) as { account_id: string }).account_id).toBe('12345');
  });

  it('refuses confidential or non-loopback registrations', async () => {
    const cases = [
      {
        metadata: { redirect_uris: ['https://evil.example/cb'], token_endpoint_auth_method: 'none' },
        want: { error: 'invalid_redirect_uri', error_description: expect.stringContaining('loopback') as unknown },
      },
      {
        metadata: { redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: 'client_secret_basic' },
        want: { error: 'invalid_client_metadata', error_description: expect.stringContaining('public clients') as unknown },
      },
    ];
    for (const { metadata, want } of cases) {
      const response = await fetch(as.registration_endpoint!, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ application_type: 'native', ...metadata }) });
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject(want);
    }
  });

  it('answers 403 insufficient_scope naming the scope a user token lacks, and 401 with resource_metadata for a bad one', async () => {
    const tokens = await authorize({ client_id: DEMO_NATIVE_CLIENT.client_id, token_endpoint_auth_method: 'none' }, 'bob', 'bob-password', 'read');
    const close = await fetch(`${payments.baseUrl}/accounts/12345/close`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${tokens.access_token}`, 'X-Agent-ID': 'user-test', 'Idempotency-Key': 'k1', 'Content-Type': 'application/json' },
      body: '{"reason":"fraud"}',
    });
    expect(close.status).toBe(403);
    expect(close.headers.get('www-authenticate')).toBe('Bearer realm="payments", error="insufficient_scope", scope="admin"');
    const bad = await callSummary(`${tokens.access_token}x`);
    expect(bad.status).toBe(401);
    expect(bad.headers.get('www-authenticate')).toBe(`Bearer realm="payments", error="invalid_token", resource_metadata="${payments.origin}/.well-known/oauth-protected-resource/v2"`);
  });

  it('rotates refresh tokens, refuses a used one, and revokes', async () => {
    const client: oauth.Client = { client_id: DEMO_NATIVE_CLIENT.client_id, token_endpoint_auth_method: 'none' };
    const first = await authorize(client, 'alice', 'alice-password', 'read admin offline_access');
    expect(first.refresh_token).toBeDefined();
    const refreshed = (await oauth.processRefreshTokenResponse(as, client, await oauth.refreshTokenGrantRequest(as, client, oauth.None(), first.refresh_token!, allowInsecure))) as Tokens;
    expect(refreshed.refresh_token).toBeDefined();
    expect(refreshed.refresh_token).not.toBe(first.refresh_token);
    expect((await callSummary(refreshed.access_token)).status).toBe(200);
    const reused = await oauth.refreshTokenGrantRequest(as, client, oauth.None(), first.refresh_token!, allowInsecure);
    await expect(oauth.processRefreshTokenResponse(as, client, reused)).rejects.toMatchObject({ error: 'invalid_grant' });
    const second = await authorize(client, 'alice', 'alice-password', 'read offline_access');
    await oauth.processRevocationResponse(await oauth.revocationRequest(as, client, oauth.None(), second.refresh_token!, allowInsecure));
    expect((await callSummary(second.access_token)).status).toBe(401);
  });

  it('ends with access_denied when the user denies, or asks for a scope the user may not grant', async () => {
    const client: oauth.Client = { client_id: DEMO_NATIVE_CLIENT.client_id, token_endpoint_auth_method: 'none' };
    const url = (scope: string): URL => {
      const built = new URL(as.authorization_endpoint!);
      built.search = new URLSearchParams({
        client_id: client.client_id,
        redirect_uri: REDIRECT_URI,
        response_type: 'code',
        scope,
        state: 's1',
        code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
        code_challenge_method: 'S256',
      }).toString();
      return built;
    };
    const denied = new URL(await loginAsUser({ authorizationUrl: url('read'), user: 'alice', password: 'alice-password', consent: false }));
    expect(denied.searchParams.get('error')).toBe('access_denied');
    const overreach = new URL(await loginAsUser({ authorizationUrl: url('read admin'), user: 'bob', password: 'bob-password' }));
    expect(overreach.searchParams.get('error')).toBe('access_denied');
    expect(overreach.searchParams.get('error_description')).toContain('bob may not grant admin');
    await expect(loginAsUser({ authorizationUrl: url('read'), user: 'bob', password: 'wrong' })).rejects.toThrow(/refused the login of "bob".*wrong password/);
  });

  it('runs the device authorization grant (RFC 8628)', async () => {
    const client: oauth.Client = { client_id: DEMO_NATIVE_CLIENT.client_id, token_endpoint_auth_method: 'none' };
    const device = await oauth.processDeviceAuthorizationResponse(
      as,
      client,
      await oauth.deviceAuthorizationRequest(as, client, oauth.None(), new URLSearchParams({ scope: 'read', resource: payments.baseUrl }), allowInsecure),
    );
    const pending = await oauth.deviceCodeGrantRequest(as, client, oauth.None(), device.device_code, allowInsecure);
    await expect(oauth.processDeviceCodeResponse(as, client, pending)).rejects.toMatchObject({ error: 'authorization_pending' });
    expect(device.verification_uri_complete).toContain(`${payments.origin}/oauth/device`);
    expect(await approveDevice({ verificationUri: device.verification_uri_complete!, user: 'alice', password: 'alice-password' })).toBe('approved');
    const tokens = (await oauth.processDeviceCodeResponse(as, client, await oauth.deviceCodeGrantRequest(as, client, oauth.None(), device.device_code, allowInsecure))) as Tokens;
    expect((await callSummary(tokens.access_token)).status).toBe(200);
  });

  it('refuses the device grant when its user cancels', async () => {
    const client: oauth.Client = { client_id: DEMO_NATIVE_CLIENT.client_id, token_endpoint_auth_method: 'none' };
    const device = await oauth.processDeviceAuthorizationResponse(as, client, await oauth.deviceAuthorizationRequest(as, client, oauth.None(), new URLSearchParams({ scope: 'read' }), allowInsecure));
    expect(await approveDevice({ verificationUri: device.verification_uri_complete!, user: 'alice', password: 'alice-password', consent: false })).toBe('denied');
    const refused = await oauth.deviceCodeGrantRequest(as, client, oauth.None(), device.device_code, allowInsecure);
    await expect(oauth.processDeviceCodeResponse(as, client, refused)).rejects.toMatchObject({ error: 'access_denied' });
  });
});
