import { describe, expect, it } from 'vitest';
import { checkOriginBinding } from './check-origin-binding.js';

const MANIFEST = 'https://api.example.com/.well-known/ai-capabilities';
const PATH_INSERTED = 'https://api.example.com/.well-known/ai-capabilities/api';

describe('checkOriginBinding', () => {
  it.each([
    ['same origin, any path', MANIFEST, 'https://api.example.com/v2', true],
    ['same origin, root', MANIFEST, 'https://api.example.com', true],
    ['another host', MANIFEST, 'https://evil.example.com/v2', false],
    ['a sub-domain', MANIFEST, 'https://v2.api.example.com', false],
    ['another port', MANIFEST, 'https://api.example.com:8443/v2', false],
    ['http instead of https', MANIFEST, 'http://api.example.com/v2', false],
    ['userinfo', MANIFEST, 'https://user:pass@api.example.com/v2', false],
    ['a query string', MANIFEST, 'https://api.example.com/v2?x=1', false],
    ['a fragment', MANIFEST, 'https://api.example.com/v2#frag', false],
    ['a dot-dot segment (resolved by the parser: /admin, same origin)', MANIFEST, 'https://api.example.com/api/../admin', true],
    ['a spelling the parser normalises', MANIFEST, 'HTTPS://API.EXAMPLE.com:443/v1/../v1', true],
    ['a dot-dot segment leaving the published path', PATH_INSERTED, 'https://api.example.com/api/../admin', false],
    ['an encoded dot-dot segment', MANIFEST, 'https://api.example.com/api/%2e%2e/admin', false],
    ['a mixed-case encoded dot segment', MANIFEST, 'https://api.example.com/api/.%2E/admin', false],
    ['an encoded slash', MANIFEST, 'https://api.example.com/api%2f..%2fadmin', false],
    ['the published path itself', PATH_INSERTED, 'https://api.example.com/api', true],
    ['under the published path', PATH_INSERTED, 'https://api.example.com/api/v1', true],
    ['the published path with a trailing slash', PATH_INSERTED, 'https://api.example.com/api/', true],
    ['a sibling sharing the prefix (/apixxx)', PATH_INSERTED, 'https://api.example.com/apixxx', false],
    ['outside the published path', PATH_INSERTED, 'https://api.example.com/admin', false],
  ])('%s → %s', (_name, manifestUrl, baseUrl, allowed) => {
    // The manifest URL as text, or as the `URL` discovery already parsed: the same verdict.
    for (const given of [manifestUrl, new URL(manifestUrl)]) {
      const check = (): void => checkOriginBinding(given, baseUrl, new Set());
      if (allowed) expect(check).not.toThrow();
      else expect(check).toThrow(expect.objectContaining({ code: 'ORIGIN_MISMATCH', message: expect.stringContaining('https://api.example.com') }));
    }
  });

  it('names both origins in the error', () => {
    expect(() => checkOriginBinding(MANIFEST, 'https://evil.example.com/v2', new Set())).toThrow(/https:\/\/api\.example\.com.*https:\/\/evil\.example\.com/);
  });

  it('accepts an allow-listed origin', () => {
    expect(() => checkOriginBinding(MANIFEST, 'https://cdn.example.net/v2', new Set(['https://cdn.example.net']))).not.toThrow();
  });
});
