import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { CacheStore } from '../client/index.js';
import { isRecord } from '../internal/is-record.js';

/** Options of {@link createFileCacheStore}. */
export interface FileCacheStoreOptions {
  /** The directory of the entries (created on the first write, readable by the user alone). */
  directory: string;
  /** Told once per problem file or failed write: the cache then just misses. */
  warn(message: string): void;
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
 * A {@link CacheStore} of JSON files, one per key, for the CLI: processes share it through the file
 * system. A write goes to a temporary file renamed over the entry (atomic on one file system), so a
 * concurrent reader sees the old entry or the new one, never a torn one, and of concurrent writers
 * the last rename wins whole. A file that cannot be read as an entry (truncated, edited, from an
 * unknown version) is reported through `warn` and treated as absent; a write that fails (full disk,
 * no permission) is reported and skipped: a cache may always miss. The store is `private`: it lives
 * under the user's own cache directory, which only the user can write.
 */
export function createFileCacheStore(options: FileCacheStoreOptions): CacheStore {
  const { directory, warn } = options;
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
        warnOnce(path, `Ignoring the corrupted cache file ${path}; it will be replaced (remove the directory, or pass --no-cache, to bypass the cache).`);
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
