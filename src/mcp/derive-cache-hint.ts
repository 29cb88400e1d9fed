import type { CacheHint } from '@modelcontextprotocol/server';
import type { DiscoveredService } from '../client/index.js';

/**
 * The default `ttlMs`/`cacheScope` of the bridge's list results and `server/discover`, from the
 * manifests' own HTTP caching: a host may keep a list as long as the least fresh manifest behind it
 * stays fresh (a loaded manifest, with no freshness, gives 0), and the list is private as soon as one
 * manifest varies per caller (`Cache-Control: private`, `Vary: Authorization`) or one service
 * authenticates its callers (the catalog is then filtered by the bridge's credentials and scopes,
 * which another user does not share). `CreateMcpBridgeOptions.cache` sets both when the deployment
 * knows better.
 * @internal
 */
export function deriveCacheHint(services: readonly DiscoveredService[], nowInMs: number = Date.now()): CacheHint {
  const varies = services.some((service) => service.caching?.private === true || (service.manifest.auth?.type ?? 'none') !== 'none' || service.grantedScopes !== undefined);
  const remaining = services.map((service) => Math.max(0, Math.floor((service.caching?.freshUntilInMs ?? nowInMs) - nowInMs)));
  return { ttlMs: remaining.length === 0 ? 0 : Math.min(...remaining), cacheScope: varies ? 'private' : 'public' };
}
