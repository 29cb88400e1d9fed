/**
 * Where per-session state lives: action counters today; manifest pins and job checkpoints (last
 * event id) later. The interface is a small key/value store with an atomic increment so that a
 * Redis implementation (`INCRBY`, `GET`, `SET … PX`, `DEL`) is a direct mapping and several
 * orchestrator processes can share one budget.
 */
export interface SessionStore {
  /**
  Adds `by` to the integer at `key` (missing counts as 0) and resolves to the new value. Must be
  atomic across every process sharing the store: budgets are only as strict as this operation.
  */
  increment(key: string, by: number): Promise<number> | number;
  /** Reads a value stored with `set`; `undefined` when absent or expired. */
  get(key: string): Promise<unknown> | unknown;
  /** Stores a JSON-compatible value; `timeToLiveInMs` bounds how long it is kept. */
  set(key: string, value: unknown, timeToLiveInMs?: number): Promise<void> | void;
  /** Forgets a key. */
  delete(key: string): Promise<void> | void;
}

/** Options of {@link createMemorySessionStore}. */
export interface MemorySessionStoreOptions {
  /**
  Clock used for expiry, in milliseconds since the epoch.

  @default Date.now
  */
  now?: () => number;
}

/**
 * The default {@link SessionStore}: a `Map` in this process. State is lost on restart and not shared
 * between processes; use a shared store (Redis) for a fleet.
 */
export function createMemorySessionStore(options: MemorySessionStoreOptions = {}): SessionStore {
  const now = options.now ?? Date.now;
  const entries = new Map<string, { value: unknown; expiresAtInMs: number }>();
  const read = (key: string): unknown => {
    const entry = entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.expiresAtInMs <= now()) {
      entries.delete(key);
      return undefined;
    }
    return entry.value;
  };
  return {
    increment(key, by) {
      const current = read(key);
      const next = (typeof current === 'number' ? current : 0) + by;
      const expiresAtInMs = entries.get(key)?.expiresAtInMs ?? Number.POSITIVE_INFINITY;
      entries.set(key, { value: next, expiresAtInMs });
      return next;
    },
    get: read,
    set(key, value, timeToLiveInMs) {
      entries.set(key, { value, expiresAtInMs: timeToLiveInMs === undefined ? Number.POSITIVE_INFINITY : now() + timeToLiveInMs });
    },
    delete(key) {
      entries.delete(key);
    },
  };
}
