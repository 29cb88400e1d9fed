import type * as oauth from 'oauth4webapi';
import { describe, expect, it } from 'vitest';
import { errorOf } from '../../../test/helpers/error-of.js';
import { createAuthorizationBinding } from './discover-authorization-server.js';
import { createMemoryClientRegistrationStore } from '../shapes/client-registration-store.js';
import { resolveClientIdentity, type UserClientOptions } from './resolve-client-identity.js';

const issuer = 'https://idp.example';
const binding = createAuthorizationBinding('https://api.example', issuer, '`issuer`', "the user's authorization");
const documentUrl = 'https://app.example/oauth/client.json';
const DEVICE_CODE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

/** A fetch that answers registration requests and records them. */
function registrationServer(): { fetch: (input: string | URL, init?: RequestInit) => Promise<Response>; bodies: unknown[] } {
  const bodies: unknown[] = [];
  return {
    bodies,
    fetch: async (_input, init) => {
      bodies.push(JSON.parse(String(init?.body)));
      return Response.json({ client_id: `registered-${bodies.length}` }, { status: 201 });
    },
  };
}

describe('resolveClientIdentity', () => {
  const everything: oauth.AuthorizationServer = { issuer, registration_endpoint: `${issuer}/register`, client_id_metadata_document_supported: true };
  it.each<[string, UserClientOptions, oauth.AuthorizationServer, string]>([
    ['a pre-registered client first, whatever the server offers', { clientId: 'mine', clientMetadataDocumentUrl: documentUrl }, everything, 'pre-registered'],
    ['a client ID metadata document before dynamic registration', { clientMetadataDocumentUrl: documentUrl }, everything, 'client-id-metadata-document'],
    [
      'dynamic registration when the server does not take metadata documents',
      { clientMetadataDocumentUrl: documentUrl },
      { issuer, registration_endpoint: `${issuer}/register` },
      'dynamic-registration',
    ],
  ])('picks %s (the MCP 2025-11-25 order)', async (_name, client, as, method) => {
    const server = registrationServer();
    const identity = await resolveClientIdentity({
      client: { ...client, registrationStore: createMemoryClientRegistrationStore() },
      as,
      redirectUri: 'http://127.0.0.1:5000/callback',
      binding,
      fetch: server.fetch,
    });
    expect(identity.method).toBe(method);
    if (method === 'client-id-metadata-document') expect(identity.clientId).toBe(documentUrl);
    expect(server.bodies).toHaveLength(method === 'dynamic-registration' ? 1 : 0);
  });

  it('registers a public native client and reuses the stored registration on another loopback port', async () => {
    const server = registrationServer();
    const registrationStore = createMemoryClientRegistrationStore();
    const as = { issuer, registration_endpoint: `${issuer}/register` };
    const first = await resolveClientIdentity({ client: { registrationStore }, as, redirectUri: 'http://127.0.0.1:5000/callback', binding, fetch: server.fetch });
    const second = await resolveClientIdentity({ client: { registrationStore }, as, redirectUri: 'http://127.0.0.1:6000/callback', binding, fetch: server.fetch });
    expect(second).toEqual(first);
    expect(server.bodies).toEqual([
      expect.objectContaining({
        token_endpoint_auth_method: 'none',
        application_type: 'native',
        redirect_uris: ['http://127.0.0.1:5000/callback'],
        grant_types: ['authorization_code', 'refresh_token'],
      }),
    ]);
    expect(await registrationStore.list(issuer)).toEqual([first]);
  });

  it('keeps one registration per grant set: the device grant registers its own client (no redirect URI), and each is reused for its own grants only', async () => {
    const server = registrationServer();
    const registrationStore = createMemoryClientRegistrationStore();
    const as = { issuer, registration_endpoint: `${issuer}/register` };
    const deviceGrants = [DEVICE_CODE_GRANT, 'refresh_token'];
    const browser = await resolveClientIdentity({ client: { registrationStore }, as, redirectUri: 'http://127.0.0.1:5000/callback', binding, fetch: server.fetch });
    const device = await resolveClientIdentity({ client: { registrationStore }, as, grantTypes: deviceGrants, binding, fetch: server.fetch });
    expect(device.clientId).not.toBe(browser.clientId);
    expect(device).toMatchObject({ method: 'dynamic-registration', grantTypes: deviceGrants });
    expect(server.bodies[1]).toEqual(expect.objectContaining({ grant_types: deviceGrants, redirect_uris: [], response_types: [], token_endpoint_auth_method: 'none' }));
    // Same grants in another order: the stored device client; the browser grants again: the browser client.
    expect(await resolveClientIdentity({ client: { registrationStore }, as, grantTypes: ['refresh_token', DEVICE_CODE_GRANT], binding, fetch: server.fetch })).toEqual(device);
    expect(await resolveClientIdentity({ client: { registrationStore }, as, redirectUri: 'http://127.0.0.1:7000/callback', binding, fetch: server.fetch })).toEqual(browser);
    expect(server.bodies).toHaveLength(2);
    expect(await registrationStore.list(issuer)).toEqual([browser, device]);
    // A browser registration stored before grant sets were recorded counts as the browser grants.
    const legacyStore = createMemoryClientRegistrationStore();
    await legacyStore.put(issuer, { clientId: 'legacy', method: 'dynamic-registration', redirectUris: ['http://127.0.0.1/callback'] });
    expect((await resolveClientIdentity({ client: { registrationStore: legacyStore }, as, redirectUri: 'http://127.0.0.1:8000/callback', binding, fetch: server.fetch })).clientId).toBe('legacy');
    expect((await resolveClientIdentity({ client: { registrationStore: legacyStore }, as, grantTypes: deviceGrants, binding, fetch: server.fetch })).clientId).toBe('registered-3');
  });

  it('refuses a registration endpoint off the bound origins, and a server with no way to get a client id', async () => {
    const server = registrationServer();
    const elsewhere = await errorOf(
      resolveClientIdentity({ client: {}, as: { issuer, registration_endpoint: 'https://evil.example/register' }, redirectUri: 'http://127.0.0.1:1/callback', binding, fetch: server.fetch }),
    );
    expect(elsewhere.message).toMatch(/registration endpoint https:\/\/evil\.example\/register/);
    const none = await errorOf(resolveClientIdentity({ client: {}, as: { issuer }, redirectUri: 'http://127.0.0.1:1/callback', binding, fetch: server.fetch }));
    expect(none).toMatchObject({ code: 'AUTH_FAILED' });
    expect(none.message).toContain('pass a pre-registered `clientId`');
    const notUrl = await errorOf(
      resolveClientIdentity({ client: { clientMetadataDocumentUrl: 'app.example/client.json' }, as: everything, redirectUri: 'http://127.0.0.1:1/callback', binding, fetch: server.fetch }),
    );
    expect(notUrl).toMatchObject({ code: 'AUTH_FAILED' });
    expect(notUrl.message).toContain('must be an https URL with a path');
    expect(server.bodies).toEqual([]);
  });
});
