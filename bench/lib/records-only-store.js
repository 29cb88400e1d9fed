// A cache store for the bench's "known manifest" variants: what an earlier process recorded survives,
// HTTP entries do not, so each new client still downloads the whole manifest as a first contact does.

/**
 * A private store that keeps only the client's records whose key starts with one of `kinds` followed
 * by `|` (`verified` for the manifests' verdicts, `selection-index` for the selection index), in
 * memory or, given `inner` (the file store of `aicap/node`), there: every other write is dropped.
 * @param {readonly string[]} kinds
 * @param {import('aicap/client').CacheStore} [inner]
 */
export function createRecordsOnlyStore(kinds, inner) {
  const records = new Map();
  const store = inner ?? { get: (key) => records.get(key), set: (key, value) => void records.set(key, value), delete: (key) => void records.delete(key) };
  const kept = (key) => kinds.some((kind) => key.startsWith(`${kind}|`));
  return {
    private: true,
    get: (key) => store.get(key),
    set: (key, value, timeToLiveInMs) => (kept(key) ? store.set(key, value, timeToLiveInMs) : undefined),
    delete: (key) => store.delete(key),
  };
}
