import { describe, expect, it, vi } from 'vitest';
import { smallManifest } from '../../test/helpers/client-manifests.js';
import { swapIndexPostings } from '../../test/helpers/swap-index-postings.js';
import { selectTools } from '../tools/index.js';
import * as indexHooks from '../tools/selection/selection-index-hooks.js';
import { loadedSelectionIndexCodec, whenToolIndexReady } from '../tools/selection/selection-index-hooks.js';
import { forgetSharedToolIndexes, indexFor } from '../tools/selection/tool-index.js';
import type { CacheStore } from './cache/cache-store.js';
import { createClient } from './create-client.js';
import type { ClientOptions } from './client-options.js';
import type { Manifest } from '../manifest/manifest-v0.js';

// Each test its own manifest text: indexes of equal tool lists are shared in a process, and one test
// installs a deliberately wrong one.
let manifests = 0;
function paymentsManifest(): Manifest {
  manifests += 1;
  return smallManifest('Payments API', 'https://payments.example/v1', [
    { id: 'list_invoices', description: `Lists the invoices of an account (edition ${manifests}).` },
    { id: 'refund_payment', description: 'Refunds a captured payment to the card it came from.', method: 'POST' },
    { id: 'create_customer', description: 'Creates a customer with an email address.', method: 'POST' },
  ]);
}
const REQUEST = 'refund the captured payment';

/** A store whose entries a test reads and rewrites, private or shared (others may write it). */
function inspectableStore(isPrivate: boolean): CacheStore & { entries: Map<string, unknown> } {
  const entries = new Map<string, unknown>();
  return { private: isPrivate, entries, get: (key) => entries.get(key), set: (key, value) => void entries.set(key, value), delete: (key) => void entries.delete(key) };
}

function indexRecords(store: { entries: Map<string, unknown> }): Array<[string, { text: string; mac?: string }]> {
  return [...store.entries].filter(([key]) => key.startsWith('selection-index|')) as Array<[string, { text: string; mac?: string }]>;
}

/** One process's turn: load the manifest, take the catalog, and say whether its index was there before the first query. */
async function firstTurn(options: ClientOptions, manifest: Manifest): Promise<{ indexedBeforeQuery: boolean; ranked: string[] }> {
  const client = createClient(options);
  await client.load(structuredClone(manifest));
  const { tools } = client.catalog();
  let indexedBeforeQuery = false;
  whenToolIndexReady(tools, () => (indexedBeforeQuery = true));
  const before = indexedBeforeQuery;
  const ranked = selectTools(tools, REQUEST, { limit: 3 }).map((entry) => entry.tool.id);
  await client.close();
  return { indexedBeforeQuery: before, ranked };
}

describe('selection index persisted in the cache store', () => {
  it('a later client of the same manifests starts with the index the first one built, and uses it', async () => {
    const payments = paymentsManifest();
    const store = inspectableStore(true);
    const first = await firstTurn({ cache: store }, payments);
    expect(first.indexedBeforeQuery).toBe(false);
    expect(first.ranked[0]).toBe('refund_payment');
    const records = indexRecords(store);
    expect(records).toHaveLength(1);
    expect(JSON.parse(records[0]![1].text)).toMatchObject({ format: 'aicap-selection-index/3' });

    // A later process: it holds no index of its own yet.
    forgetSharedToolIndexes();
    const second = await firstTurn({ cache: store }, payments);
    expect(second).toEqual({ indexedBeforeQuery: true, ranked: first.ranked });

    // The restored record really is the index the query reads: one that ranks otherwise changes the answer.
    const [key, record] = records[0]!;
    store.entries.set(key, { text: swapIndexPostings(record.text, 1, 2) });
    forgetSharedToolIndexes();
    const steered = await firstTurn({ cache: store }, payments);
    expect(steered.indexedBeforeQuery).toBe(true);
    expect(steered.ranked[0]).toBe('create_customer');
  });

  it('in a store others write, keeps no record without a signing key, and refuses a record whose signature does not match', async () => {
    const payments = paymentsManifest();
    const unsigned = inspectableStore(false);
    await firstTurn({ cache: unsigned }, payments);
    expect(indexRecords(unsigned)).toEqual([]);

    const shared = inspectableStore(false);
    const signing = { cache: shared, trust: { verifiedManifests: { signingKey: 'k'.repeat(32) } } } satisfies ClientOptions;
    const first = await firstTurn(signing, payments);
    const [[key, record]] = indexRecords(shared) as [[string, { text: string; mac: string }]];
    expect(record.mac).toMatch(/^[\w-]{43}$/);
    expect((await firstTurn(signing, payments)).indexedBeforeQuery).toBe(true);

    for (const forged of [{ text: swapIndexPostings(record.text, 1, 2), mac: record.mac }, { text: swapIndexPostings(record.text, 1, 2) }]) {
      shared.entries.set(key, forged);
      expect(await firstTurn(signing, payments)).toEqual({ indexedBeforeQuery: false, ranked: first.ranked });
      // The refused record is replaced by the one this client built, signed.
      expect((shared.entries.get(key) as { text: string }).text).toBe(record.text);
    }
  });

  it.each([
    ['text that is not JSON', { text: '{"format":' }],
    ['JSON of another shape', { text: JSON.stringify({ format: 'aicap-selection-index/3', fingerprint: 'x' }) }],
    ['a position past the last tool', undefined],
    ['no record shape at all', 'garbage'],
  ])('a damaged record (%s) is ignored: the index is built and the record replaced', async (_case, damaged) => {
    const payments = paymentsManifest();
    const store = inspectableStore(true);
    const first = await firstTurn({ cache: store }, payments);
    const [key, record] = indexRecords(store)[0]!;
    const outOfRange = JSON.parse(record.text) as { postings: number[] };
    outOfRange.postings[1] = 99;
    store.entries.set(key, damaged ?? { text: JSON.stringify(outOfRange) });
    forgetSharedToolIndexes();
    expect(await firstTurn({ cache: store }, payments)).toEqual({ indexedBeforeQuery: false, ranked: first.ranked });
    expect(indexRecords(store)[0]![1].text).toBe(record.text);
  });

  it('a later client of a process that holds the record’s index takes it without parsing the record; a record of other tools is not taken', async () => {
    const payments = paymentsManifest();
    const store = inspectableStore(true);
    const first = await firstTurn({ cache: store }, payments);
    const codec = loadedSelectionIndexCodec()!;
    const restore = vi.spyOn(codec, 'restore');
    try {
      expect(await firstTurn({ cache: store }, payments)).toEqual({ indexedBeforeQuery: true, ranked: first.ranked });
      expect(restore).not.toHaveBeenCalled();
      // The record now names other tools (its fingerprint changed): the process's index of these tools is not shared under it.
      const [key, record] = indexRecords(store)[0]!;
      const other = JSON.parse(record.text) as { fingerprint: string };
      other.fingerprint = `${other.fingerprint.slice(0, -1)}${other.fingerprint.endsWith('A') ? 'B' : 'A'}`;
      store.entries.set(key, { text: JSON.stringify(other) });
      expect(await firstTurn({ cache: store }, payments)).toEqual({ indexedBeforeQuery: false, ranked: first.ranked });
      expect(restore).toHaveBeenCalledTimes(1);
    } finally {
      restore.mockRestore();
    }
  });

  it('a catalog of other tools for the same manifests (other scopes) builds its own index, not the stored one', async () => {
    const payments = paymentsManifest();
    const store = inspectableStore(true);
    const scoped = structuredClone(payments);
    scoped.auth = { type: 'bearer', scopes: { 'payments:write': ['refund_payment', 'create_customer'] } };
    const client = createClient({ cache: store });
    await client.load(structuredClone(scoped));
    selectTools(client.catalog().tools, REQUEST);
    await client.close();

    const limited = createClient({ cache: store });
    await limited.load(structuredClone(scoped), { grantedScopes: [] });
    const { tools } = limited.catalog();
    let indexedBeforeQuery = false;
    whenToolIndexReady(tools, () => (indexedBeforeQuery = true));
    expect(indexedBeforeQuery).toBe(false);
    expect(tools.map((tool) => tool.id)).toEqual(['list_invoices']);
    expect(selectTools(tools, 'list the invoices').map((entry) => entry.tool.id)).toEqual(['list_invoices']);
    await limited.close();
  });

  it("serialises no index into a client's own default store: a later default client of the process shares the first one's index", async () => {
    const payments = paymentsManifest();
    const codec = loadedSelectionIndexCodec()!;
    const serialize = vi.spyOn(codec, 'serialize');
    const built = vi.spyOn(indexHooks, 'markToolIndexReady');
    try {
      const first = await firstTurn({}, payments);
      const second = await firstTurn({}, payments);
      expect(second.ranked).toEqual(first.ranked);
      expect(serialize).not.toHaveBeenCalled();
      // Both catalogs got an index; the second's was the first's (`indexFor` shares equal lists).
      expect(built).toHaveBeenCalledTimes(2);
      const [firstTools, secondTools] = built.mock.calls.map(([tools]) => tools);
      expect(secondTools).not.toBe(firstTools);
      expect(indexFor(secondTools!)).toBe(indexFor(firstTools!));
    } finally {
      serialize.mockRestore();
      built.mockRestore();
    }
  });

  it('keeps nothing with `trust.verifiedManifests: false` or without a cache', async () => {
    const payments = paymentsManifest();
    const store = inspectableStore(true);
    await firstTurn({ cache: store, trust: { verifiedManifests: false } }, payments);
    expect(indexRecords(store)).toEqual([]);
    expect((await firstTurn({ cache: false }, payments)).ranked[0]).toBe('refund_payment');
  });
});
