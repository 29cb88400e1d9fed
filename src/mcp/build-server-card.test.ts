import { describe, expect, it } from 'vitest';
import type { DiscoveredService } from '../client/shapes/client-types.js';
import { buildServerCard, SERVER_CARD_SCHEMA_URL } from './build-server-card.js';
import { humanTitle } from './list-bridge-tools.js';
import { deriveCacheHint } from './derive-cache-hint.js';

const service = (name: string, auth?: string): DiscoveredService =>
  ({ manifest: { service: { name }, ...(auth ? { auth: { type: auth } } : {}) }, grantedScopes: undefined }) as unknown as DiscoveredService;

describe('buildServerCard', () => {
  it('names the endpoint host, lists both revisions and keeps title and description within the schema bounds', () => {
    const card = buildServerCard('http://127.0.0.1:8808/mcp', [service('A very long service name '.repeat(8))], { name: 'aicap bridge!', version: '1.2.3' });
    expect(card).toMatchObject({
      $schema: SERVER_CARD_SCHEMA_URL,
      name: '127.0.0.1/aicap-bridge-',
      version: '1.2.3',
      remotes: [{ type: 'streamable-http', url: 'http://127.0.0.1:8808/mcp', supportedProtocolVersions: ['2026-07-28', '2025-11-25'] }],
    });
    expect(card.name).toMatch(/^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/);
    expect(card.title!.length).toBeLessThanOrEqual(100);
    expect(card.description.length).toBeLessThanOrEqual(100);
  });
});

describe('humanTitle and deriveCacheHint', () => {
  it('turns ids into titles', () => {
    expect(humanTitle('list_transactions')).toBe('List transactions');
    expect(humanTitle('getUserRepos')).toBe('Get user repos');
  });

  it('is private when a service authenticates, public otherwise, and never keeps lists longer than a revalidation', () => {
    expect(deriveCacheHint([service('a'), service('b', 'bearer')])).toEqual({ ttlMs: 0, cacheScope: 'private' });
    expect(deriveCacheHint([service('a', 'none')])).toEqual({ ttlMs: 0, cacheScope: 'public' });
    // Fresh manifests: the least fresh one bounds the list; one private answer makes it private.
    const fresh = (name: string, freshUntilInMs: number, isPrivate: boolean) => ({ ...service(name, 'none'), caching: { freshUntilInMs, private: isPrivate } });
    expect(deriveCacheHint([fresh('a', 1_300_000, false), fresh('b', 1_060_000, false)], 1_000_000)).toEqual({ ttlMs: 60_000, cacheScope: 'public' });
    expect(deriveCacheHint([fresh('a', 1_300_000, true)], 1_000_000)).toEqual({ ttlMs: 300_000, cacheScope: 'private' });
    expect(deriveCacheHint([fresh('a', 900_000, false)], 1_000_000)).toEqual({ ttlMs: 0, cacheScope: 'public' });
  });
});
