import type { CacheStore } from '../cache/cache-store.js';
import type { ClientContext } from '../client-context.js';
import type { DiscoveredService } from '../client-types.js';
import { discoverService } from './discover-service.js';
import { followChangeFeed, resolveChangeFeedOptions, type ChangeFeedFollower, type ChangeFeedFollowOptions } from './follow-change-feed.js';

/** The change feeds a client follows, one per discovered service that declares one. @internal */
export interface ChangeFeedFollowers {
  /** Starts, keeps or stops following `service`'s feed after a discovery, as its manifest now says. */
  follow(service: DiscoveredService): void;
  /** Revalidates `service` now, ignoring freshness; resolves to the service as rediscovered. */
  revalidate(service: DiscoveredService): Promise<DiscoveredService>;
  /** Stops every follower (sockets and timers released). */
  close(): Promise<void>;
}

/**
 * Follows the change feed (spec section 7.22) of every discovered service that declares one, unless
 * `discovery.changeFeed` is `false`: each announced digest that differs from the held manifest
 * revalidates that service at once. Options are checked here, at client creation.
 * @internal
 */
export function createChangeFeedFollowers(context: ClientContext, given: ChangeFeedFollowOptions | false | undefined): ChangeFeedFollowers {
  const options = given === false ? undefined : resolveChangeFeedOptions(given);
  const followers = new Map<string, { feedUrl: string; follower: ChangeFeedFollower }>();
  let closed = false;

  const stop = (manifestUrl: string): void => {
    const entry = followers.get(manifestUrl);
    if (!entry) return;
    followers.delete(manifestUrl);
    void entry.follower.close();
  };
  const revalidate = async (service: DiscoveredService): Promise<DiscoveredService> => {
    const next = await revalidateServiceNow(context, service);
    follow(next);
    return next;
  };
  const follow = (service: DiscoveredService): void => {
    const declared = service.manifest.change_feed;
    if (!options || closed || service.caching === undefined || !declared) return stop(service.manifestUrl);
    // Same origin by construction: the path is resolved against the manifest's own origin, never a manifest-chosen host.
    const manifestOrigin = new URL(service.manifestUrl).origin;
    const feedUrl = new URL(declared.path, manifestOrigin).href;
    // Defence in depth behind the schema's pattern: a path a URL parser reads as a host is never followed.
    if (new URL(feedUrl).origin !== manifestOrigin) return stop(service.manifestUrl);
    if (followers.get(service.manifestUrl)?.feedUrl === feedUrl) return;
    stop(service.manifestUrl);
    const manifestUrl = service.manifestUrl;
    const follower = followChangeFeed({
      fetch: context.fetch,
      feedUrl,
      currentDigest: () => context.services.get(manifestUrl)?.digest,
      revalidate: async () => {
        const current = context.services.get(manifestUrl);
        if (current) await revalidate(current);
      },
      heartbeatIntervalInSeconds: declared.heartbeat_interval_seconds,
      options,
    });
    followers.set(manifestUrl, { feedUrl, follower });
  };
  return {
    follow,
    revalidate,
    async close() {
      closed = true;
      const all = [...followers.values()];
      followers.clear();
      await Promise.all(all.map((entry) => entry.follower.close()));
    },
  };
}

/**
 * Rediscovers `service` from its manifest URL, skipping the cached manifest (its freshness no longer
 * holds once the producer said it changed), with the credentials and scopes it was discovered with.
 *
 * The one place to connect a shared "revalidate this service now" entry point: until the client has
 * one, this bypasses the manifest cache for the one rediscovery (a full GET; verified bytes still skip
 * the parse and scan).
 * @internal
 */
export function revalidateServiceNow(context: ClientContext, service: DiscoveredService): Promise<DiscoveredService> {
  const credentials = context.credentials.get(service.manifestUrl);
  return discoverService({ ...context, cache: withoutManifestEntries(context.cache) }, service.manifestUrl, {
    ...(credentials ? { credentials } : {}),
    ...(service.grantedScopes ? { grantedScopes: [...service.grantedScopes] } : {}),
  });
}

/** The cache with manifest entries read as absent (written as usual); the verified-manifest records stay readable. */
function withoutManifestEntries(cache: CacheStore | undefined): CacheStore | undefined {
  if (!cache) return undefined;
  return {
    get: (key) => (key.startsWith('manifest|') ? undefined : cache.get(key)),
    set: (key, value, timeToLiveInMs) => cache.set(key, value, timeToLiveInMs),
    delete: (key) => cache.delete(key),
    ...(cache.private === undefined ? {} : { private: cache.private }),
  };
}
