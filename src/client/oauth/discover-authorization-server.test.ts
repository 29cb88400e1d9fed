import { describe, expect, it } from 'vitest';
import { createAuthorizationBinding, discoverAuthorizationServer } from './discover-authorization-server.js';

type Documents = Record<string, unknown>;

/** A fetch over a table of URL → JSON document (a number is a status); records what was asked. */
function fakeFetch(documents: Documents) {
  const asked: string[] = [];
  const fetch = async (input: string | URL): Promise<Response> => {
    const url = String(input);
    asked.push(url);
    const document = documents[url];
    if (document === undefined) return new Response('{}', { status: 404, headers: { 'content-type': 'application/json' } });
    if (typeof document === 'number') return new Response(null, { status: document });
    return new Response(JSON.stringify(document), { status: 200, headers: { 'content-type': 'application/json' } });
  };
  return { fetch, asked };
}

const API = 'https://api.example.com';
const ISSUER = 'https://auth.example.com';
const issuerMetadata = { issuer: ISSUER, authorization_endpoint: `${ISSUER}/authorize`, token_endpoint: `${ISSUER}/token`, response_types_supported: ['code'] };

async function failure(run: () => Promise<unknown>): Promise<{ code?: string; message: string }> {
  const error = await run().then(
    () => undefined,
    (caught: unknown) => caught as { code?: string; message: string },
  );
  if (error === undefined) throw new Error('expected a refusal');
  return error;
}

describe('createAuthorizationBinding', () => {
  it('allows the API origin and the configured issuer origin only', () => {
    const binding = createAuthorizationBinding(API, `${ISSUER}/tenant`, '`oauth.issuer`', 'the client secret');
    expect(() => binding.check(new URL(`${API}/x`), 'token endpoint')).not.toThrow();
    expect(() => binding.check(new URL(`${ISSUER}/token`), 'token endpoint')).not.toThrow();
    for (const url of ['https://evil.example/token', 'http://api.example.com/token', 'https://api.example.com:8443/token', 'https://auth.example.com.evil.example/token']) {
      expect(() => binding.check(new URL(url), 'token endpoint')).toThrow(expect.objectContaining({ code: 'AUTH_FAILED', message: expect.stringContaining('`oauth.issuer`') }));
    }
  });

  it('refuses an issuer that is not a URL, naming the option', () => {
    expect(() => createAuthorizationBinding(API, 'auth.example.com', '`user.issuer`', 'x')).toThrow(
      expect.objectContaining({ code: 'AUTH_FAILED', message: expect.stringContaining('`user.issuer`') }),
    );
  });
});

describe('discoverAuthorizationServer', () => {
  const binding = () => createAuthorizationBinding(API, undefined, '`oauth.issuer`', 'the client secret');

  it('follows protected-resource metadata to its authorization server, keeping resource and scopes', async () => {
    const { fetch, asked } = fakeFetch({
      [`${API}/.well-known/oauth-protected-resource/v1`]: { resource: `${API}/v1`, authorization_servers: [API], scopes_supported: ['read'] },
      [`${API}/.well-known/oauth-authorization-server`]: { ...issuerMetadata, issuer: API },
    });
    const found = await discoverAuthorizationServer({ discoveryUrl: `${API}/.well-known/oauth-protected-resource/v1`, discoveryLabel: '`auth.provider_discovery`', binding: binding(), fetch });
    expect(found.as.issuer).toBe(API);
    expect(found.resource).toBe(`${API}/v1`);
    expect(found.scopesSupported).toEqual(['read']);
    expect(asked).toEqual([`${API}/.well-known/oauth-protected-resource/v1`, `${API}/.well-known/oauth-authorization-server`]);
  });

  it('refuses protected-resource metadata for a resource on another origin before any request', async () => {
    const { fetch, asked } = fakeFetch({});
    const error = await failure(() =>
      discoverAuthorizationServer({ discoveryUrl: 'https://evil.example/.well-known/oauth-protected-resource', discoveryLabel: '`resource_metadata`', binding: binding(), fetch }),
    );
    expect(error.code).toBe('AUTH_FAILED');
    expect(asked).toEqual([]);
  });

  it('refuses an authorization server on a third origin that metadata names, without asking it', async () => {
    const { fetch, asked } = fakeFetch({ [`${API}/.well-known/oauth-protected-resource`]: { resource: API, authorization_servers: ['https://evil.example'] } });
    const error = await failure(() =>
      discoverAuthorizationServer({ discoveryUrl: `${API}/.well-known/oauth-protected-resource`, discoveryLabel: '`auth.provider_discovery`', binding: binding(), fetch }),
    );
    expect(error).toMatchObject({ code: 'AUTH_FAILED', message: expect.stringContaining('https://evil.example') });
    expect(asked.some((url) => url.startsWith('https://evil.example'))).toBe(false);
  });

  it('refuses metadata whose resource is not the one its URL names (RFC 9728 section 3.3)', async () => {
    const { fetch } = fakeFetch({ [`${API}/.well-known/oauth-protected-resource`]: { resource: `${API}/other`, authorization_servers: [API] } });
    expect((await failure(() => discoverAuthorizationServer({ discoveryUrl: `${API}/.well-known/oauth-protected-resource`, discoveryLabel: 'x', binding: binding(), fetch }))).code).toBe(
      'AUTH_FAILED',
    );
  });

  it('refuses metadata listing no authorization server, or one that is not a URL, with AUTH_FAILED', async () => {
    for (const servers of [[], ['not a url']]) {
      const { fetch } = fakeFetch({ [`${API}/.well-known/oauth-protected-resource`]: { resource: API, authorization_servers: servers } });
      expect((await failure(() => discoverAuthorizationServer({ discoveryUrl: `${API}/.well-known/oauth-protected-resource`, discoveryLabel: 'x', binding: binding(), fetch }))).code).toBe(
        'AUTH_FAILED',
      );
    }
  });

  it('falls back to OpenID configuration when the RFC 8414 document is absent', async () => {
    const withIssuer = createAuthorizationBinding(API, ISSUER, '`oauth.issuer`', 'the client secret');
    const { fetch, asked } = fakeFetch({
      [`${API}/.well-known/oauth-protected-resource`]: { resource: API, authorization_servers: [ISSUER] },
      [`${ISSUER}/.well-known/openid-configuration`]: issuerMetadata,
    });
    const found = await discoverAuthorizationServer({ discoveryUrl: `${API}/.well-known/oauth-protected-resource`, discoveryLabel: 'x', binding: withIssuer, fetch });
    expect(found.as.token_endpoint).toBe(`${ISSUER}/token`);
    expect(asked).toContain(`${ISSUER}/.well-known/oauth-authorization-server`);
  });

  it('refuses issuer metadata whose issuer differs from the one asked for', async () => {
    const { fetch } = fakeFetch({ [`${API}/.well-known/oauth-authorization-server`]: { ...issuerMetadata, issuer: 'https://evil.example' } });
    expect((await failure(() => discoverAuthorizationServer({ discoveryUrl: `${API}/.well-known/oauth-authorization-server`, discoveryLabel: 'x', binding: binding(), fetch }))).code).toBe(
      'AUTH_FAILED',
    );
  });

  it('refuses a discovery URL that is not a URL, naming the label', async () => {
    const { fetch } = fakeFetch({});
    expect(await failure(() => discoverAuthorizationServer({ discoveryUrl: '/relative', discoveryLabel: '`auth.provider_discovery`', binding: binding(), fetch }))).toMatchObject({
      code: 'AUTH_FAILED',
      message: expect.stringContaining('`auth.provider_discovery`'),
    });
  });

  it.each([
    ['authorization_servers as a string', { resource: API, authorization_servers: API }],
    ['an authorization server that is a number', { resource: API, authorization_servers: [42] }],
    ['an authorization server that is null', { resource: API, authorization_servers: [null] }],
    ['authorization_servers as an object', { resource: API, authorization_servers: { 0: API } }],
    ['a resource that is a number', { resource: 42, authorization_servers: [API] }],
    ['scopes_supported as a string', { resource: API, authorization_servers: [API], scopes_supported: 'read write' }],
    ['a JSON array', [API]],
  ])('refuses protected-resource metadata with %s as AUTH_FAILED naming its URL', async (_name, metadata) => {
    const { fetch, asked } = fakeFetch({ [`${API}/.well-known/oauth-protected-resource`]: metadata, [`${API}/.well-known/oauth-authorization-server`]: { ...issuerMetadata, issuer: API } });
    const error = await failure(() => discoverAuthorizationServer({ discoveryUrl: `${API}/.well-known/oauth-protected-resource`, discoveryLabel: 'x', binding: binding(), fetch }));
    expect(error).toMatchObject({ code: 'AUTH_FAILED', message: expect.stringContaining(`${API}/.well-known/oauth-protected-resource`) });
    expect(asked).toEqual([`${API}/.well-known/oauth-protected-resource`]);
  });
});
