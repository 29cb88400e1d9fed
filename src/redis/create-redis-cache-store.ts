import { AicapError } from '../errors/aicap-error.js';
import { checkIntegerOption } from '../errors/invalid-option-error.js';
import type { CacheStore } from '../client/index.js';
import { StoreUnavailableError, type AicapRedis } from './connect-redis.js';

/** Options of {@link createRedisCacheStore} and {@link createRedisPinStore}. */
export interface CreateRedisCacheStoreOptions {
  /** The connection, from `connectRedis`. */
  redis: AicapRedis;
  /**
  Part of the key after the connection's prefix: `<prefix><namespace><key>`.

  @default 'cache:' ('pins:' for the pin store)
  */
  namespace?: string;
  /**
  Largest JSON text of one value, in bytes. A larger value is not stored (the cache only misses;
  the pin store refuses with `INVALID_ARGUMENT`).

  @default 8388608 (8 MiB)
  */
  maxValueBytes?: number;
}

/**
 * A client {@link CacheStore} in Redis (`SET … PX`, `GET`, `DEL`; values as JSON), so several
 * orchestrator processes share fetched manifests. A value over `maxValueBytes` is skipped, since a
 * cache may always miss. Redis errors reject with `STORE_UNAVAILABLE`.
 */
export function createRedisCacheStore<Value = unknown>(options: CreateRedisCacheStoreOptions): CacheStore<Value> {
  return jsonStore<Value>(options, 'cache:', false);
}

/**
 * The approval pins (`trust.pins` of the client) in Redis, shared by every process, never expiring.
 * It fails closed: a Redis error rejects (`STORE_UNAVAILABLE`), so a pinned tool is never taken as
 * unpinned, and a pin too large to store is refused rather than dropped.
 */
export function createRedisPinStore(options: CreateRedisCacheStoreOptions): CacheStore<string> {
  return jsonStore<string>(options, 'pins:', true);
}

function jsonStore<Value>(options: CreateRedisCacheStoreOptions, defaultNamespace: string, strict: boolean): CacheStore<Value> {
  const { redis } = options;
  const maxValueBytes = checkIntegerOption('maxValueBytes', options.maxValueBytes ?? 8 * 1024 * 1024, { minimum: 1 });
  const prefix = `${redis.prefix}${options.namespace ?? defaultNamespace}`;
  return {
    async get(key) {
      const text = await redis.command<string | null>(['GET', prefix + key]);
      if (text === null) return undefined;
      try {
        return JSON.parse(text) as Value;
      } catch (error) {
        // Written by something else, or cut short: a cache may miss, a pin must not pass for absent.
        if (!strict) return undefined;
        throw new StoreUnavailableError('STORE_UNAVAILABLE', `The value at ${prefix + key} in Redis is not JSON; delete the key or restore it.`, { cause: error });
      }
    },
    async set(key, value, timeToLiveInMs) {
      const text = JSON.stringify(value) as string | undefined;
      if (text === undefined) {
        if (strict) throw new AicapError('INVALID_ARGUMENT', `The value for ${key} cannot be stored as JSON (${typeof value}).`);
        return;
      }
      if (Buffer.byteLength(text) > maxValueBytes) {
        if (strict) throw new AicapError('INVALID_ARGUMENT', `The value for ${key} is ${Buffer.byteLength(text)} bytes, over \`maxValueBytes\` (${maxValueBytes}).`);
        return;
      }
      // A hint only (see CacheStore): one Redis would refuse (NaN, Infinity) means no expiry.
      const ttl = timeToLiveInMs === undefined || !Number.isFinite(timeToLiveInMs) ? [] : ['PX', String(Math.max(1, Math.ceil(timeToLiveInMs)))];
      await redis.command(['SET', prefix + key, text, ...ttl]);
    },
    async delete(key) {
      await redis.command(['DEL', prefix + key]);
    },
  };
}
