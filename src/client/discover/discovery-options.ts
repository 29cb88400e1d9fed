import type { ChangeFeedFollowOptions } from './follow-change-feed.js';

/** `ClientOptions.discovery`. */
export interface DiscoveryOptions {
  /**
  Largest manifest accepted, in bytes after decompression (the download and the parse alike).

  @default defaultManifestMaxSizeInBytes (8 MiB), the one limit every reader applies
  */
  maxManifestSizeInBytes?: number;
  /**
  Redirects followed while fetching a manifest, each re-checked; credentials never cross origins.

  @default 3
  */
  maxRedirects?: number;
  /**
  Following a manifest's change feed (spec section 7.22): when a discovered manifest declares
  `change_feed`, the client holds its stream open and revalidates the manifest as soon as a new digest
  is announced, so a removed tool is refused within a round trip rather than when `max-age` runs out.
  `client.close()` ends every stream. `false` relies on HTTP caching alone.

  @default {} (followed, reconnecting after 250 ms doubling up to 30 s)
  */
  changeFeed?: ChangeFeedFollowOptions | false;
}
