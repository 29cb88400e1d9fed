import { describe, expect, it } from 'vitest';
import type { OriginCredentials } from '../shapes/client-types.js';
import { createAuthenticator } from './create-authenticator.js';

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
