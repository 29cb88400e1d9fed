/**
 * Where the client keeps manifests between fetches (and approval pins). Methods may be synchronous or
 * return promises, so one store can be shared by a fleet (Redis, a database) later.
 */
export interface CacheStore<Value = unknown> {
  /** The stored value, or undefined when absent or expired. */
  get(key: string): Promise<Value | undefined> | Value | undefined;
  /** Stores a value; `timeToLiveInMs` is a hint after which the store may forget it. */
  set(key: string, value: Value, timeToLiveInMs?: number): Promise<void> | void;
  /** Forgets a value. */
  delete(key: string): Promise<void> | void;
  /**
  True when nothing but this user's own processes can write the store (the default memory store, the
  CLI's file store under the user's cache directory). The client then trusts the verified-manifest
  records in it without `trust.verifiedManifests.signingKey`; in any other store (Redis, a database)
  it reads and writes them only with that key, since a forged record would let a manifest skip its
  checks.

  @default false
  */
  readonly private?: boolean;
}

/** Options of {@link createMemoryCacheStore}. */
export interface MemoryCacheStoreOptions {
  /**
  Most entries kept; the least recently stored is evicted first.

  @default 1_000
  */
  maxEntries?: number;
  /**
  Current time in milliseconds since the epoch (injected in tests).

  @default Date.now
  */
  now?: () => number;
}

/** The default in-memory {@link CacheStore}: bounded, with per-entry expiry. */
export function createMemoryCacheStore<Value = unknown>(options: MemoryCacheStoreOptions = {}): CacheStore<Value> {
  const maxEntries = options.maxEntries ?? 1_000;
  const now = options.now ?? Date.now;
  const entries = new Map<string, { value: Value; expiresAtInMs: number }>();
  return {
    private: true,
    get(key) {
      const entry = entries.get(key);
      if (!entry) return undefined;
      if (entry.expiresAtInMs <= now()) {
        entries.delete(key);
        return undefined;
      }
      return entry.value;
    },
    set(key, value, timeToLiveInMs) {
      entries.delete(key);
      entries.set(key, { value, expiresAtInMs: timeToLiveInMs === undefined ? Number.POSITIVE_INFINITY : now() + timeToLiveInMs });
      for (const oldest of entries.keys()) {
        if (entries.size <= maxEntries) break;
        entries.delete(oldest);
      }
    },
    delete(key) {
      entries.delete(key);
    },
  };
}
