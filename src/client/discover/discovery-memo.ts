import type { DiscoveredService } from '../shapes/client-types.js';
import type { FreshnessRecord } from './manifest-freshness.js';
import type { ReadManifest } from './read-manifest.js';

/** What a registered service was decided from (see `registerService`'s rediscovery shortcut). @internal */
export interface Registration {
  read: ReadManifest;
  pinWrites: number;
  servicesKey: string;
}

/**
 * What discovery remembers between discoveries, owned by the client context and dropped with it: the
 * one cache behind registration's shortcuts (no module-level state, so two clients never share one).
 * @internal
 */
export interface DiscoveryMemo {
  /** The last manifest read per URL: the same bytes again skip parsing, validation, the scan and the digest. */
  readonly lastReads: Map<string, ReadManifest>;
  /** How each registered service object was decided. */
  readonly registrations: WeakMap<DiscoveredService, Registration>;
  /** The services (manifest URL and digest) cross-service findings were last computed for. */
  crossServiceKey: string | undefined;
  /** Manifests whose entries carry this client's model-scan policy. */
  readonly scanPolicies: WeakSet<object>;
  /** The final URL each read manifest last passed the origin binding at: the same bytes from the same URL are bound already. */
  readonly boundUrls: WeakMap<ReadManifest, string>;
  /** Per manifest URL, when its current digest was received and last confirmed (`client.freshness()`). */
  readonly freshness: Map<string, FreshnessRecord>;
}

/** An empty memo. @internal */
export function createDiscoveryMemo(): DiscoveryMemo {
  return { lastReads: new Map(), registrations: new WeakMap(), crossServiceKey: undefined, scanPolicies: new WeakSet(), boundUrls: new WeakMap(), freshness: new Map() };
}
