import { describe, expect, it } from 'vitest';
import { errorOf } from '../../../test/helpers/error-of.js';
import { injectedAuthorizationServer, issuerMetadata, oauthJson } from '../../../test/helpers/injected-authorization-server.js';
import type { Auth } from '../../manifest/manifest-v0.js';
import type { OriginCredentials } from '../shapes/client-types.js';
import { createAuthenticator, type AuthenticatorOptions } from './create-authenticator.js';

function request(url: string): { url: URL; displayUrl: URL; headers: Headers } {
  return { url: new URL(url), displayUrl: new URL(url), headers: new Headers() };
}

const unreachable = (): Promise<Response> => Promise.reject(new Error('no network in this test'));

describe('createAuthenticator', () => {
  const credentials = new Map<string, OriginCredentials>([['https://api.example.com', { token: 'tok-a' }]]);
  const authenticator = createAuthenticator({ credentials, fetch: unreachable, now: Date.now, refreshBeforeExpiryInMs: 0 });

  it('attaches the token to its exact origin', async () => {
    const target = request('https://api.example.com/v2/x');
    expect(await authenticator.authenticate(target, { auth: undefined, forceRefresh: false })).toEqual({ secrets: ['tok-a'], refreshable: false });
    expect(target.headers.get('authorization')).toBe('Bearer tok-a');
  });

  it.each(['http://api.example.com/x', 'https://api.example.com:8443/x', 'https://evil.api.example.com/x', 'https://api.example.com.evil.test/x'])('attaches nothing to %s', async (url) => {
    const target = request(url);
    expect(await authenticator.authenticate(target, { auth: undefined, forceRefresh: false })).toEqual({ secrets: [], refreshable: false });
    expect([...target.headers]).toEqual([]);
  });

  it('prefers the API key when the manifest says api_key, and hides it in the display URL', async () => {
    const both = createAuthenticator({ credentials: new Map([['https://api.example.com', { token: 't', apiKey: 'key-123' }]]), fetch: unreachable, now: Date.now, refreshBeforeExpiryInMs: 0 });
    const target = request('https://api.example.com/x');
    await both.authenticate(target, { auth: { type: 'api_key', api_key: { in: 'query', name: 'k' } }, forceRefresh: false });
    expect(target.url.searchParams.get('k')).toBe('key-123');
    expect(target.displayUrl.searchParams.get('k')).toBe('[REDACTED]');
    expect(target.headers.has('authorization')).toBe(false);
  });

  it('explains what to do when OAuth is configured but the manifest has no provider_discovery', async () => {
    const oauth = createAuthenticator({
      credentials: new Map([['https://api.example.com', { oauth: { clientId: 'c', clientSecret: 's' } }]]),
      fetch: unreachable,
      now: Date.now,
      refreshBeforeExpiryInMs: 0,
    });
    await expect(oauth.authenticate(request('https://api.example.com/x'), { auth: { type: 'oauth2' }, forceRefresh: false })).rejects.toThrow(/`auth.provider_discovery`.*`tokenProvider`/);
  });

  it('lists every static secret for redaction', () => {
    const many = createAuthenticator({
      credentials: new Map([
        ['https://a.example', { token: 't-1234' }],
        ['https://b.example', { apiKey: 'k-1234', oauth: { clientId: 'c', clientSecret: 's-1234' } }],
      ]),
      fetch: unreachable,
      now: Date.now,
      refreshBeforeExpiryInMs: 0,
    });
    expect(many.staticSecrets()).toEqual(['t-1234', 'k-1234', 's-1234']);
  });
});

describe('createAuthenticator: presenting each kind of credential', () => {
  const API = 'https://api.example.com';
  const build = (credentials: OriginCredentials, fetch: AuthenticatorOptions['fetch'] = unreachable) =>
    createAuthenticator({ credentials: new Map([[API, credentials]]), fetch, now: () => 0, refreshBeforeExpiryInMs: 0 });

  it.each<{ name: string; auth: Auth; cookie?: string; url?: string; header: [string, string | null]; query?: string; display?: string }>([
    { name: 'the default header', auth: { type: 'api_key' }, header: ['x-api-key', 'key-1'] },
    { name: 'a named header with a prefix', auth: { type: 'api_key', api_key: { in: 'header', name: 'Authorization', prefix: 'Token token=' } }, header: ['authorization', 'Token token=key-1'] },
    { name: 'a cookie beside those the request has', auth: { type: 'api_key', api_key: { in: 'cookie', name: 'session' } }, cookie: 'theme=dark', header: ['cookie', 'theme=dark; session=key-1'] },
    {
      name: 'a query parameter appended to the encoded query as it is',
      auth: { type: 'api_key', api_key: { in: 'query', name: 'api key' } },
      url: `${API}/x?q=a%20b&tags[]=1`,
      header: ['x-api-key', null],
      query: '?q=a%20b&tags[]=1&api%20key=key-1',
      display: '?q=a%20b&tags[]=1&api%20key=%5BREDACTED%5D',
    },
  ])('puts an API key in $name', async ({ auth, cookie, url, header, query, display }) => {
    const target = request(url ?? `${API}/x`);
    if (cookie !== undefined) target.headers.set('cookie', cookie);
    expect(await build({ apiKey: 'key-1' }).authenticate(target, { auth, forceRefresh: false })).toEqual({ secrets: ['key-1'], refreshable: false });
    expect(target.headers.get(header[0])).toBe(header[1]);
    if (query !== undefined) expect(target.url.search).toBe(query);
    if (display !== undefined) expect(target.displayUrl.search).toBe(display);
  });

  it('sends HTTP Basic as base64 of user:password and lists both for redaction', async () => {
    const target = request(`${API}/x`);
    const result = await build({ username: 'ana', password: 'pä55' }).authenticate(target, { auth: { type: 'basic' }, forceRefresh: false });
    const encoded = Buffer.from('ana:pä55', 'utf8').toString('base64');
    expect(target.headers.get('authorization')).toBe(`Basic ${encoded}`);
    expect(result).toEqual({ secrets: [encoded, 'pä55'], refreshable: false });
  });

  it.each<[string, OriginCredentials, Auth, RegExp]>([
    ['an API key with a line break in a header', { apiKey: 'k\r\nX-Evil: 1' }, { type: 'api_key' }, /line break/],
    ['an API key with a semicolon in a cookie', { apiKey: 'k; admin=1' }, { type: 'api_key', api_key: { in: 'cookie', name: 's' } }, /semicolon/],
    ['a username with a colon', { username: 'ana:b', password: 'pass-secret' }, { type: 'basic' }, /colon/],
    ['a password with a control character', { username: 'ana', password: 'pass-secret\u0000' }, { type: 'basic' }, /control character/],
    ['a token with a line break', { token: 'tok\nX-Evil: 1' }, { type: 'bearer' }, /line break/],
    ['a credential the manifest cannot take', { apiKey: 'key-secret' }, { type: 'bearer' }, /Nothing was sent to https:\/\/api\.example\.com/],
  ])('refuses %s with AUTH_FAILED, setting no header and never echoing it', async (_name, credentials, auth, reason) => {
    const target = request(`${API}/x`);
    const error = await errorOf(build(credentials).authenticate(target, { auth, forceRefresh: false }));
    expect(error.code).toBe('AUTH_FAILED');
    expect(error.message).toMatch(reason);
    expect([...target.headers]).toEqual([]);
    for (const secret of [credentials.apiKey, credentials.password, credentials.token]) if (secret !== undefined) expect(error.message).not.toContain(secret);
  });

  it('attaches nothing for a bearer credential whose token is empty', async () => {
    const target = request(`${API}/x`);
    expect(await build({ token: '' }).authenticate(target, { auth: undefined, forceRefresh: false })).toEqual({ secrets: [], refreshable: false });
    expect(target.headers.has('authorization')).toBe(false);
  });

  it('asks a token provider with the origin, the scopes and forceRefresh, and says the token can be refreshed', async () => {
    const asked: unknown[] = [];
    const authenticator = build({ tokenProvider: async (context) => (asked.push(context), `tok-${asked.length}`) });
    const auth: Auth = { type: 'oauth2', scopes: { read: ['a'], write: ['b'] } };
    expect(await authenticator.authenticate(request(`${API}/x`), { auth, forceRefresh: false })).toEqual({ secrets: ['tok-1'], refreshable: true });
    await authenticator.authenticate(request(`${API}/x`), { auth, forceRefresh: true });
    expect(asked).toEqual([
      { origin: API, scopes: ['read', 'write'], forceRefresh: false },
      { origin: API, scopes: ['read', 'write'], forceRefresh: true },
    ]);
  });

  it('reports a failing token provider as AUTH_FAILED naming `tokenProvider` and the origin', async () => {
    const error = await errorOf(build({ tokenProvider: async () => Promise.reject(new Error('vault sealed')) }).authenticate(request(`${API}/x`), { auth: undefined, forceRefresh: false }));
    expect(error).toMatchObject({ code: 'AUTH_FAILED', message: `The \`tokenProvider\` for ${API} failed (vault sealed).` });
  });

  it('obtains a client-credentials token once per service and reuses it', async () => {
    const server = injectedAuthorizationServer({
      [`${API}/.well-known/oauth-authorization-server`]: issuerMetadata(API),
      [`${API}/token`]: () => oauthJson({ access_token: 'cc-token', token_type: 'Bearer', expires_in: 3600 }),
    });
    const authenticator = build({ oauth: { clientId: 'c', clientSecret: 'client-secret-1' } }, server.fetch);
    const auth: Auth = { type: 'oauth2', provider_discovery: `${API}/.well-known/oauth-authorization-server` };
    for (let round = 0; round < 2; round++) {
      const target = request(`${API}/x`);
      expect(await authenticator.authenticate(target, { auth, forceRefresh: false })).toEqual({ secrets: ['cc-token'], refreshable: true });
      expect(target.headers.get('authorization')).toBe('Bearer cc-token');
    }
    expect(server.to(`${API}/token`)).toHaveLength(1);
  });
});

describe('createAuthenticator: which service a credential belongs to', () => {
  const manifestA = 'https://api.example.com/a/.well-known/ai-capabilities';
  const manifestB = 'https://api.example.com/b/.well-known/ai-capabilities';
  const authenticator = createAuthenticator({ credentials: new Map([[manifestA, { token: 'tok-a' }]]), fetch: unreachable, now: Date.now, refreshBeforeExpiryInMs: 0 });

  it.each([
    { name: 'the service it was given for', service: { manifestUrl: manifestA, origin: 'https://api.example.com' }, url: 'https://api.example.com/a/x', expected: 'Bearer tok-a' },
    { name: 'another service on the same origin', service: { manifestUrl: manifestB, origin: 'https://api.example.com' }, url: 'https://api.example.com/b/x', expected: null },
    { name: 'its own service’s request to another origin', service: { manifestUrl: manifestA, origin: 'https://api.example.com' }, url: 'https://cdn.example.com/a/x', expected: null },
    { name: 'a request without a service (keyed by origin)', service: undefined, url: 'https://api.example.com/a/x', expected: null },
  ])('attaches the token to $name: $expected', async ({ service, url, expected }) => {
    const target = request(url);
    await authenticator.authenticate(target, { auth: undefined, forceRefresh: false, ...(service === undefined ? {} : { service }) });
    expect(target.headers.get('authorization')).toBe(expected);
  });
});
