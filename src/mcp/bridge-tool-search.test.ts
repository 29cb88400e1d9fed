import { describe, expect, it } from 'vitest';
import type { Client } from '../client/index.js';
import type { Manifest } from '../manifest/manifest-v0.js';
import { catalogOf } from '../../test/helpers/catalog-of.js';
import type { CatalogTool } from '../tools/create-catalog.js';
import { createBridgeToolSearch } from './bridge-tool-search.js';

// The bridge's tool search over a stand-in client whose catalog the test can swap: no host, no socket.

function catalog(ids: string[]): CatalogTool[] {
  return catalogOf({
    schema_version: '0.3',
    service: { name: 'Shop', base_url: 'https://api.example.com' },
    tools: ids.map((id) => ({ id, description: `${id.replaceAll('_', ' ')} for the shop.`, method: 'GET', path: `/${id}` })),
  } as unknown as Manifest);
}

function setup(options: { pinned?: string[] } = {}) {
  let tools = catalog(['list_orders', 'refund_order', 'send_invoice', 'track_parcel']);
  let changes = 0;
  const client = { catalog: () => ({ tools }), toolHealth: () => undefined } as unknown as Client;
  const search = createBridgeToolSearch({
    client,
    exposure: { catalog: {}, query: undefined, maxTools: undefined },
    options: { ...(options.pinned ? { pinned: options.pinned } : {}) },
    toolsChanged: async () => void (changes += 1),
  });
  return {
    search,
    changes: () => changes,
    swap(ids: string[]) {
      tools = catalog(ids);
    },
  };
}

describe('createBridgeToolSearch', () => {
  it('describes itself as a read-only search tool', () => {
    const definition = setup().search.definition();
    expect(definition.name).toBe(setup().search.name);
    expect(definition.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    expect(definition.inputSchema).toMatchObject({ type: 'object' });
  });

  it('lists only pinned tools until a search loads more, and tells the host the list changed', async () => {
    const { search, changes } = setup({ pinned: ['list_orders'] });
    expect(search.listed().map((entry) => entry.tool.name)).toEqual(['list_orders']);
    const result = await search.run({ query: 'refund an order' });
    expect(result.isError).toBe(false);
    expect(search.listed().map((entry) => entry.tool.name)).toContain('refund_order');
    expect(changes()).toBe(1);
  });

  it('makes a tool of the catalog callable by name even before a search loaded it', () => {
    const { search } = setup();
    expect(search.callable('track_parcel')?.tool.id).toBe('track_parcel');
    expect(search.callable('no_such_tool')).toBeUndefined();
  });

  it('answers a call without a query as an error, and does not signal a change', async () => {
    const { search, changes } = setup();
    const result = await search.run({});
    expect(result.isError).toBe(true);
    expect(changes()).toBe(0);
  });

  it('starts again over a refreshed catalog, dropping pinned tools it no longer has', async () => {
    const { search, swap } = setup({ pinned: ['list_orders', 'send_invoice'] });
    swap(['send_invoice', 'cancel_order']);
    expect(search.listed().map((entry) => entry.tool.name)).toEqual(['send_invoice']);
    expect(search.callable('list_orders')).toBeUndefined();
    expect(search.callable('cancel_order')?.tool.id).toBe('cancel_order');
  });
});
