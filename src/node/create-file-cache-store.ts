import { createHash, randomBytes } from 'node:crypto';
import { statSync } from 'node:fs';
import { mkdir, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { CacheStore } from '../client/index.js';
import { invalidOptionError } from '../errors/invalid-option-error.js';
import { isRecord } from '../internal/is-record.js';

/** Options of {@link createFileCacheStore}. */
export interface FileCacheStoreOptions {
  /**
  The directory of the entries: created (readable by the user alone) on the first write, resolved
  against the working directory when relative. Give each user its own, under the user's cache
  directory: whoever can write there can make a client skip the checks of a manifest.

  @example join(homedir(), '.cache', 'my-agent')
  */
  directory: string;
  /**
  Told once per problem file or failed write: the cache then just misses, and the client downloads
  and checks again.

  @default a Node process warning (`process.emitWarning`, type `AicapCacheWarning`)
  */
  warn?: (message: string) => void;
  /**
  Current time in milliseconds since the epoch (injected in tests).

  @default Date.now
  */
  now?: () => number;
}

/** One file: the key it belongs to (file names are hashes), its expiry and the value as JSON. */
interface FileEntry {
  key: string;
  expiresAtInMs: number | null;
  value: unknown;
}

/**
 * A durable {@link CacheStore} of JSON files, one per key, for Node: what a client keeps there
 * (fetched manifests with their HTTP freshness, and the verified-manifest records, so that a known
 * manifest costs `JSON.parse` and a lookup instead of every check) outlives the process, and the
 * processes of one user share it through the file system. The CLI keeps its cache in one.
 *
 * A write goes to a temporary file renamed over the entry (atomic on one file system), so a
 * concurrent reader sees the old entry or the new one, never a torn one, and of concurrent writers
 * the last rename wins whole. A file that cannot be read as an entry (truncated, edited, from an
 * unknown version) is reported through `warn` and treated as absent; a write that fails (full disk,
 * no permission) is reported and skipped: a cache may always miss. The store is `private` (its
 * records are not signed): keep the directory writable by its user alone, as the store creates it.
 *
 * Throws `INVALID_OPTION` at once when `directory` is not a non-empty string, or names something
 * that exists and is not a directory.
 *
 * @example
 * ```ts
 * import { createClient } from 'aicap/client';
 * import { createFileCacheStore } from 'aicap/node';
 *
 * const client = createClient({ cache: createFileCacheStore({ directory: '.aicap-cache' }) });
 * ```
 * @see {@link CacheStore}
 */
export function createFileCacheStore(options: FileCacheStoreOptions): CacheStore {
  // Read through isRecord: a JavaScript caller may pass nothing, and gets the same INVALID_OPTION.
  const directory = checkedDirectory(isRecord(options) ? options.directory : undefined);
  const warn = options.warn ?? ((message: string) => process.emitWarning(message, 'AicapCacheWarning'));
  const now = options.now ?? Date.now;
  const warned = new Set<string>();
  const warnOnce = (subject: string, message: string): void => {
    if (warned.has(subject)) return;
    warned.add(subject);
    warn(message);
  };
  let created: Promise<unknown> | undefined;
  const pathOf = (key: string): string => join(directory, `${createHash('sha256').update(key).digest('hex').slice(0, 40)}.json`);
  return {
    private: true,
    async get(key) {
      const path = pathOf(key);
      let text: string;
      try {
        text = await readFile(path, 'utf8');
      } catch {
        return undefined;
      }
      const entry = parseEntry(text);
      if (entry === undefined) {
        warnOnce(path, `Ignoring the corrupted cache file ${path}; it will be replaced on the next write (remove the directory ${directory} to empty the cache).`);
        return undefined;
      }
      if (entry.key !== key || (entry.expiresAtInMs !== null && entry.expiresAtInMs <= now())) return undefined;
      return entry.value;
    },
    async set(key, value, timeToLiveInMs) {
      const entry: FileEntry = { key, expiresAtInMs: timeToLiveInMs === undefined ? null : now() + timeToLiveInMs, value };
      const path = pathOf(key);
      const temporary = `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
      try {
        await (created ??= mkdir(directory, { recursive: true, mode: 0o700 }));
        await writeFile(temporary, JSON.stringify(entry), { mode: 0o600 });
        await rename(temporary, path);
      } catch (error) {
        await unlink(temporary).catch(() => undefined);
        created = undefined;
        warnOnce(directory, `Could not write to the cache directory ${directory} (${(error as Error).message}); going on without caching.`);
      }
    },
    async delete(key) {
      await unlink(pathOf(key)).catch(() => undefined);
    },
  };
}

/** The directory as an absolute path, or `INVALID_OPTION` when it cannot be one. */
function checkedDirectory(directory: unknown): string {
  const fix = 'Pass the path of a directory for the cache alone; the store creates it on the first write.';
  if (typeof directory !== 'string' || directory === '') throw invalidOptionError('directory', 'a non-empty path', directory, { of: 'createFileCacheStore', fix });
  const absolute = resolve(directory);
  // Only a path that exists as something else is refused now; one that cannot be created (under a
  // file, without permission) is reported on the first write, as a full disk would be.
  let isDirectory: boolean | undefined;
  try {
    isDirectory = statSync(absolute, { throwIfNoEntry: false })?.isDirectory();
  } catch {
    isDirectory = undefined;
  }
  if (isDirectory === false) throw invalidOptionError('directory', 'a directory', absolute, { of: 'createFileCacheStore', fix: `${absolute} exists and is not a directory. ${fix}` });
  return absolute;
}

function parseEntry(text: string): FileEntry | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isRecord(parsed) || typeof parsed['key'] !== 'string' || !('value' in parsed)) return undefined;
  const expiresAtInMs = parsed['expiresAtInMs'];
  if (expiresAtInMs !== null && typeof expiresAtInMs !== 'number') return undefined;
  return { key: parsed['key'], expiresAtInMs, value: parsed['value'] };
}
