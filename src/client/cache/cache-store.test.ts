import { describe, expect, it } from 'vitest';
import { createMemoryCacheStore } from './cache-store.js';

describe('createMemoryCacheStore', () => {
  it('forgets entries after their time to live', () => {
    let now = 1_000;
    const store = createMemoryCacheStore<string>({ now: () => now });
    store.set('a', 'one', 100);
    store.set('b', 'two');
    expect(store.get('a')).toBe('one');
    now += 100;
    expect(store.get('a')).toBeUndefined();
    expect(store.get('b')).toBe('two');
  });

  it('evicts the oldest entry beyond maxEntries', () => {
    const store = createMemoryCacheStore<number>({ maxEntries: 2 });
    store.set('a', 1);
    store.set('b', 2);
    store.set('a', 3);
    store.set('c', 4);
    expect([store.get('a'), store.get('b'), store.get('c')]).toEqual([3, undefined, 4]);
    store.delete('a');
    expect(store.get('a')).toBeUndefined();
  });
});
