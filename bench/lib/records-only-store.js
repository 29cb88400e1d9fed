// A cache store for the bench's "known manifest" variants: what an earlier process recorded survives,
// HTTP entries do not, so each new client still downloads the whole manifest as a first contact does.

/**
 * A private store that keeps only the client's records whose key starts with one of `kinds` followed
 * by `|` (`verified` for the manifests' verdicts, `selection-index` for the selection index).
 * @param {readonly string[]} kinds
 */
export function createRecordsOnlyStore(kinds) {
  const records = new Map();
  const kept = (key) => kinds.some((kind) => key.startsWith(`${kind}|`));
  return {
    private: true,
    get: (key) => records.get(key),
    set: (key, value) => void (kept(key) && records.set(key, value)),
    delete: (key) => void records.delete(key),
  };
}
