import type { DiscoveryContext } from './discovery-context.js';
import type { DiscoveredService } from '../shapes/client-types.js';
import { followChangeFeed, resolveChangeFeedOptions, type ChangeFeedFollower, type ChangeFeedFollowOptions } from './follow-change-feed.js';

/** The change feeds a client follows, one per discovered service that declares one. @internal */
export interface ChangeFeedFollowers {
  /** Starts, keeps or stops following `service`'s feed after a discovery, as its manifest now says. */
  follow(service: DiscoveredService): void;
  /** Stops every follower (sockets and timers released). */
  close(): Promise<void>;
}

/**
 * Follows the change feed (spec section 7.22) of every discovered service that declares one, unless
 * `discovery.changeFeed` is `false`: each announced digest that differs from the held manifest
 * revalidates that service at once. Options are checked here, at client creation.
 * @internal
 */
export function createChangeFeedFollowers(
  context: DiscoveryContext,
  given: ChangeFeedFollowOptions | false | undefined,
  revalidateNow: (service: DiscoveredService) => Promise<unknown>,
): ChangeFeedFollowers {
  const options = given === false ? undefined : resolveChangeFeedOptions(given);
  const followers = new Map<string, { feedUrl: string; follower: ChangeFeedFollower }>();
  let closed = false;

  const stop = (manifestUrl: string): void => {
    const entry = followers.get(manifestUrl);
    if (!entry) return;
    followers.delete(manifestUrl);
    void entry.follower.close();
  };
  // The client's one revalidation path (conditional, coalesced per service, revocations recorded); the
  // feed is then followed as the revalidated manifest declares it.
  const revalidate = async (service: DiscoveredService): Promise<void> => {
    await revalidateNow(service);
    const next = context.services.get(service.manifestUrl);
    if (next) follow(next);
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
    async close() {
      closed = true;
      // Most clients follow no feed: closing one then makes no list and waits for nothing.
      if (followers.size === 0) return;
      const all = [...followers.values()];
      followers.clear();
      await Promise.all(all.map((entry) => entry.follower.close()));
    },
  };
}
