import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { AicapError } from '../errors/aicap-error.js';
import { checkIntegerOption } from '../errors/invalid-option-error.js';
import type { TokenSet, TokenStore, TokenStoreKey } from '../client/index.js';
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
  /**
  How long one process may hold a key's refresh lock, in milliseconds: the lock expires after it
  (a crashed process does not block the others), and a process waits at most twice this long for it.

  @default 10000
  */
  refreshLockTimeToLiveInMs?: number;
}

// Deletes the lock only if this process still holds it: an expired lock taken by another is left alone.
const RELEASE_SCRIPT = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;
const LOCK_POLL_INTERVAL_IN_MS = 25;

/** The hash field of a token set: its scopes, sorted and deduplicated, so the order never matters. */
function fieldOf(scopes: readonly string[]): string {
  return [...new Set(scopes)].sort().join(' ');
}

/**
 * The user {@link TokenStore} in Redis, so every process of a fleet acting for a user shares one
 * grant: one hash per user and resource (`<prefix>tokens:<user>:<resource>`, both URI-encoded), one
 * field per scope set, values as JSON. Refreshes are serialised across processes by a lock per key
 * (`withRefreshLock`: `SET NX PX`, released only by its holder), so a rotated refresh token is spent
 * once however many processes race an expired access token. Tokens are stored as they
 * are: protect the Redis with TLS (`rediss://`), ACLs and no persistence you would not trust with
 * passwords. Redis errors reject with `STORE_UNAVAILABLE`; error messages name keys, never tokens.
 */
export function createRedisTokenStore(options: CreateRedisTokenStoreOptions): TokenStore {
  const { redis } = options;
  const ttl = options.timeToLiveInMs === undefined ? undefined : checkIntegerOption('timeToLiveInMs', options.timeToLiveInMs, { minimum: 1 });
  const lockTimeToLive = checkIntegerOption('refreshLockTimeToLiveInMs', options.refreshLockTimeToLiveInMs ?? 10_000, { minimum: 1 });
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
    async withRefreshLock(key, refresh) {
      const lock = `${keyOf(key)}#refresh-lock`;
      const owner = randomUUID();
      const deadline = Date.now() + 2 * lockTimeToLive;
      for (let attempt = 0; ; attempt++) {
        if ((await redis.command<string | null>(['SET', lock, owner, 'NX', 'PX', String(lockTimeToLive)])) === 'OK') break;
        if (Date.now() > deadline || attempt > (2 * lockTimeToLive) / LOCK_POLL_INTERVAL_IN_MS) {
          throw new AicapError('STORE_UNAVAILABLE', `Another process held the token refresh lock ${lock} for more than ${2 * lockTimeToLive} ms (\`refreshLockTimeToLiveInMs\`); try the call again.`);
        }
        await sleep(LOCK_POLL_INTERVAL_IN_MS);
      }
      try {
        return await refresh();
      } finally {
        await redis.command(['EVAL', RELEASE_SCRIPT, '1', lock, owner]);
      }
    },
  };
}
