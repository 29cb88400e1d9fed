import { AicapError } from '../errors/aicap-error.js';
import type { SessionStore } from '../client/index.js';
import type { AicapRedis } from './connect-redis.js';

/** Options of {@link createRedisSessionStore}. */
export interface CreateRedisSessionStoreOptions {
  /** The connection, from `connectRedis`. */
  redis: AicapRedis;
  /**
  How long a counter lives after its first increment, in milliseconds: a session's budget is
  forgotten then.

  @default 86400000 (one day)
  */
  counterTimeToLiveInMs?: number;
  /**
  Largest JSON text of one value stored with `set`, in bytes; a larger one is refused (`INVALID_ARGUMENT`).

  @default 65536
  */
  maxValueBytes?: number;
}

// INCRBY and the first PEXPIRE in one step: a counter never lives forever, and never loses its expiry to a race.
const INCREMENT_SCRIPT = `
local value = redis.call('INCRBY', KEYS[1], ARGV[1])
if redis.call('PTTL', KEYS[1]) == -1 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return value`;

/**
 * The client's {@link SessionStore} in Redis (keys `<prefix>session:<key>`), so several orchestrator
 * processes share one budget: `increment` is one atomic script (`INCRBY` plus the counter's expiry),
 * so of N concurrent calls against a budget of B exactly B see a value ≤ B, whatever process they
 * run in. It fails closed: a Redis error rejects with `STORE_UNAVAILABLE`, and the call is refused.
 */
export function createRedisSessionStore(options: CreateRedisSessionStoreOptions): SessionStore {
  const { redis } = options;
  const ttl = String(options.counterTimeToLiveInMs ?? 86_400_000);
  const maxValueBytes = options.maxValueBytes ?? 65_536;
  const prefix = `${redis.prefix}session:`;
  return {
    async increment(key, by) {
      if (!Number.isSafeInteger(by)) throw new AicapError('INVALID_ARGUMENT', `increment needs an integer, got ${String(by)}.`);
      return Number(await redis.command<number>(['EVAL', INCREMENT_SCRIPT, '1', prefix + key, String(by), ttl]));
    },
    async get(key) {
      const text = await redis.command<string | null>(['GET', prefix + key]);
      if (text === null) return undefined;
      try {
        return JSON.parse(text) as unknown;
      } catch {
        // A counter is stored by INCRBY as a bare integer, which is JSON too; anything else is not ours.
        return undefined;
      }
    },
    async set(key, value, timeToLiveInMs) {
      const text = JSON.stringify(value);
      if (Buffer.byteLength(text) > maxValueBytes)
        throw new AicapError('INVALID_ARGUMENT', `The session value for ${key} is ${Buffer.byteLength(text)} bytes, over \`maxValueBytes\` (${maxValueBytes}).`);
      const expiry = timeToLiveInMs === undefined ? [] : ['PX', String(Math.max(1, Math.ceil(timeToLiveInMs)))];
      await redis.command(['SET', prefix + key, text, ...expiry]);
    },
    async delete(key) {
      await redis.command(['DEL', prefix + key]);
    },
  };
}
