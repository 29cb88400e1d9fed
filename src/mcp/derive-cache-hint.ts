import type { CacheHint } from '@modelcontextprotocol/server';
import type { DiscoveredService } from '../client/client-types.js';

/**
 * The default `ttlMs`/`cacheScope` of the bridge's list results and `server/discover`. Lists are
 * private as soon as one service authenticates its callers: the catalog is then filtered by the
 * bridge's credentials and scopes, which another user does not share. The time to live is 0
 * (revalidate every time): a refreshed manifest can change the tools at any moment, and the bridge
 * does not see the manifest's own freshness, so a host never keeps a list longer than the manifest
 * allows. `CreateMcpBridgeOptions.cache` sets both when the deployment knows better.
 * @internal
 */
export function deriveCacheHint(services: readonly DiscoveredService[]): CacheHint {
  const varies = services.some((service) => (service.manifest.auth?.type ?? 'none') !== 'none' || service.grantedScopes !== undefined);
  return { ttlMs: 0, cacheScope: varies ? 'private' : 'public' };
}
