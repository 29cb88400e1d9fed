import { describe, expect, it } from 'vitest';
import type { CacheStore } from './cache-store.js';
import { readSignedRecord, recordSlotOf, writeSignedRecord } from './signed-record.js';

function mapStore(isPrivate: boolean): CacheStore & { entries: Map<string, unknown> } {
  const entries = new Map<string, unknown>();
  return { private: isPrivate, entries, get: (key) => entries.get(key), set: (key, value) => void entries.set(key, value), delete: (key) => void entries.delete(key) };
}

const KEY = 'k'.repeat(32);

describe('recordSlotOf', () => {
  it.each([
    ['no store', undefined, undefined, false],
    ['a private store, no key', mapStore(true), undefined, true],
    ['a shared store, no key (a record there could be anyone’s)', mapStore(false), undefined, false],
    ['a shared store with a key', mapStore(false), KEY, true],
  ] as const)('%s: %s', (_case, store, signingKey, kept) => {
    expect(recordSlotOf(store, 'r|1', signingKey) !== undefined).toBe(kept);
  });
});

describe('readSignedRecord and writeSignedRecord', () => {
  it('reads back what was written, unsigned in a private store and signed in a shared one', async () => {
    const privateStore = mapStore(true);
    const privateSlot = recordSlotOf(privateStore, 'r|1', undefined)!;
    await writeSignedRecord(privateSlot, '{"a":1}', 1_000);
    expect(privateStore.entries.get('r|1')).toEqual({ text: '{"a":1}' });
    expect(await readSignedRecord(privateSlot)).toBe('{"a":1}');

    const shared = mapStore(false);
    const slot = recordSlotOf(shared, 'r|1', KEY)!;
    await writeSignedRecord(slot, '{"a":1}', 1_000);
    expect(shared.entries.get('r|1')).toEqual({ text: '{"a":1}', mac: expect.stringMatching(/^[\w-]{43}$/) });
    expect(await readSignedRecord(slot)).toBe('{"a":1}');
  });

  it.each([
    ['another text under the same MAC', (record: { text: string; mac: string }) => ({ ...record, text: '{"a":2}' })],
    ['no MAC', (record: { text: string; mac: string }) => ({ text: record.text })],
    ['a MAC of another length', (record: { text: string; mac: string }) => ({ ...record, mac: 'x' })],
    ['not a record', () => 'garbage'],
    ['a text that is not a string', (record: { text: string; mac: string }) => ({ ...record, text: 1 })],
  ])('refuses %s in a shared store', async (_case, tamper) => {
    const shared = mapStore(false);
    const slot = recordSlotOf(shared, 'r|1', KEY)!;
    await writeSignedRecord(slot, '{"a":1}', 1_000);
    shared.entries.set('r|1', tamper(shared.entries.get('r|1') as { text: string; mac: string }));
    expect(await readSignedRecord(slot)).toBeUndefined();
  });

  it('refuses a record signed under another key (copied from another slot), and one signed with another secret', async () => {
    const shared = mapStore(false);
    await writeSignedRecord(recordSlotOf(shared, 'r|1', KEY)!, '{"a":1}', 1_000);
    shared.entries.set('r|2', shared.entries.get('r|1'));
    expect(await readSignedRecord(recordSlotOf(shared, 'r|2', KEY)!)).toBeUndefined();
    expect(await readSignedRecord(recordSlotOf(shared, 'r|1', 'z'.repeat(32))!)).toBeUndefined();
  });

  it('treats a store that fails as a miss, on read and on write', async () => {
    const failing: CacheStore = {
      private: true,
      get: () => Promise.reject(new Error('connection reset')),
      set: () => Promise.reject(new Error('disk full')),
      delete: () => undefined,
    };
    const slot = recordSlotOf(failing, 'r|1', undefined)!;
    await expect(writeSignedRecord(slot, '{}', 1_000)).resolves.toBeUndefined();
    await expect(readSignedRecord(slot)).resolves.toBeUndefined();
  });
});
