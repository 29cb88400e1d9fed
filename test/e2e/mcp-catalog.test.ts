import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/client/index.js';
import { createCatalogHandler } from '../../src/server/index.js';
import { json, startClientTestServer, type ClientTestServer } from '../helpers/client-test-server.js';
import { smallManifest } from '../helpers/client-manifests.js';

let server: ClientTestServer;

beforeAll(async () => {
  server = await startClientTestServer();
});

afterAll(async () => {
  await server.close();
});

describe('AI Catalog: what aicap emits and what it reads', () => {
  it('emits the draft field names, inline data entries and nested catalogs, and answers a preflight', async () => {
    const handler = createCatalogHandler({
      manifests: [{ url: 'https://api.example.com/.well-known/ai-capabilities', displayName: 'Payments API' }],
      entries: [
        { identifier: 'urn:air:api.example.com:mcp:payments', type: 'application/mcp-server-card+json', data: { name: 'example.com/payments', version: '1.0.0' } },
        { identifier: 'urn:air:api.example.com:catalog:partners', type: 'application/ai-catalog+json', url: 'https://api.example.com/partners/ai-catalog.json' },
      ],
    });
    const catalog = (await (await handler(new Request('https://api.example.com/.well-known/ai-catalog.json'))).json()) as { entries: Array<Record<string, unknown>> };
    expect(catalog.entries[0]).toEqual({
      identifier: 'urn:air:api.example.com:ai-capabilities',
      type: 'application/ai-capabilities+json',
      url: 'https://api.example.com/.well-known/ai-capabilities',
      displayName: 'Payments API',
    });
    expect(catalog.entries[1]).toMatchObject({ data: { name: 'example.com/payments' } });
    expect(catalog.entries.every((entry) => 'url' in entry !== 'data' in entry)).toBe(true);
    const preflight = await handler(new Request('https://api.example.com/.well-known/ai-catalog.json', { method: 'OPTIONS' }));
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-methods')).toContain('GET');
    expect(() => createCatalogHandler({ manifests: [], entries: [{ identifier: 'x', type: 't', url: 'https://a.example', data: {} } as never] })).toThrow(/exactly one of `url` and `data`/);
  });

  it('discovers a manifest listed with the older mediaType field inside a nested catalog', async () => {
    server.routes.set(
      '/.well-known/ai-catalog.json',
      json({
        specVersion: '1.0',
        entries: [
          { identifier: 'urn:air:x:mcp:a', type: 'application/mcp-server-card+json', url: '/mcp/server-card' },
          { identifier: 'urn:air:x:catalog:apis', type: 'application/ai-catalog+json', url: '/apis/ai-catalog.json' },
        ],
      }),
    );
    server.routes.set(
      '/apis/ai-catalog.json',
      json({ specVersion: '1.0', entries: [{ identifier: 'urn:air:x:ai-capabilities:todo', mediaType: 'application/ai-capabilities+json', url: '/apis/todo/manifest.json' }] }),
    );
    server.routes.set(
      '/apis/todo/manifest.json',
      json(smallManifest('Todo', server.origin, [{ id: 'list_todos', description: 'Lists the to-dos.' }]), { 'content-type': 'application/ai-capabilities+json' }),
    );
    const client = createClient();
    try {
      const service = await client.discover(server.origin);
      expect(service.manifestUrl).toBe(`${server.origin}/apis/todo/manifest.json`);
      expect(client.catalog().tools.map((tool) => tool.id)).toEqual(['list_todos']);
    } finally {
      await client.close();
    }
  });

  it('reads an inline nested catalog and says why an inline manifest is not used', async () => {
    server.routes.set(
      '/.well-known/ai-catalog.json',
      json({
        specVersion: '1.0',
        entries: [
          { identifier: 'urn:air:x:ai-capabilities:inline', type: 'application/ai-capabilities+json', data: smallManifest('Inline', server.origin, [{ id: 'a', description: 'A.' }]) },
          {
            identifier: 'urn:air:x:catalog:n',
            type: 'application/ai-catalog+json',
            data: { specVersion: '1.0', entries: [{ identifier: 'urn:air:x:ai-capabilities:todo', type: 'application/ai-capabilities+json', url: '/apis/todo/manifest.json' }] },
          },
        ],
      }),
    );
    const client = createClient();
    try {
      expect((await client.discover(server.origin)).manifestUrl).toBe(`${server.origin}/apis/todo/manifest.json`);
    } finally {
      await client.close();
    }
    server.routes.set(
      '/.well-known/ai-catalog.json',
      json({ specVersion: '1.0', entries: [{ identifier: 'urn:air:x:ai-capabilities:inline', type: 'application/ai-capabilities+json', data: { service: {} } }] }),
    );
    const second = createClient();
    try {
      await expect(second.discover(server.origin)).rejects.toThrow(/inline \(`data`\); only manifests linked by `url` are used/);
    } finally {
      await second.close();
    }
  });
});
