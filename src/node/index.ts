/**
 * `aicap/node`: what the client keeps on disk, for Node processes. `aicap/client` stays free of the
 * file system (it runs in browsers and edge runtimes too); this entry adds the durable stores that
 * only Node has a use for, starting with a file-backed `CacheStore` (the interface of `aicap/client`)
 * through which a restarted agent finds the manifests it already verified.
 *
 * This file is the complete public surface of the entry. Every export is chosen by hand.
 * @module
 */

export { createFileCacheStore } from './create-file-cache-store.js';
export type { FileCacheStoreOptions } from './create-file-cache-store.js';
