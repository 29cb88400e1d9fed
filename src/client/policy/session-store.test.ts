import { describe, expect, it } from 'vitest';
import { createMemorySessionStore } from './session-store.js';

describe('createMemorySessionStore', () => {
  it('increments counters from zero', async () => {
    const store = createMemorySessionStore();
    expect(await store.increment('a', 1)).toBe(1);
    expect(await store.increment('a', 2)).toBe(3);
    expect(await store.increment('b', 1)).toBe(1);
  });

  it('stores values with an expiry', async () => {
    let now = 1_000;
    const store = createMemorySessionStore({ now: () => now });
    await store.set('pin', { digest: 'sha256-x' }, 500);
    expect(await store.get('pin')).toEqual({ digest: 'sha256-x' });
    now = 1_500;
    expect(await store.get('pin')).toBeUndefined();
  });

  it('forgets deleted keys', async () => {
    const store = createMemorySessionStore();
    await store.set('job', { lastEventId: '7' });
    await store.delete('job');
    expect(await store.get('job')).toBeUndefined();
  });
});
