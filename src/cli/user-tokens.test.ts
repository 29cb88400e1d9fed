import { describe, expect, it } from 'vitest';
import type { EncryptedFileTokenStore, StoredTokenEntry } from '../client/seam.js';
import { DEFAULT_TOKEN_USER } from '../client/seam.js';
import { findLoginToForget, findStoredLogin, protectedResourceMetadataUrl } from './user-tokens.js';

function entry(resource: string, options: { user?: string; tokens?: number } = {}): StoredTokenEntry {
  const tokens = Array.from({ length: options.tokens ?? 1 }, () => ({ accessToken: `at-${resource}`, issuer: 'https://auth.example.com' }));
  return { key: { user: options.user ?? DEFAULT_TOKEN_USER, resource }, tokens } as unknown as StoredTokenEntry;
}

const store = (entries: StoredTokenEntry[]) => ({ entries: async () => entries }) as unknown as EncryptedFileTokenStore;

describe('findStoredLogin', () => {
  it('takes the login whose resource covers the API, the most specific first', async () => {
    const logins = store([entry('https://api.example.com'), entry('https://api.example.com/v2'), entry('https://other.example.com')]);
    expect((await findStoredLogin(logins, 'https://api.example.com/v2/payments'))?.key.resource).toBe('https://api.example.com/v2');
    expect((await findStoredLogin(logins, 'https://api.example.com/v1'))?.key.resource).toBe('https://api.example.com');
  });

  it('never hands a login to another origin or a look-alike path', async () => {
    const logins = store([entry('https://api.example.com/v1')]);
    for (const apiUrl of ['https://api.example.com.evil.example/v1', 'http://api.example.com/v1', 'https://api.example.com:8443/v1', 'https://api.example.com/v10', 'https://api.example.com/']) {
      expect(await findStoredLogin(logins, apiUrl)).toBeUndefined();
    }
  });

  it('ignores other users and entries without tokens', async () => {
    expect(await findStoredLogin(store([entry('https://api.example.com', { user: 'someone-else' })]), 'https://api.example.com/x')).toBeUndefined();
    expect(await findStoredLogin(store([entry('https://api.example.com', { tokens: 0 })]), 'https://api.example.com/x')).toBeUndefined();
  });
});

describe('findLoginToForget', () => {
  it('prefers the login covering the target, else any of the same origin, never another origin', async () => {
    const logins = store([entry('https://api.example.com/v1'), entry('https://api.example.com/v2/admin'), entry('https://evil.example')]);
    expect((await findLoginToForget(logins, 'https://api.example.com', 'https://api.example.com/v1/x'))?.key.resource).toBe('https://api.example.com/v1');
    expect((await findLoginToForget(logins, 'https://api.example.com', 'https://api.example.com/other'))?.key.resource).toBe('https://api.example.com/v2/admin');
    expect(await findLoginToForget(logins, 'https://nothing.example', 'https://nothing.example/')).toBeUndefined();
  });
});

describe('protectedResourceMetadataUrl', () => {
  it('uses the manifest provider_discovery, else the well-known location on the service origin', () => {
    const service = (auth?: unknown) => ({ origin: 'https://api.example.com', manifest: { auth } }) as never;
    expect(protectedResourceMetadataUrl(service({ provider_discovery: 'https://api.example.com/prm' }))).toBe('https://api.example.com/prm');
    expect(protectedResourceMetadataUrl(service())).toBe('https://api.example.com/.well-known/oauth-protected-resource');
  });
});
