import { describe, expect, it } from 'vitest';
import { smallManifest } from '../../test/helpers/client-manifests.js';
import { createClient } from './create-client.js';

describe('client.catalog(): one catalog per unchanged service set', () => {
  it('returns the same catalog and tools array until a service changes, per options', async () => {
    const client = createClient();
    await client.load(smallManifest('Alpha API', 'https://alpha.example/v1', [{ id: 'list_items', description: 'Lists items.' }]));
    const first = client.catalog();
    expect(client.catalog()).toBe(first);
    expect(client.catalog({}).tools).toBe(first.tools);
    const withResources = client.catalog({ includeResources: true });
    expect(withResources).not.toBe(first);
    expect(client.catalog({ includeResources: true })).toBe(withResources);
    expect(client.catalog()).toBe(first);

    await client.load(smallManifest('Beta API', 'https://beta.example/v1', [{ id: 'get_item', description: 'Gets one item.' }]));
    const second = client.catalog();
    expect(second).not.toBe(first);
    expect(second.tools.map((tool) => tool.id)).toEqual(['list_items', 'get_item']);
    expect(client.catalog()).toBe(second);
    await client.close();
  });

  it('reloading an unchanged manifest keeps the catalog; a changed one replaces it', async () => {
    const client = createClient();
    const manifest = smallManifest('Alpha API', 'https://alpha.example/v1', [{ id: 'list_items', description: 'Lists items.' }]);
    await client.load(manifest);
    const first = client.catalog();
    await client.load(JSON.stringify(manifest));
    expect(client.catalog()).toBe(first);
    manifest.tools[0]!.description = 'Lists every item.';
    await client.load(manifest);
    expect(client.catalog()).not.toBe(first);
    expect(client.catalog().tools[0]!.description).toContain('Lists every item.');
    await client.close();
  });
});
