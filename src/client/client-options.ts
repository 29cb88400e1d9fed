import type { AuditEvent, FetchFunction } from './shapes/client-types.js';
import type { ClientCallOptions } from './call/client-call-options.js';
import type { CacheStore } from './cache/cache-store.js';
import type { GuardedFetchOptions } from './fetch/guarded-fetch-options.js';
import type { ClientJobsOptions } from './jobs/job.js';
import type { DiscoveryOptions } from './discover/discovery-options.js';
import type { ManifestChangeEvent } from './trust/manifest-change-event.js';
import type { TrustOptions } from './trust/trust-options.js';

export type { TrustOptions, VerifiedManifestOptions } from './trust/trust-options.js';
import type { LivenessOptions } from './liveness/liveness-options.js';

/** Options of `createClient`. Every field is optional; the defaults are safe for untrusted origins. */
export interface ClientOptions extends ClientCallOptions {
  /**
  Network guard used for every URL the client touches: timeouts, response size cap, redirects, the
  SSRF allow-list, name resolution and the transport.

  @default {} (10 s connect, 30 s headers, 30 s body idle, 60 s total, 10 MiB responses, no redirects, no private addresses)
  */
  network?: ClientNetworkOptions;
  /** How manifests are found and fetched. */
  discovery?: DiscoveryOptions;
  /**
  Where fetched manifests are cached (RFC 9111 rules). `false` disables caching.

  @default createMemoryCacheStore()
  */
  cache?: CacheStore | false;
  /** What the client requires before it hands a tool to a model. */
  trust?: TrustOptions;
  /** Defaults for async jobs (`startJob`, `resumeJob`): how statuses are followed, how long checkpoints are kept. */
  jobs?: ClientJobsOptions;
  /** Revocation and health: how fast withdrawn tools are found, whether health resources are read. */
  liveness?: LivenessOptions;
  /** Called when a refreshed manifest differs from the one loaded before. Same as `client.on('change', …)`. */
  onChange?: (event: ManifestChangeEvent) => void;
  /** Receives a structured event for discovery, trust findings and (from the call part) every call attempt. Credentials never appear in it. */
  onAudit?: (event: AuditEvent) => void;
  /**
  Current time in milliseconds since the epoch (injected in tests).

  @default Date.now
  */
  now?: () => number;
}

/** `ClientOptions.network`: the guarded fetch's options. */
export interface ClientNetworkOptions extends Omit<GuardedFetchOptions, 'isTrustedOrigin' | 'fetch'> {
  /**
  Transport below the guard (for tests of pure logic). Name resolution and address pinning then
  become its job; scheme, literal-address, timeout, size and redirect checks still apply.

  @default undici 7 `fetch` with the pinning dispatcher
  */
  fetch?: FetchFunction;
}

export type { DiscoveryOptions } from './discover/discovery-options.js';
