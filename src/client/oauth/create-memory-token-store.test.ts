import { describe, expect, it } from 'vitest';
import { createMemoryTokenStore } from './create-memory-token-store.js';
import type { TokenSet } from '../shapes/token-store.js';

const tokens = (accessToken: string, scopes: string[]): TokenSet => ({ accessToken, scopes, issuer: 'https://idp.example', clientId: 'aicap' });

describe('createMemoryTokenStore', () => {
  it('keeps one set per scope set and key, deletes by scopes or whole, and hands out copies', async () => {
    const store = createMemoryTokenStore();
    const key = { user: 'alice', resource: 'https://api.example/v2' };
    await store.put(key, tokens('a', ['read']));
    await store.put(key, tokens('b', ['write', 'read']));
    await store.put(key, tokens('c', ['read', 'write']));
    expect((await store.get(key)).map((set) => set.accessToken)).toEqual(['a', 'c']);
    expect(await store.get({ user: 'alice', resource: 'https://api.example' })).toEqual([]);
    const [first] = await store.get(key);
    (first!.scopes as string[]).push('admin');
    expect((await store.get(key))[0]?.scopes).toEqual(['read']);
    await store.delete(key, ['write', 'read']);
    expect((await store.get(key)).map((set) => set.accessToken)).toEqual(['a']);
    await store.delete(key);
    expect(await store.get(key)).toEqual([]);
  });
});
