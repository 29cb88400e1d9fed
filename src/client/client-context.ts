import { AicapError } from '../errors/aicap-error.js';
import { defaultManifestMaxSizeInBytes } from '../manifest/manifest-size-limit.js';
import { createMemoryCacheStore, type CacheStore } from './cache/cache-store.js';
import type { ClientOptions } from './client-options.js';
import { createDiscoveryMemo } from './discover/discovery-memo.js';
import type { DiscoveryContext } from './discover/discovery-context.js';
import type { AuditEvent } from './shapes/client-types.js';
import { createNamedGuardedFetch, createNetworkGuard } from './fetch/create-guarded-fetch.js';

/**
 * The state every part of the client shares (discovery, trust, calls, jobs). One per `createClient`.
 * Discovery's part, and what each member is, is `DiscoveryContext`.
 * @internal
 */
export interface ClientContext extends DiscoveryContext {
  /** The options as given (defaults are applied where each part reads them). */
  readonly options: ClientOptions;
  /** Hook the call part may set to scrub events further (e.g. `redact_from_logs` values). */
  redactAudit: (event: AuditEvent) => AuditEvent;
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
  // One address policy and origin trust for both fetches, which take the same `allow`, trusted origins
  // and `allowPrivateNames`: a bad `network.allow` entry is reported here, before the other network options.
  const networkGuard = createNetworkGuard({ ...guard, isTrustedOrigin }, networkNames);
  const fetch = createNamedGuardedFetch({ ...guard, isTrustedOrigin, ...(transport ? { fetch: transport } : {}) }, networkNames, { guard: networkGuard });
  // The agent of calls is made by the first call; those of manifests now, since nearly every client
  // discovers: a discovery then opens its connection on an agent that is ready, as a plain request does.
  // Manifests go through `node:http` (often large, and the first request of a process: see
  // `createNodeTransport`), calls through undici's `request` (many and small: cheaper once warm).
  const manifestFetch = createNamedGuardedFetch(
    {
      ...guard,
      isTrustedOrigin,
      ...(transport ? { fetch: transport } : {}),
      maxResponseSizeInBytes: options.discovery?.maxManifestSizeInBytes ?? defaultManifestMaxSizeInBytes,
      maxRedirects: options.discovery?.maxRedirects ?? 3,
    },
    { ...networkNames, maxResponseSizeInBytes: 'discovery.maxManifestSizeInBytes', maxRedirects: 'discovery.maxRedirects' },
    { makeAgent: 'now', guard: networkGuard, bufferedTransport: 'node:http' },
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
