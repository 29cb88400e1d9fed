import type { CacheStore } from '../cache/cache-store.js';
import type { GuardedFetch } from '../fetch/guarded-fetch-options.js';
import type { AuditEvent, DiscoveredService, OriginCredentials } from '../shapes/client-types.js';
import type { ManifestChangeEvent } from '../trust/manifest-change-event.js';
import type { TrustOptions } from '../trust/trust-options.js';
import type { DiscoveryMemo } from './discovery-memo.js';
import type { DiscoveryOptions } from './discovery-options.js';

/** The client options discovery reads: a slice of `ClientOptions`. @internal */
export interface DiscoveryReadOptions {
  readonly trust?: TrustOptions;
  readonly discovery?: DiscoveryOptions;
  readonly onAudit?: (event: AuditEvent) => void;
}

/**
 * What discovery, and the features over it (revalidation, health, change feeds), read and write of the
 * client's shared state. Declared here, on discovery's floor, so that no stage imports the client's
 * root: `ClientContext` extends it with what only the wiring and the call side use. A stage that needs
 * less takes a `Pick` of it. One per `createClient`.
 * @internal
 */
export interface DiscoveryContext {
  /** The options as given (defaults are applied where each part reads them). */
  readonly options: DiscoveryReadOptions;
  /** Guarded fetch for calls, pages, job streams, health resources, change feeds and OAuth metadata. */
  readonly fetch: GuardedFetch;
  /** Guarded fetch for manifests: 1 MiB cap by default, redirects re-checked. */
  readonly manifestFetch: GuardedFetch;
  /** Credentials by exact origin (`scheme://host[:port]`). Attach only on an exact match. */
  readonly credentials: Map<string, OriginCredentials>;
  /** Discovered services by manifest URL. */
  readonly services: Map<string, DiscoveredService>;
  /** Origins the user typed into `discover` (may be loopback or private). */
  readonly trustedOrigins: Set<string>;
  /** Manifest cache. */
  readonly cache: CacheStore | undefined;
  /** Cache keys being refreshed in the background (stale-while-revalidate), so each refreshes once. */
  readonly revalidating: Set<string>;
  /** What discovery remembers between discoveries (last reads, registrations, cross-service key). */
  readonly discoveryMemo: DiscoveryMemo;
  /** Approval pins: `origin|toolId` → tool digest. */
  readonly pins: CacheStore<string>;
  /**
   * Writes so far to the client's own pin store, which nothing but this client writes: while the count
   * stands, pin decisions on an unchanged manifest stay what they were. Undefined for a store given in
   * `trust.pins`, which another process may write at any time (its pins are read on every discovery).
   */
  pinWrites(): number | undefined;
  /** Origins a `base_url` may point at besides the manifest's own. */
  readonly allowedBaseOrigins: ReadonlySet<string>;
  /** Listeners of manifest changes. */
  readonly changeListeners: Set<(event: ManifestChangeEvent) => void>;
  /** Sends an audit event to `onAudit` after the client's redaction. Never throws. */
  emitAudit(event: Omit<AuditEvent, 'timeInMs'>): void;
  /** Current time in milliseconds. */
  now(): number;
}
