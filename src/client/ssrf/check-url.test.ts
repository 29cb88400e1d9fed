import { describe, expect, it } from 'vitest';
import { createAddressPolicy } from './address-policy.js';
import { checkUrl } from './check-url.js';

const policy = createAddressPolicy();

describe('checkUrl', () => {
  it.each(['file:///etc/passwd', 'http://127.1/', 'http://[::ffff:127.0.0.1]/', 'http://169.254.169.254/', 'http://app.localhost/'])('refuses %s for an untrusted origin', (url) => {
    expect(() => checkUrl(new URL(url), policy, () => false)).toThrow(expect.objectContaining({ code: 'SSRF_BLOCKED' }));
  });

  it('lets a trusted origin reach loopback but never link-local, and leaves names to the connector', () => {
    expect(() => checkUrl(new URL('http://127.0.0.1:8080/'), policy, () => true)).not.toThrow();
    expect(() => checkUrl(new URL('http://169.254.169.254/'), policy, () => true)).toThrow(expect.objectContaining({ range: 'linkLocal' }));
    expect(() => checkUrl(new URL('https://api.example.com/'), policy, () => false)).not.toThrow();
  });
});
