import { describe, expect, it } from 'vitest';
import { forbiddenHeaderReason } from './forbidden-header-parameter.js';

describe('forbiddenHeaderReason', () => {
  it('refuses headers that frame or route the message, in any case', () => {
    for (const name of ['Host', 'CONNECTION', 'content-length', 'Transfer-Encoding', 'upgrade', 'TE', 'trailer', 'Keep-Alive', 'expect', 'Proxy-Authorization', 'proxy-connection']) {
      expect(forbiddenHeaderReason(name)).toBe('the HTTP client sets it');
    }
  });

  it('sends cookies and credentials to where the manifest declares them instead', () => {
    expect(forbiddenHeaderReason('Cookie')).toContain('"in": "cookie"');
    expect(forbiddenHeaderReason('AUTHORIZATION')).toContain('"auth"');
  });

  it('allows ordinary and look-alike headers', () => {
    for (const name of ['X-Request-Id', 'Idempotency-Key', 'Accept-Language', 'X-Host', 'Hosts', 'Set-Cookie-Policy', 'X-Authorization-Hint']) expect(forbiddenHeaderReason(name)).toBeUndefined();
  });
});
