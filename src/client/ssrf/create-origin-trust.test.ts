import { describe, expect, it } from 'vitest';
import { createAddressPolicy } from './address-policy.js';
import { createOriginTrust } from './create-origin-trust.js';

function trustFor(typed: string[], options: { allow?: string[]; allowPrivateNames?: boolean } = {}) {
  return createOriginTrust({
    isTrustedOrigin: (origin) => typed.includes(origin),
    policy: createAddressPolicy(options.allow ?? []),
    allowPrivateNames: options.allowPrivateNames ?? false,
    allowPrivateNamesOption: 'network.allowPrivateNames',
  });
}

describe('createOriginTrust', () => {
  it.each(['http://127.0.0.1:8080', 'http://[::1]:3000', 'http://10.1.2.3', 'http://localhost:3000', 'http://api.localhost:3000'])(
    'trusts the typed origin %s (an address literal or a localhost name)',
    (origin) => {
      expect(trustFor([origin]).trusts(origin)).toBe(true);
    },
  );

  it('does not trust a typed DNS name, and says which option would', () => {
    const trust = trustFor(['https://partner-api.example']);
    expect(trust.trusts('https://partner-api.example')).toBe(false);
    expect(trust.refusalHint('https://partner-api.example')).toContain('network.allowPrivateNames');
  });

  it('trusts a typed DNS name with allowPrivateNames, and an allow-listed origin without it', () => {
    expect(trustFor(['https://partner-api.example'], { allowPrivateNames: true }).trusts('https://partner-api.example')).toBe(true);
    expect(trustFor([], { allow: ['https://intranet.example'] }).trusts('https://intranet.example')).toBe(true);
  });

  it('never trusts what the user did not type, and gives no hint for it', () => {
    const trust = trustFor(['http://127.0.0.1:8080'], { allowPrivateNames: true });
    expect(trust.trusts('http://127.0.0.1:9090')).toBe(false);
    expect(trust.trusts('https://linked.example')).toBe(false);
    expect(trustFor([]).refusalHint('https://linked.example')).toBe('');
  });
});
