import type { DiscoveryContext } from './discovery-context.js';
import type { DiscoveredService } from '../shapes/client-types.js';

/** How old the manifest a client holds for one service is, and when the API last confirmed it. */
export interface ManifestFreshness {
  /** URL of the manifest (the service's key). */
  manifestUrl: string;
  /** Origin of the service. */
  origin: string;
  /** Digest of the manifest held. */
  digest: string;
  /** When the client first received the manifest it holds (this digest), in milliseconds since the epoch. */
  receivedAtInMs: number;
  /** How long ago that was, in milliseconds: how old the tools the model sees may be. */
  ageInMs: number;
  /**
  When the API last confirmed this manifest (a `200` or a `304` to a conditional request), in
  milliseconds since the epoch; `null` for a manifest given to `client.load`, which nothing revalidates.
  */
  lastRevalidatedAtInMs: number | null;
  /** Until when HTTP caching lets the client use it without asking (`null` for a loaded manifest). */
  freshUntilInMs: number | null;
  /** The client may use it without asking the API now (`false` for a loaded manifest). */
  fresh: boolean;
}

/** When a manifest URL's current digest was first received and last confirmed. @internal */
export interface FreshnessRecord {
  digest: string;
  receivedAtInMs: number;
  lastRevalidatedAtInMs: number | null;
}

/**
 * Notes that `service` was just registered from an answer obtained as `source`: a new digest restarts
 * its age; an answer from the API (`network`, `revalidated`) or a load confirms it now. @internal
 */
export function recordManifestFreshness(
  context: Pick<DiscoveryContext, 'discoveryMemo' | 'now'>,
  service: DiscoveredService,
  source: 'network' | 'cache' | 'revalidated' | 'stale-if-error' | 'loaded',
): void {
  // Kept in the memo beside the services, not in them, so that recording a revalidation does not make
  // a new service object (which would rebuild the catalog).
  const byUrl = context.discoveryMemo.freshness;
  const now = context.now();
  const known = byUrl.get(service.manifestUrl);
  const confirmed = source === 'network' || source === 'revalidated';
  if (known === undefined || known.digest !== service.digest) {
    byUrl.set(service.manifestUrl, { digest: service.digest, receivedAtInMs: now, lastRevalidatedAtInMs: confirmed ? now : (known?.lastRevalidatedAtInMs ?? null) });
  } else if (confirmed) {
    known.lastRevalidatedAtInMs = now;
  }
}

/** The freshness of every service the client holds, in discovery order. @internal */
export function manifestFreshness(context: Pick<DiscoveryContext, 'services' | 'discoveryMemo' | 'now'>): ManifestFreshness[] {
  const byUrl = context.discoveryMemo.freshness;
  const now = context.now();
  return [...context.services.values()].map((service) => {
    const record = byUrl.get(service.manifestUrl);
    const receivedAtInMs = record?.digest === service.digest ? record.receivedAtInMs : now;
    const freshUntilInMs = service.caching?.freshUntilInMs ?? null;
    return {
      manifestUrl: service.manifestUrl,
      origin: service.origin,
      digest: service.digest,
      receivedAtInMs,
      ageInMs: Math.max(0, now - receivedAtInMs),
      lastRevalidatedAtInMs: record?.lastRevalidatedAtInMs ?? null,
      freshUntilInMs,
      fresh: freshUntilInMs !== null && freshUntilInMs > now,
    };
  });
}
