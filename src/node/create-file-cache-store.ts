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

/**
 * One record: the key it belongs to (file names are hashes), its expiry, the value as JSON and,
 * when the value had byte fields, what the bytes after it in its file hold.
 */
interface FileEntry {
  key: string;
  expiresAtInMs: number | null;
  value: unknown;
  bytes?: StoredBytes;
}

/** The byte fields taken out of a value, written raw one after the other after the record's line. */
interface StoredBytes {
  fields: Array<{ name: string; length: number }>;
  /** SHA-256 (hex) of all those bytes: bytes damaged or cut short since must not pass for these. */
  sha256: string;
}

/**
 * A durable {@link CacheStore} of JSON files, one per key, for Node: what a client keeps there
 * (fetched manifests with their HTTP freshness, and the verified-manifest records, so that a known
 * manifest costs `JSON.parse` and a lookup instead of every check) outlives the process, and the
 * processes of one user share it through the file system. The CLI keeps its cache in one.
 *
 * The `Uint8Array` fields of a plain-object value (a fetched manifest's body) go raw into the entry's
 * file after the record's line, which holds their lengths and SHA-256, and are read back as
 * `Uint8Array`s: a megabyte manifest is neither encoded as base64 text nor decoded again.
 *
 * A write goes to a temporary file renamed over the entry (atomic on one file system), so a
 * concurrent reader sees the old entry or the new one, never a torn one, and of concurrent writers
 * the last rename wins whole. A file that cannot be read as an entry (truncated, edited, from an
 * unknown version), or whose bytes are missing or not those its record was written with, is
 * reported through `warn` and treated as absent; a write that fails (full disk, no permission) is
 * reported and skipped: a cache may always miss. The store is `private` (its records are not
 * signed): keep the directory writable by its user alone, as the store creates it.
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
  const replaced = `it will be replaced on the next write (remove the directory ${directory} to empty the cache).`;
  let created: Promise<unknown> | undefined;
  const pathOf = (key: string): string => join(directory, createHash('sha256').update(key).digest('hex').slice(0, 40));
  return {
    private: true,
    async get(key) {
      const path = `${pathOf(key)}.json`;
      let data: Buffer;
      try {
        data = await readFile(path);
      } catch {
        return undefined;
      }
      // The record's JSON has no raw line feed (JSON.stringify escapes them): the first one ends it, and the bytes follow.
      const end = data.indexOf(0x0a);
      const entry = parseEntry((end === -1 ? data : data.subarray(0, end)).toString('utf8'));
      if (entry === undefined || (entry.bytes === undefined && end !== -1)) {
        warnOnce(path, `Ignoring the corrupted cache file ${path}; ${replaced}`);
        return undefined;
      }
      if (entry.key !== key || (entry.expiresAtInMs !== null && entry.expiresAtInMs <= now())) return undefined;
      if (entry.bytes === undefined) return entry.value;
      const bytes = end === -1 ? undefined : data.subarray(end + 1);
      if (bytes === undefined || !isSameBytes(bytes, entry.bytes)) {
        const problem = bytes === undefined ? 'lacks the bytes its record names' : 'holds other bytes than its record was written with (damaged)';
        warnOnce(path, `Ignoring the cache file ${path}: it ${problem}; ${replaced}`);
        return undefined;
      }
      return withBytes(entry.value as Record<string, unknown>, entry.bytes.fields, bytes);
    },
    async set(key, value, timeToLiveInMs) {
      const { json, fields } = splitBytes(value);
      const entry: FileEntry = { key, expiresAtInMs: timeToLiveInMs === undefined ? null : now() + timeToLiveInMs, value: json };
      const bytes = fields.length === 0 ? undefined : fields.length === 1 ? fields[0]![1] : Buffer.concat(fields.map(([, field]) => field));
      if (bytes !== undefined) entry.bytes = { fields: fields.map(([name, field]) => ({ name, length: field.byteLength })), sha256: createHash('sha256').update(bytes).digest('hex') };
      const path = pathOf(key);
      const temporaries: string[] = [];
      const replace = async (target: string, data: string | Uint8Array): Promise<void> => {
        const temporary = `${target}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
        temporaries.push(temporary);
        await writeFile(temporary, data, { mode: 0o600 });
        await rename(temporary, target);
      };
      try {
        await (created ??= mkdir(directory, { recursive: true, mode: 0o700 }));
        // The record and its bytes in one file, replaced by one rename: of two processes writing the
        // same key, the last rename wins whole (two files, renamed one after the other, could end with
        // one process's record beside the other's bytes).
        const record = JSON.stringify(entry);
        await replace(`${path}.json`, bytes === undefined ? record : Buffer.concat([Buffer.from(`${record}\n`), bytes]));
      } catch (error) {
        await Promise.all(temporaries.map((temporary) => unlink(temporary).catch(() => undefined)));
        created = undefined;
        warnOnce(directory, `Could not write to the cache directory ${directory} (${(error as Error).message}); going on without caching.`);
      }
    },
    async delete(key) {
      const path = pathOf(key);
      await unlink(`${path}.json`).catch(() => undefined);
    },
  };
}

/**
 * A plain object's `Uint8Array` fields, and the value's JSON without them. Any other value (and an
 * object without such fields) is written as JSON whole, as it is given.
 */
function splitBytes(value: unknown): { json: unknown; fields: Array<[string, Uint8Array]> } {
  const prototype: unknown = typeof value === 'object' && value !== null ? Object.getPrototypeOf(value) : undefined;
  if (prototype !== Object.prototype && prototype !== null) return { json: value, fields: [] };
  const fields: Array<[string, Uint8Array]> = [];
  const rest: Array<[string, unknown]> = [];
  for (const [name, field] of Object.entries(value as object)) {
    if (field instanceof Uint8Array) fields.push([name, field]);
    else rest.push([name, field]);
  }
  return { json: fields.length === 0 ? value : Object.fromEntries(rest), fields };
}

function isSameBytes(bytes: Buffer, stored: StoredBytes): boolean {
  return bytes.byteLength === stored.fields.reduce((total, field) => total + field.length, 0) && createHash('sha256').update(bytes).digest('hex') === stored.sha256;
}

/** The record's value with its byte fields put back, as plain views of the file's bytes (a Buffer would write itself to JSON as an array of numbers). */
function withBytes(value: Record<string, unknown>, fields: StoredBytes['fields'], bytes: Buffer): Record<string, unknown> {
  let offset = 0;
  for (const { name, length } of fields) {
    // Defined rather than assigned: a field named `__proto__` stays a field.
    Object.defineProperty(value, name, { value: new Uint8Array(bytes.buffer, bytes.byteOffset + offset, length), enumerable: true, writable: true, configurable: true });
    offset += length;
  }
  return value;
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
  const entry: FileEntry = { key: parsed['key'], expiresAtInMs, value: parsed['value'] };
  if (parsed['bytes'] === undefined) return entry;
  // Byte fields are only ever taken out of an object.
  if (!isStoredBytes(parsed['bytes']) || !isRecord(entry.value)) return undefined;
  entry.bytes = parsed['bytes'];
  return entry;
}

function isStoredBytes(value: unknown): value is StoredBytes {
  return (
    isRecord(value) &&
    typeof value['sha256'] === 'string' &&
    Array.isArray(value['fields']) &&
    value['fields'].every((field) => isRecord(field) && typeof field['name'] === 'string' && Number.isSafeInteger(field['length']) && (field['length'] as number) >= 0)
  );
}
