import type { CacheHint } from '@modelcontextprotocol/server';
import type { DiscoveredService } from '../client/client-types.js';

/**
 * The `ttlMs`/`cacheScope` of the bridge's list results and `server/discover`. Lists are private as
 * soon as one service authenticates its callers: the catalog is then filtered by the bridge's
 * credentials and scopes, which another user does not share. The time to live is the shortest
 * `freshnessInMs` a service reports, and 0 (revalidate every time) when none does, so a host never
 * keeps a tool list longer than the manifest it came from.
 * @internal
 */
export function deriveCacheHint(services: readonly DiscoveredService[]): CacheHint {
  const varies = services.some((service) => (service.manifest.auth?.type ?? 'none') !== 'none' || service.grantedScopes !== undefined);
  const freshness = services.map((service) => (service as DiscoveredService & { freshnessInMs?: number }).freshnessInMs).filter((value): value is number => typeof value === 'number' && value >= 0);
  return { ttlMs: freshness.length === services.length && freshness.length > 0 ? Math.min(...freshness) : 0, cacheScope: varies ? 'private' : 'public' };
}
