import { AicapError } from '../errors/aicap-error.js';
import { defaultManifestMaxSizeInBytes } from '../manifest/manifest-size-limit.js';
import { createMemoryCacheStore, type CacheStore } from './cache/cache-store.js';
import type { ClientOptions } from './client-options.js';
import { createDiscoveryMemo, type DiscoveryMemo } from './discover/discovery-memo.js';
import type { AuditEvent, DiscoveredService, OriginCredentials } from './shapes/client-types.js';
import { createNamedGuardedFetch } from './fetch/create-guarded-fetch.js';
import type { GuardedFetch } from './fetch/guarded-fetch-options.js';
import type { ManifestChangeEvent } from './trust/manifest-change-event.js';

/**
 * The state every part of the client shares (discovery, trust, calls, jobs). One per `createClient`.
 * @internal
 */
export interface ClientContext {
  /** The options as given (defaults are applied where each part reads them). */
  readonly options: ClientOptions;
  /** Guarded fetch for calls, pages, job streams and OAuth metadata. */
  readonly fetch: GuardedFetch;
  /** Guarded fetch for manifests: 1 MiB cap by default, redirects re-checked. */
  readonly manifestFetch: GuardedFetch;
  /** Credentials by exact origin (`scheme://host[:port]`). Attach only on an exact match. */
  readonly credentials: Map<string, OriginCredentials>;
  /** Discovered services by origin. */
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
  /** Sends an audit event to `onAudit` after `redactAudit`. Never throws. */
  emitAudit(event: Omit<AuditEvent, 'timeInMs'>): void;
  /** Hook the call part may set to scrub events further (e.g. `redact_from_logs` values). */
  redactAudit: (event: AuditEvent) => AuditEvent;
  /** Current time in milliseconds. */
  now(): number;
  /** Resolves once both connection pools are closed. */
  close(): Promise<void>;
}

/** Builds the shared state and validates options (bad options throw here, at `createClient`). @internal */
export function createClientContext(options: ClientOptions = {}): ClientContext {
  const network = options.network ?? {};
  const trustedOrigins = new Set<string>();
  const isTrustedOrigin = (origin: string): boolean => trustedOrigins.has(origin);
  const { fetch: transport, ...guard } = network;
  const networkNames = {
    timeouts: 'network.timeouts',
    maxResponseSizeInBytes: 'network.maxResponseSizeInBytes',
    maxRedirects: 'network.maxRedirects',
    allow: 'network.allow',
    allowPrivateNames: 'network.allowPrivateNames',
  };
  const fetch = createNamedGuardedFetch({ ...guard, isTrustedOrigin, ...(transport ? { fetch: transport } : {}) }, networkNames);
  const manifestFetch = createNamedGuardedFetch(
    {
      ...guard,
      isTrustedOrigin,
      ...(transport ? { fetch: transport } : {}),
      maxResponseSizeInBytes: options.discovery?.maxManifestSizeInBytes ?? defaultManifestMaxSizeInBytes,
      maxRedirects: options.discovery?.maxRedirects ?? 3,
    },
    { ...networkNames, maxResponseSizeInBytes: 'discovery.maxManifestSizeInBytes', maxRedirects: 'discovery.maxRedirects' },
  );
  const allowedBaseOrigins = new Set<string>();
  for (const entry of options.trust?.allowedOrigins ?? []) {
    let origin = 'null';
    try {
      origin = new URL(entry).origin;
    } catch {
      // Reported below.
    }
    if (!/^https?:\/\//.test(origin)) {
      throw new AicapError('INVALID_OPTION', `\`trust.allowedOrigins\` entry ${JSON.stringify(entry)} must be an origin such as https://api.example.com.`);
    }
    allowedBaseOrigins.add(origin);
  }
  const scanMode = options.trust?.scan;
  if (scanMode !== undefined && scanMode !== 'on-export' && scanMode !== 'eager') {
    throw new AicapError('INVALID_OPTION', `\`trust.scan\` must be 'on-export' or 'eager', got ${JSON.stringify(scanMode)}.`);
  }
  const now = options.now ?? Date.now;
  const givenPins = options.trust?.pins;
  const pins: { store: CacheStore<string>; writes(): number | undefined } =
    givenPins === undefined ? countWrites(createMemoryCacheStore<string>({ maxEntries: 100_000 })) : { store: givenPins, writes: () => undefined };
  const context: ClientContext = {
    options,
    fetch,
    manifestFetch,
    credentials: new Map(),
    services: new Map(),
    trustedOrigins,
    cache: options.cache === false ? undefined : (options.cache ?? createMemoryCacheStore()),
    revalidating: new Set(),
    discoveryMemo: createDiscoveryMemo(),
    pins: pins.store,
    pinWrites: pins.writes,
    allowedBaseOrigins,
    changeListeners: new Set(options.onChange ? [options.onChange] : []),
    redactAudit: (event) => event,
    emitAudit(event) {
      const sink = options.onAudit;
      if (!sink) return;
      try {
        sink(context.redactAudit({ ...event, timeInMs: now() }));
      } catch {
        // An audit sink that throws must not break the call it observes.
      }
    },
    now,
    async close() {
      await Promise.all([fetch.close(), manifestFetch.close()]);
    },
  };
  return context;
}

/** A store that counts the writes (sets and deletes) made through it. */
function countWrites<Value>(store: CacheStore<Value>): { store: CacheStore<Value>; writes(): number } {
  let writes = 0;
  return {
    store: {
      get: (key) => store.get(key),
      set(key, value, timeToLiveInMs) {
        writes++;
        return store.set(key, value, timeToLiveInMs);
      },
      delete(key) {
        writes++;
        return store.delete(key);
      },
    },
    writes: () => writes,
  };
}
