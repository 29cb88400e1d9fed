import { describe, expect, it } from 'vitest';
import { createTestContext, TEST_DOCUMENT_URL } from '../test-helpers/create-test-context.js';
import { PLACEHOLDER_BASE_URL, transformServerObject } from './server-object.js';

describe('transformServerObject', () => {
  const cases: Array<[string, { given: unknown; documentUrl?: string; want: string; warning?: string }]> = [
    ['takes servers[0] and drops the trailing slash', { given: [{ url: 'https://api.example.com/v1/' }, { url: 'https://other.example.com' }], want: 'https://api.example.com/v1' }],
    [
      'fills server variables with their defaults',
      { given: [{ url: 'https://{region}.example.com/{version}', variables: { region: { default: 'eu' }, version: { default: 'v2' } } }], want: 'https://eu.example.com/v2' },
    ],
    ['resolves a relative server URL against a URL description', { given: [{ url: '/api' }], documentUrl: 'https://example.com/specs/openapi.json', want: 'https://example.com/api' }],
    ['keeps http on loopback', { given: [{ url: 'http://127.0.0.1:8080' }], want: 'http://127.0.0.1:8080' }],
    ['upgrades http elsewhere to https', { given: [{ url: 'http://api.example.com' }], want: 'https://api.example.com', warning: 'service.base_url_upgraded' }],
    ['uses the placeholder when no server is declared', { given: undefined, want: PLACEHOLDER_BASE_URL, warning: 'service.base_url' }],
    ['uses the placeholder for a relative URL of a file description', { given: [{ url: '/v1' }], want: PLACEHOLDER_BASE_URL, warning: 'service.base_url' }],
    ['uses the placeholder when a variable has no default', { given: [{ url: 'https://{tenant}.example.com' }], want: PLACEHOLDER_BASE_URL, warning: 'service.base_url' }],
  ];
  it.each(cases)('%s', (_name, { given, documentUrl, want, warning }) => {
    const context = createTestContext();
    expect(transformServerObject(given, documentUrl ?? TEST_DOCUMENT_URL, context)).toBe(want);
    expect(context.warnings.map((item) => item.code)).toEqual(warning ? [warning] : []);
  });
});
