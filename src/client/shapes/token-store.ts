/**
 * Where a user's OAuth tokens are kept between calls and between processes. The library ships a
 * memory store (the default), an encrypted file store (the CLI's) and a Redis store (`aicap/redis`);
 * any object with these three methods works.
 *
 * Tokens are secrets: a store never logs them, and errors it throws name the key, never a value.
 */

/** Whose tokens, for which protected resource. */
export interface TokenStoreKey {
  /** The person (or account) the tokens act for. The CLI uses `default`. */
  user: string;
  /** The protected resource the tokens are for: its RFC 9728 `resource` (RFC 8707 resource indicator). */
  resource: string;
}

/** One grant: the tokens an authorization server issued for one set of scopes. */
export interface TokenSet {
  /** The access token sent as `Authorization: Bearer …`. */
  accessToken: string;
  /** The refresh token, when the server issued one; replaced when the server rotates it. */
  refreshToken?: string;
  /** When the access token expires, in milliseconds since the epoch; undefined when the server did not say. */
  expiresAtInMs?: number;
  /** The scopes granted (from the token response's `scope`, or the scopes requested when it is absent). */
  scopes: readonly string[];
  /** The authorization server that issued the tokens (its `issuer`), used for refresh and revocation. */
  issuer: string;
  /** The client the tokens were issued to. */
  clientId: string;
}

/** Persistence for user tokens, keyed by user, resource and (within a key) scope set. */
export interface TokenStore {
  /** Every token set stored for `key`, one per distinct scope set; empty when there is none. */
  get(key: TokenStoreKey): Promise<readonly TokenSet[]>;
  /** Stores `tokens` under `key`, replacing the set with the same scopes (order ignored). */
  put(key: TokenStoreKey, tokens: TokenSet): Promise<void>;
  /** Removes the set with exactly `scopes` under `key`, or every set under `key` when `scopes` is omitted. */
  delete(key: TokenStoreKey, scopes?: readonly string[]): Promise<void>;
  /**
  Optional: runs `refresh` while no other process refreshes under `key` (a lock every process using
  the store shares), so that a rotated refresh token is spent once across a fleet. The client
  re-reads the store inside it and skips the refresh when another process has just done it. Without
  it, concurrent refreshes are shared within one process only.
  */
  withRefreshLock?<Result>(key: TokenStoreKey, refresh: () => Promise<Result>): Promise<Result>;
}

/** True when two scope lists hold the same scopes, order and repetition ignored. */
export function sameScopes(first: readonly string[], second: readonly string[]): boolean {
  const left = new Set(first);
  const right = new Set(second);
  return left.size === right.size && [...left].every((scope) => right.has(scope));
}

/** The user a key names when the caller does not say: the CLI's single local user. */
export const DEFAULT_TOKEN_USER = 'default';
