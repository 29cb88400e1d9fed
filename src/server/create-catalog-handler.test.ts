import { describe, expect, it } from 'vitest';
import { thrownBy as errorOf } from '../../test/helpers/error-of.js';
import { CATALOG_MEDIA_TYPE, CATALOG_PATH, createCatalogHandler } from './create-catalog-handler.js';

const catalogUrl = `https://api.example.com${CATALOG_PATH}`;

describe('createCatalogHandler options', () => {
  it('refuses an empty catalog', () => {
    expect(errorOf(() => createCatalogHandler({ manifests: [] })).code).toBe('INVALID_OPTION');
  });

  it('refuses a manifest URL that is not absolute, naming the entry', () => {
    expect(errorOf(() => createCatalogHandler({ manifests: [{ url: 'https://a.example/.well-known/ai-capabilities' }, { url: '/relative' }] }))).toMatchObject({
      code: 'INVALID_OPTION',
      option: 'manifests[1].url',
    });
  });

  it('refuses an entry with both or neither of url and data', () => {
    const both = { identifier: 'x', type: 't', url: 'https://a.example/x', data: {} } as never;
    const neither = { identifier: 'x', type: 't' } as never;
    expect(errorOf(() => createCatalogHandler({ manifests: [], entries: [both] })).message).toContain('entries[0]');
    expect(errorOf(() => createCatalogHandler({ manifests: [], entries: [{ identifier: 'ok', type: 't', url: 'https://a.example/x' }, neither] })).message).toContain('entries[1]');
  });
});

describe('createCatalogHandler answers', () => {
  it('lists manifests with derived identifiers, then the other entries as given', async () => {
    const handler = createCatalogHandler({
      manifests: [
        { url: 'https://api.example.com/.well-known/ai-capabilities', displayName: 'Payments', description: 'Pay.' },
        { url: 'https://api.example.com/v2/catalog/.well-known/ai-capabilities/billing', name: 'Billing (old option name)' },
        { url: 'https://other.example/.well-known/ai-capabilities', identifier: 'urn:mine' },
      ],
      entries: [{ identifier: 'urn:card', type: 'application/mcp-server-card+json', data: { name: 'card' } }],
    });
    const response = await handler(new Request(catalogUrl));
    expect(response.headers.get('content-type')).toBe(CATALOG_MEDIA_TYPE);
    const catalog = (await response.json()) as { specVersion: string; entries: Array<Record<string, unknown>> };
    expect(catalog.specVersion).toBe('1.0');
    expect(catalog.entries.map((entry) => entry['identifier'])).toEqual(['urn:air:api.example.com:ai-capabilities', 'urn:air:api.example.com:ai-capabilities:billing', 'urn:mine', 'urn:card']);
    expect(catalog.entries[0]).toEqual({
      identifier: 'urn:air:api.example.com:ai-capabilities',
      type: 'application/ai-capabilities+json',
      url: 'https://api.example.com/.well-known/ai-capabilities',
      displayName: 'Payments',
      description: 'Pay.',
    });
    expect(catalog.entries[1]?.['displayName']).toBe('Billing (old option name)');
    expect(catalog.entries[3]).toEqual({ identifier: 'urn:card', type: 'application/mcp-server-card+json', data: { name: 'card' } });
  });

  it('never takes URLs from the request Host', async () => {
    const handler = createCatalogHandler({ manifests: [{ url: 'https://api.example.com/.well-known/ai-capabilities' }] });
    const text = await (await handler(new Request(`https://attacker.example${CATALOG_PATH}`, { headers: { 'x-forwarded-host': 'attacker.example' } }))).text();
    expect(text).not.toContain('attacker');
  });

  it('answers other paths 404 and other methods 405 with Allow', async () => {
    const handler = createCatalogHandler({ manifests: [{ url: 'https://api.example.com/.well-known/ai-capabilities' }] });
    expect((await handler(new Request('https://api.example.com/.well-known/ai-catalog'))).status).toBe(404);
    const post = await handler(new Request(catalogUrl, { method: 'POST', body: '{}' }));
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
  });

  it('answers a preflight, HEAD without a body, and 304 to its own ETag', async () => {
    const handler = createCatalogHandler({ manifests: [{ url: 'https://api.example.com/.well-known/ai-capabilities' }], cacheControl: 'no-cache' });
    const preflight = await handler(new Request(catalogUrl, { method: 'OPTIONS' }));
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-headers')).toBe('If-None-Match');
    const get = await handler(new Request(catalogUrl));
    const etag = get.headers.get('etag') ?? '';
    expect(get.headers.get('cache-control')).toBe('no-cache');
    expect(Number(get.headers.get('content-length'))).toBe((await get.arrayBuffer()).byteLength);
    const head = await handler(new Request(catalogUrl, { method: 'HEAD' }));
    expect(head.headers.get('etag')).toBe(etag);
    expect(await head.text()).toBe('');
    const notModified = await handler(new Request(catalogUrl, { headers: { 'if-none-match': `W/${etag}` } }));
    expect(notModified.status).toBe(304);
    expect(notModified.headers.get('content-type')).toBeNull();
  });
});
