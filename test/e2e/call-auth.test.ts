import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Client, ClientOptions, OriginCredentials } from '../../src/client/index.js';
import type { Auth, Tool } from '../../src/manifest/manifest-v0.js';
import { json, startClientTestServer, type ClientTestServer } from '../helpers/client-test-server.js';
import { callManifest, discoverCallService } from '../helpers/call-service.js';

const tools: Tool[] = [
  { id: 'whoami', path: '/whoami', method: 'GET', description: 'Echoes the caller', parameters: { url: { type: 'string' } } },
  { id: 'admin', path: '/admin', method: 'POST', description: 'Needs admin', errors: { insufficient_scope: { status: 403, context: 'Ask an administrator.' } } },
];

describe('credentials are bound to their exact origin', () => {
  let serverA: ClientTestServer;
  let serverB: ClientTestServer;
  let client: Client;
  const tokenA = `tokA-${randomUUID()}`;
  beforeAll(async () => {
    serverA = await startClientTestServer();
    serverB = await startClientTestServer();
    for (const server of [serverA, serverB]) server.routes.set('/api/whoami', (request, response) => json({ authorization: request.headers['authorization'] ?? null })(request, response, ''));
    client = await discoverCallService(serverA, callManifest(serverA.origin, tools, { service: { name: 'Service A', base_url: `${serverA.origin}/api` } }), {}, { credentials: { token: tokenA } });
    serverB.routes.set('/.well-known/ai-capabilities', json(callManifest(serverB.origin, tools, { service: { name: 'Service B', base_url: `${serverB.origin}/api` } })));
    await client.discover(serverB.origin);
  });
  afterAll(async () => {
    await client.close();
    await serverA.close();
    await serverB.close();
  });

  it('sends the token to its own origin', async () => {
    const result = await client.call('service_a__whoami');
    expect(serverA.hits('/api/whoami').at(-1)?.headers['authorization']).toBe(`Bearer ${tokenA}`);
    // The server echoed it: the credential stays out of the envelope.
    expect(result.data).toEqual({ authorization: 'Bearer [REDACTED]' });
  });

  it('never sends it to another origin, even when the arguments name the first one', async () => {
    const result = await client.call('service_b__whoami', { url: `${serverA.origin}/api/whoami` });
    expect(result.data).toEqual({ authorization: null });
    expect(JSON.stringify(serverB.requests)).not.toContain(tokenA);
  });
});

describe('API keys', () => {
  let server: ClientTestServer;
  const clients: Client[] = [];
  beforeAll(async () => {
    server = await startClientTestServer();
    server.routes.set('/api/whoami', (request, response) => json({ key: request.headers['x-api-key'] ?? request.headers['x-key'] ?? null, url: request.url })(request, response, ''));
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
  });
  afterAll(async () => {
    await server.close();
  });
  const open = async (auth: Auth, credentials: OriginCredentials): Promise<Client> => {
    const client = await discoverCallService(server, callManifest(server.origin, tools, { auth }), {}, { credentials });
    clients.push(client);
    return client;
  };

  it.each([
    ['a header named by auth.api_key', { type: 'api_key', api_key: { in: 'header', name: 'X-Key' } } as Auth, { key: 'k-1', url: '/api/whoami' }],
    ['the query parameter named by auth.api_key', { type: 'api_key', api_key: { in: 'query', name: 'key' } } as Auth, { key: null, url: '/api/whoami?key=k-1' }],
    ['X-API-Key when the manifest does not say', { type: 'bearer', supported_methods: ['api_key'] } as Auth, { key: 'k-1', url: '/api/whoami' }],
  ])('sends the key in %s', async (_name, auth, expected) => {
    const client = await open(auth, { apiKey: 'k-1' });
    expect((await client.call('whoami')).data).toEqual(expected);
  });
});

describe('OAuth 2 client credentials through provider_discovery', () => {
  let api: ClientTestServer;
  let authorizationServer: ClientTestServer;
  let tokenRequests: Array<{ authorization: string | undefined; body: string }>;
  let issued: string[];
  let accepted: Set<string>;
  let clock: number;
  const clients: Client[] = [];
  const secret = `secret-${randomUUID()}`;

  beforeAll(async () => {
    api = await startClientTestServer();
    authorizationServer = await startClientTestServer();
  });
  beforeEach(() => {
    tokenRequests = [];
    issued = [];
    accepted = new Set();
    clock = Date.parse('2026-01-01T00:00:00Z');
    api.requests.length = 0;
    authorizationServer.requests.length = 0;
    api.routes.set('/.well-known/oauth-protected-resource/api', json({ resource: `${api.origin}/api`, authorization_servers: [authorizationServer.origin] }));
    authorizationServer.routes.set('/.well-known/oauth-authorization-server', json({ issuer: authorizationServer.origin, token_endpoint: `${authorizationServer.origin}/token` }));
    authorizationServer.routes.set('POST /token', (request, response, body) => {
      tokenRequests.push({ authorization: request.headers['authorization'], body });
      const token = `at-${issued.length + 1}-${randomUUID()}`;
      issued.push(token);
      accepted.add(token);
      json({ access_token: token, token_type: 'Bearer', expires_in: 3600 }, { 'cache-control': 'no-store' })(request, response, body);
    });
    api.routes.set('/api/whoami', (request, response) => {
      const token = String(request.headers['authorization'] ?? '').replace(/^Bearer /, '');
      if (!accepted.has(token)) {
        response.writeHead(401, { 'www-authenticate': 'Bearer error="invalid_token"', 'content-type': 'application/json' });
        response.end('{}');
        return;
      }
      // Which token was used, without echoing it (an echoed credential is redacted from the envelope).
      json({ token: `#${issued.indexOf(token)}` })(request, response, '');
    });
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
  });
  afterAll(async () => {
    await api.close();
    await authorizationServer.close();
  });

  const open = async (providerDiscovery: string, options: ClientOptions = {}, issuer: string | null = authorizationServer.origin): Promise<Client> => {
    const auth: Auth = { type: 'oauth2', provider_discovery: providerDiscovery, scopes: { read: ['whoami'], admin: ['admin'] } };
    const client = await discoverCallService(
      api,
      callManifest(api.origin, tools, { auth }),
      // The authorization server is on loopback and not typed by the user: allow it explicitly.
      { network: { allow: [authorizationServer.origin] }, now: () => clock, ...options },
      // The credentials are bound to that authorization server (`oauth.issuer`): it is not on the API's origin.
      { credentials: { oauth: { clientId: 'agent-1', clientSecret: secret, ...(issuer === null ? {} : { issuer }) } } },
    );
    clients.push(client);
    return client;
  };

  it('discovers the authorization server, obtains a token once and reuses it', async () => {
    const client = await open(`${api.origin}/.well-known/oauth-protected-resource/api`);
    const first = await client.call('whoami');
    const second = await client.call('whoami');
    expect(first.ok).toBe(true);
    expect(first.data).toEqual({ token: '#0' });
    expect(second.data).toEqual({ token: '#0' });
    expect(tokenRequests).toHaveLength(1);
    const form = new URLSearchParams(tokenRequests[0]!.body);
    expect(form.get('grant_type')).toBe('client_credentials');
    expect(form.get('scope')).toBe('read admin');
    expect(form.get('resource')).toBe(`${api.origin}/api`);
    // client_secret_basic form-encodes both parts before base64 (RFC 6749 §2.3.1).
    const basic = Buffer.from(tokenRequests[0]!.authorization!.replace(/^Basic /, ''), 'base64').toString('utf8');
    expect(basic.split(':').map(decodeURIComponent)).toEqual(['agent-1', secret]);
  });

  it('refreshes the token shortly before it expires', async () => {
    const client = await open(`${api.origin}/.well-known/oauth-protected-resource/api`);
    await client.call('whoami');
    clock += 3_590_000;
    const later = await client.call('whoami');
    expect(tokenRequests).toHaveLength(2);
    expect(later.data).toEqual({ token: '#1' });
  });

  it('refreshes once and retries after a 401 with WWW-Authenticate', async () => {
    const client = await open(`${api.origin}/.well-known/oauth-protected-resource/api`);
    await client.call('whoami');
    accepted.clear();
    const result = await client.call('whoami');
    expect(result.ok).toBe(true);
    expect(result.meta.attempts).toBe(2);
    expect(tokenRequests).toHaveLength(2);
  });

  it('refreshes only once when the new token is rejected too', async () => {
    const client = await open(`${api.origin}/.well-known/oauth-protected-resource/api`);
    api.routes.set('/api/whoami', (request, response) => {
      response.writeHead(401, { 'www-authenticate': 'Bearer error="invalid_token"' });
      response.end();
    });
    const result = await client.call('whoami');
    expect(result.error).toMatchObject({ code: 'AUTH_FAILED', status: 401, declared: false });
    expect(api.hits('/api/whoami')).toHaveLength(2);
    expect(tokenRequests).toHaveLength(2);
  });

  it('never refreshes or escalates on insufficient_scope', async () => {
    const client = await open(`${api.origin}/.well-known/oauth-protected-resource/api`);
    api.routes.set('POST /api/admin', (request, response) => {
      response.writeHead(403, { 'www-authenticate': 'Bearer error="insufficient_scope", scope="admin"', 'content-type': 'application/json' });
      response.end('{}');
    });
    const result = await client.call('admin');
    expect(result.error).toMatchObject({ code: 'insufficient_scope', declared: true, retryable: false, userMessage: 'Ask an administrator.' });
    expect(api.hits('/api/admin')).toHaveLength(1);
    expect(tokenRequests).toHaveLength(1);
  });

  it('accepts RFC 8414 metadata named directly by provider_discovery', async () => {
    const client = await open(`${authorizationServer.origin}/.well-known/oauth-authorization-server`);
    expect((await client.call('whoami')).ok).toBe(true);
    // Without protected-resource metadata there is no resource to name.
    expect(new URLSearchParams(tokenRequests[0]!.body).has('resource')).toBe(false);
  });

  it.each([
    [
      'the issuer in the metadata differs from the one discovered',
      () => authorizationServer.routes.set('/.well-known/oauth-authorization-server', json({ issuer: 'https://evil.example', token_endpoint: `${authorizationServer.origin}/token` })),
      /issuer/,
    ],
    [
      'the protected-resource metadata names another resource',
      () => api.routes.set('/.well-known/oauth-protected-resource/api', json({ resource: `${api.origin}/other`, authorization_servers: [authorizationServer.origin] })),
      /resource/,
    ],
  ])('refuses to obtain a token when %s', async (_name, arrange, pattern) => {
    arrange();
    const client = await open(`${api.origin}/.well-known/oauth-protected-resource/api`);
    const result = await client.call('whoami');
    expect(result.error?.code).toBe('AUTH_FAILED');
    expect(result.error?.message).toMatch(pattern);
    expect(result.error?.message).not.toContain(secret);
    expect(tokenRequests).toHaveLength(0);
    expect(api.hits('/api/whoami')).toHaveLength(0);
  });

  it.each([
    ['RFC 8414 metadata named by provider_discovery', (): string => `${authorizationServer.origin}/.well-known/oauth-authorization-server`],
    ['protected-resource metadata listing it in authorization_servers', (): string => `${api.origin}/.well-known/oauth-protected-resource/api`],
  ])('sends the client secret to no authorization server off the API origin unless oauth.issuer names it: %s', async (_name, discovery) => {
    const client = await open(discovery(), {}, null);
    const result = await client.call('whoami');
    expect(result.error?.code).toBe('AUTH_FAILED');
    expect(result.error?.message).toContain('`oauth.issuer`');
    expect(result.error?.message).not.toContain(secret);
    expect(tokenRequests).toHaveLength(0);
    expect(authorizationServer.requests).toHaveLength(0);
  });

  it('refuses a token endpoint on a third origin even with oauth.issuer set', async () => {
    const third = await startClientTestServer();
    try {
      third.routes.set('/token', json({ access_token: 'evil-token', token_type: 'Bearer' }));
      authorizationServer.routes.set('/.well-known/oauth-authorization-server', json({ issuer: authorizationServer.origin, token_endpoint: `${third.origin}/token` }));
      const client = await open(`${authorizationServer.origin}/.well-known/oauth-authorization-server`, { network: { allow: [authorizationServer.origin, third.origin] } });
      const result = await client.call('whoami');
      expect(result.error?.code).toBe('AUTH_FAILED');
      expect(result.error?.message).toContain('token endpoint');
      expect(third.requests).toHaveLength(0);
    } finally {
      authorizationServer.routes.set('/.well-known/oauth-authorization-server', json({ issuer: authorizationServer.origin, token_endpoint: `${authorizationServer.origin}/token` }));
      await third.close();
    }
  });

  it('refuses protected-resource metadata for a resource on another origin before fetching anything', async () => {
    const client = await open(`${authorizationServer.origin}/.well-known/oauth-protected-resource/api`);
    const result = await client.call('whoami');
    expect(result.error?.code).toBe('AUTH_FAILED');
    expect(result.error?.message).toContain('not on the API');
    expect(authorizationServer.requests).toHaveLength(0);
  });

  it('passes forceRefresh to a tokenProvider after a 401', async () => {
    const calls: boolean[] = [];
    const client = await discoverCallService(
      api,
      callManifest(api.origin, tools),
      {},
      {
        credentials: {
          tokenProvider: ({ forceRefresh }) => {
            calls.push(forceRefresh);
            const token = `tp-${calls.length}`;
            if (forceRefresh) accepted.add(token);
            return token;
          },
        },
      },
    );
    clients.push(client);
    // Discovery asked for a token for the manifest request already.
    calls.length = 0;
    const result = await client.call('whoami');
    expect(result.ok).toBe(true);
    expect(calls).toEqual([false, true]);
  });
});

describe('pins cover how credentials travel', () => {
  let server: ClientTestServer;
  beforeAll(async () => {
    server = await startClientTestServer();
    server.routes.set('/api/whoami', json({ ok: true }));
  });
  afterAll(() => server.close());

  it.each([
    ['the API key moved to the query string', (auth: Auth): Auth => ({ ...auth, api_key: { in: 'query', name: 'api_key' } })],
    ['another provider_discovery', (auth: Auth): Auth => ({ ...auth, provider_discovery: 'https://idp.example/.well-known/oauth-authorization-server' })],
    ['a renamed agent id header', (auth: Auth): Auth => ({ ...auth, agent_identification: { requires_agent_id: false, id_header: 'X-Other-Agent' } })],
  ])('disables an approved tool after a restart when %s, sending nothing', async (_name, change) => {
    const pins = new Map<string, string>();
    const store = { get: (key: string) => pins.get(key), set: (key: string, value: string) => void pins.set(key, value), delete: (key: string) => void pins.delete(key) };
    const auth: Auth = { type: 'api_key', api_key: { in: 'header', name: 'X-Key' } };
    const first = await discoverCallService(server, callManifest(server.origin, tools, { auth }), { trust: { pins: store } }, { credentials: { apiKey: 'key-SECRET-9999' } });
    await first.approve('whoami');
    await first.close();
    server.requests.length = 0;
    const second = await discoverCallService(server, callManifest(server.origin, tools, { auth: change(auth) }), { trust: { pins: store } }, { credentials: { apiKey: 'key-SECRET-9999' } });
    try {
      expect(second.services()[0]?.disabledToolIds).toEqual(['whoami']);
      expect((await second.call('whoami')).error?.code).toBe('TOOL_DISABLED');
      expect(server.hits('/api/whoami')).toHaveLength(0);
      expect(JSON.stringify(server.requests)).not.toContain('key-SECRET-9999');
    } finally {
      await second.close();
    }
  });
});
