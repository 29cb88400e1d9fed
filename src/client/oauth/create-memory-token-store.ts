import { sameScopes, type TokenSet, type TokenStore, type TokenStoreKey } from '../shapes/token-store.js';

/**
 * A {@link TokenStore} in this process's memory: the default of the user-authorization functions.
 * Tokens are gone when the process ends; use the CLI's encrypted file store or `aicap/redis`'s
 * `createRedisTokenStore` to keep them. Values are copied in and out, so a caller mutating a
 * returned set does not change the stored one.
 */
export function createMemoryTokenStore(): TokenStore {
  const sets = new Map<string, TokenSet[]>();
  // JSON of a tuple: no separator a user or resource could contain can make two keys collide.
  const keyOf = (key: TokenStoreKey): string => JSON.stringify([key.user, key.resource]);
  const copy = (tokens: TokenSet): TokenSet => ({ ...tokens, scopes: [...tokens.scopes] });
  return {
    async get(key) {
      return (sets.get(keyOf(key)) ?? []).map(copy);
    },
    async put(key, tokens) {
      const others = (sets.get(keyOf(key)) ?? []).filter((stored) => !sameScopes(stored.scopes, tokens.scopes));
      sets.set(keyOf(key), [...others, copy(tokens)]);
    },
    async delete(key, scopes) {
      if (scopes === undefined) {
        sets.delete(keyOf(key));
        return;
      }
      const kept = (sets.get(keyOf(key)) ?? []).filter((stored) => !sameScopes(stored.scopes, scopes));
      if (kept.length === 0) sets.delete(keyOf(key));
      else sets.set(keyOf(key), kept);
    },
  };
}
