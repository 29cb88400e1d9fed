import { describe, expect, it } from 'vitest';
import type { DiscoveredService } from '../client/index.js';
import { deriveCacheHint } from './derive-cache-hint.js';

function service(options: { freshUntilInMs?: number; private?: boolean; auth?: string; grantedScopes?: string[] } = {}): DiscoveredService {
  return {
    caching: options.freshUntilInMs === undefined && options.private === undefined ? undefined : { freshUntilInMs: options.freshUntilInMs, private: options.private },
    manifest: { auth: options.auth === undefined ? undefined : { type: options.auth } },
    grantedScopes: options.grantedScopes,
  } as unknown as DiscoveredService;
}

describe('deriveCacheHint', () => {
  it('lets hosts keep the list public for as long as the least fresh manifest allows', () => {
    expect(deriveCacheHint([service({ freshUntilInMs: 61_000 }), service({ freshUntilInMs: 11_500 })], 1_000)).toEqual({ ttlMs: 10_500, cacheScope: 'public' });
  });

  it('says 0 when there are no services, one has no freshness, or it has expired', () => {
    expect(deriveCacheHint([], 1_000)).toEqual({ ttlMs: 0, cacheScope: 'public' });
    expect(deriveCacheHint([service({ freshUntilInMs: 61_000 }), service()], 1_000).ttlMs).toBe(0);
    expect(deriveCacheHint([service({ freshUntilInMs: 500 })], 1_000).ttlMs).toBe(0);
  });

  it('keeps the list private when a manifest is private, needs auth, or is filtered by granted scopes', () => {
    expect(deriveCacheHint([service({ freshUntilInMs: 5_000, private: true })], 0).cacheScope).toBe('private');
    expect(deriveCacheHint([service({ auth: 'oauth2' })], 0).cacheScope).toBe('private');
    expect(deriveCacheHint([service({ grantedScopes: [] })], 0).cacheScope).toBe('private');
    expect(deriveCacheHint([service({ auth: 'none' })], 0).cacheScope).toBe('public');
  });
});
