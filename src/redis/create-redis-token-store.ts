import { AicapError } from '../errors/aicap-error.js';
import type { TokenSet, TokenStore, TokenStoreKey } from '../client/oauth/token-store.js';
import type { AicapRedis } from './connect-redis.js';

/** Options of {@link createRedisTokenStore}. */
export interface CreateRedisTokenStoreOptions {
  /** The connection, from `connectRedis`. */
  redis: AicapRedis;
  /**
  Part of the key after the connection's prefix: `<prefix><namespace><user>:<resource>`.

  @default 'tokens:'
  */
  namespace?: string;
  /**
  How long a key's token sets live after their last `put`, in milliseconds; `undefined` keeps them
  until deleted. Set it to the refresh tokens' lifetime so abandoned grants do not pile up.

  @default undefined
  */
  timeToLiveInMs?: number;
}

/** The hash field of a token set: its scopes, sorted and deduplicated, so the order never matters. */
function fieldOf(scopes: readonly string[]): string {
  return [...new Set(scopes)].sort().join(' ');
}

/**
 * The user {@link TokenStore} in Redis, so every process of a fleet acting for a user shares one
 * grant: one hash per user and resource (`<prefix>tokens:<user>:<resource>`, both URI-encoded), one
 * field per scope set, values as JSON. Refreshes in one process are seen by the others; a refresh
 * token rotated by another process is picked up after an `invalid_grant`. Tokens are stored as they
 * are: protect the Redis with TLS (`rediss://`), ACLs and no persistence you would not trust with
 * passwords. Redis errors reject with `STORE_UNAVAILABLE`; error messages name keys, never tokens.
 */
export function createRedisTokenStore(options: CreateRedisTokenStoreOptions): TokenStore {
  const { redis } = options;
  const ttl = options.timeToLiveInMs;
  if (ttl !== undefined && (!Number.isSafeInteger(ttl) || ttl < 1)) throw new AicapError('INVALID_OPTION', `\`timeToLiveInMs\` must be a positive integer of milliseconds, got ${String(ttl)}.`);
  const prefix = `${redis.prefix}${options.namespace ?? 'tokens:'}`;
  const keyOf = (key: TokenStoreKey): string => `${prefix}${encodeURIComponent(key.user)}:${encodeURIComponent(key.resource)}`;
  return {
    async get(key) {
      const values = await redis.command<string[]>(['HVALS', keyOf(key)]);
      const sets: TokenSet[] = [];
      for (const value of values) {
        try {
          sets.push(JSON.parse(value) as TokenSet);
        } catch {
          // Not written by this store: skipped rather than handed out as a token.
        }
      }
      return sets;
    },
    async put(key, tokens) {
      await redis.command(['HSET', keyOf(key), fieldOf(tokens.scopes), JSON.stringify(tokens)]);
      if (ttl !== undefined) await redis.command(['PEXPIRE', keyOf(key), String(ttl)]);
    },
    async delete(key, scopes) {
      await redis.command(scopes === undefined ? ['DEL', keyOf(key)] : ['HDEL', keyOf(key), fieldOf(scopes)]);
    },
  };
}
