import { describe, expect, it } from 'vitest';
import { callManifest, discoverCallService } from '../../../test/helpers/call-service.js';
import { json, useClientTestServers } from '../../../test/helpers/client-test-server.js';
import { createMemoryCacheStore } from '../cache/cache-store.js';
import { createClient } from '../create-client.js';

const servers = useClientTestServers();

describe('discoverService', () => {
  it('calls tools of a base_url the URL parser normalises (scheme and host case, default port, dot segments)', async () => {
    servers.a.routes.set('/api/items', json({ items: [1, 2] }));
    const spelled = `HTTP://127.0.0.1:${servers.a.port}/api/../api`;
    const client = await discoverCallService(
      servers.a,
      callManifest(spelled.replace(/\/api\/\.\.\/api$/, ''), [{ id: 'list_items', path: '/items', method: 'GET', description: 'Lists items.' }], {
        service: { name: 'Call Test API', base_url: spelled },
      }),
    );
    const envelope = await client.call('list_items');
    expect(envelope.ok).toBe(true);
    expect(envelope.data).toEqual({ items: [1, 2] });
    expect(servers.a.hits('/api/items')).toHaveLength(1);
    await client.close();
  });

  it('rediscovering within max-age sends nothing and returns the same service object', async () => {
    const manifest = callManifest(servers.a.origin, [{ id: 'list_items', path: '/items', method: 'GET', description: 'Lists items.' }]);
    servers.a.routes.set('/.well-known/ai-capabilities', json(manifest, { 'cache-control': 'max-age=3600', etag: '"v1"' }));
    const client = createClient();
    const first = await client.discover(servers.a.origin);
    const again = await client.discover(servers.a.origin);
    expect(again).toBe(first);
    expect(servers.a.hits('/.well-known/ai-capabilities')).toHaveLength(1);
    await client.close();
  });

  it('a 304 keeps the service object; a changed manifest replaces it and reports the change', async () => {
    let manifest = callManifest(servers.a.origin, [{ id: 'list_items', path: '/items', method: 'GET', description: 'Lists items.' }]);
    let etag = '"v1"';
    servers.a.routes.set('/.well-known/ai-capabilities', (request, response) => {
      if (request.headers['if-none-match'] === etag) return void response.writeHead(304, { etag, 'cache-control': 'max-age=0' }).end();
      response.writeHead(200, { 'content-type': 'application/json', etag, 'cache-control': 'max-age=0' }).end(JSON.stringify(manifest));
    });
    const changes: string[][] = [];
    const client = createClient({ onChange: (event) => changes.push(event.changed) });
    const first = await client.discover(servers.a.origin);
    expect(await client.discover(servers.a.origin)).toBe(first);
    manifest = callManifest(servers.a.origin, [{ id: 'list_items', path: '/items', method: 'GET', description: 'Lists every item.' }]);
    etag = '"v2"';
    const changed = await client.discover(servers.a.origin);
    expect(changed).not.toBe(first);
    expect(changes).toEqual([['list_items']]);
    expect(servers.a.hits('/.well-known/ai-capabilities').map((request) => request.headers['if-none-match'])).toEqual([undefined, '"v1"', '"v1"']);
    await client.close();
  });
  it('a 304 of unchanged bytes neither scans nor evaluates trust again, and the catalog keeps its tools array', async () => {
    const manifest = callManifest(servers.a.origin, [{ id: 'list_items', path: '/items', method: 'GET', description: 'Lists items.' }]);
    servers.a.routes.set('/.well-known/ai-capabilities', (request, response) => {
      if (request.headers['if-none-match'] === '"v1"') return void response.writeHead(304, { etag: '"v1"', 'cache-control': 'max-age=0' }).end();
      response.writeHead(200, { 'content-type': 'application/json', etag: '"v1"', 'cache-control': 'max-age=0' }).end(JSON.stringify(manifest));
    });
    // The scan reads `maxTextLength`, the quarantine decision `allowQuarantined`: counting the reads counts the passes.
    const reads = { scan: 0, quarantine: 0 };
    const trust = {
      get maxTextLength() {
        reads.scan++;
        return 2_000;
      },
      get allowQuarantined() {
        reads.quarantine++;
        return [];
      },
    };
    const client = createClient({ trust });
    const first = await client.discover(servers.a.origin);
    const tools = client.catalog().tools;
    const afterFirst = { ...reads };
    expect(afterFirst.scan).toBeGreaterThan(0);
    expect(afterFirst.quarantine).toBeGreaterThan(0);
    for (let round = 0; round < 3; round++) expect(await client.discover(servers.a.origin)).toBe(first);
    expect(reads).toEqual(afterFirst);
    expect(client.catalog().tools).toBe(tools);
    expect(servers.a.hits('/.well-known/ai-capabilities')).toHaveLength(4);
    await client.close();
  });

  it('an approval through the client and a pin written elsewhere into a given store both count on the next 304', async () => {
    let description = 'Lists items.';
    const manifestOf = () => callManifest(servers.a.origin, [{ id: 'list_items', path: '/items', method: 'GET', description }]);
    servers.a.routes.set('/.well-known/ai-capabilities', (request, response) => {
      const etag = `"${description.length}"`;
      if (request.headers['if-none-match'] === etag) return void response.writeHead(304, { etag, 'cache-control': 'max-age=0' }).end();
      response.writeHead(200, { 'content-type': 'application/json', etag, 'cache-control': 'max-age=0' }).end(JSON.stringify(manifestOf()));
    });
    const own = createClient();
    await own.discover(servers.a.origin);
    await own.approve('list_items');
    description = 'Lists every item.';
    expect((await own.discover(servers.a.origin)).disabledToolIds).toEqual(['list_items']);
    await own.approve('list_items');
    expect((await own.discover(servers.a.origin)).disabledToolIds).toEqual([]);
    await own.close();

    // A shared store (another process approves): read on every rediscovery, 304 or not.
    const pins = createMemoryCacheStore<string>();
    const shared = createClient({ trust: { pins } });
    expect((await shared.discover(servers.a.origin)).disabledToolIds).toEqual([]);
    await pins.set(`${servers.a.origin}|list_items`, 'a digest approved elsewhere');
    expect((await shared.discover(servers.a.origin)).disabledToolIds).toEqual(['list_items']);
    await pins.delete(`${servers.a.origin}|list_items`);
    expect((await shared.discover(servers.a.origin)).disabledToolIds).toEqual([]);
    await shared.close();
  });
});
