import { describe, expect, it } from 'vitest';
import { capabilitiesLink } from './capabilities-link.js';
import { createCatalogHandler } from './create-catalog-handler.js';

describe('capabilitiesLink', () => {
  it('points at the well-known path by default', () => {
    expect(capabilitiesLink()).toBe('</.well-known/ai-capabilities>; rel="ai-capabilities"');
    expect(capabilitiesLink('https://api.example.com/.well-known/ai-capabilities/payments')).toBe('<https://api.example.com/.well-known/ai-capabilities/payments>; rel="ai-capabilities"');
  });

  it.each(['/a>; rel="next', '/a b', '/a"'])('refuses a target that would break the header: %j', (target) => {
    expect(() => capabilitiesLink(target)).toThrow(/must not contain/);
  });
});

describe('createCatalogHandler', () => {
  const handler = createCatalogHandler({ manifests: [{ url: 'https://api.example.com/.well-known/ai-capabilities', name: 'Payments API' }] });

  it('lists the manifest as an AI Catalog entry served as application/ai-catalog+json', async () => {
    const response = await handler(new Request('http://evil.example/.well-known/ai-catalog.json', { headers: { Host: 'evil.example' } }));
    expect(response.headers.get('content-type')).toBe('application/ai-catalog+json');
    expect(await response.json()).toEqual({
      specVersion: '1.0',
      entries: [
        { identifier: 'urn:air:api.example.com:ai-capabilities', type: 'application/ai-capabilities+json', url: 'https://api.example.com/.well-known/ai-capabilities', displayName: 'Payments API' },
      ],
    });
  });

  it('answers 304 on a matching ETag and 405 to POST', async () => {
    const etag = (await handler(new Request('http://localhost/.well-known/ai-catalog.json'))).headers.get('etag') ?? '';
    expect((await handler(new Request('http://localhost/.well-known/ai-catalog.json', { headers: { 'If-None-Match': etag } }))).status).toBe(304);
    expect((await handler(new Request('http://localhost/.well-known/ai-catalog.json', { method: 'POST' }))).status).toBe(405);
  });

  it('throws at creation for a relative manifest URL, naming the option', () => {
    expect(() => createCatalogHandler({ manifests: [{ url: '/.well-known/ai-capabilities' }] })).toThrow(/`manifests\[0\]\.url` option of createCatalogHandler must be an absolute URL/);
  });
});
