import { describe, expect, it } from 'vitest';
import { createAddressPolicy } from './address-policy.js';

describe('createAddressPolicy', () => {
  const policy = createAddressPolicy();
  it.each([
    ['93.184.216.34', true, 'unicast'],
    ['2606:4700:4700::1111', true, 'unicast'],
    ['127.0.0.1', false, 'loopback'],
    ['::1', false, 'loopback'],
    ['::ffff:127.0.0.1', false, 'loopback'],
    ['::ffff:7f00:1', false, 'loopback'],
    ['10.0.0.1', false, 'private'],
    ['172.16.0.1', false, 'private'],
    ['192.168.1.1', false, 'private'],
    ['169.254.169.254', false, 'linkLocal'],
    ['fe80::1', false, 'linkLocal'],
    ['fc00::1', false, 'uniqueLocal'],
    ['0.0.0.0', false, 'unspecified'],
    ['::', false, 'unspecified'],
    ['224.0.0.1', false, 'multicast'],
    ['100.64.0.1', false, 'carrierGradeNat'],
    ['203.0.113.10', false, 'reserved'],
    ['not-an-ip', false, 'invalid'],
    // Forms that carry an IPv4 address (L13): refused, never taken for a public address.
    ['::7f00:1', false, 'ipv4Compatible'],
    ['::808:808', false, 'ipv4Compatible'],
    ['0:0:0:0:0:0:0:2', false, 'ipv4Compatible'],
    ['64:ff9b::7f00:1', false, 'rfc6052'],
    ['64:ff9b:1::7f00:1', false, 'rfc6052'],
    ['::ffff:0:7f00:1', false, 'rfc6145'],
    ['2002:7f00:1::', false, '6to4'],
    ['2001::1', false, 'teredo'],
  ])('%s → allowed %s (%s)', (address, allowed, range) => {
    expect(policy.check(address)).toEqual({ allowed, range });
  });

  it('allows loopback and private networks, never link-local, for a trusted (user-typed) origin', () => {
    expect(policy.check('127.0.0.1', true).allowed).toBe(true);
    expect(policy.check('10.1.2.3', true).allowed).toBe(true);
    expect(policy.check('fd12::1', true).allowed).toBe(true);
    expect(policy.check('169.254.169.254', true).allowed).toBe(false);
    expect(policy.check('0.0.0.0', true).allowed).toBe(false);
    expect(policy.check('::7f00:1', true).allowed).toBe(false);
  });

  it('gives the same verdict when asked again, kept apart for trusted and untrusted, and not changeable by a caller', () => {
    const fresh = createAddressPolicy();
    for (let round = 0; round < 3; round++) {
      expect(fresh.check('127.0.0.1')).toEqual({ allowed: false, range: 'loopback' });
      expect(fresh.check('127.0.0.1', true)).toEqual({ allowed: true, range: 'loopback' });
    }
    expect(Object.isFrozen(fresh.check('8.8.8.8'))).toBe(true);
    // More distinct addresses than it keeps: still right after it forgets.
    for (let index = 0; index < 1500; index++) expect(fresh.check(`10.0.${index >> 8}.${index & 255}`).allowed).toBe(false);
    expect(fresh.check('127.0.0.1', true).allowed).toBe(true);
  });

  it('honours CIDR blocks, single addresses and origins in the allow-list', () => {
    const allowing = createAddressPolicy(['10.0.0.0/8', '192.168.1.7', 'fd00::/8', 'http://127.0.0.1:8080']);
    expect(allowing.check('10.200.3.4').allowed).toBe(true);
    expect(allowing.check('::ffff:10.200.3.4').allowed).toBe(true);
    expect(allowing.check('192.168.1.7').allowed).toBe(true);
    expect(allowing.check('192.168.1.8').allowed).toBe(false);
    expect(allowing.check('fd00::5').allowed).toBe(true);
    expect(allowing.allowsOrigin('http://127.0.0.1:8080')).toBe(true);
    expect(allowing.allowsOrigin('http://127.0.0.1:8081')).toBe(false);
  });

  it.each(['10.0.0.0/33', 'example.com', 'ftp://x', ''])('refuses the allow-list entry %j naming the option', (entry) => {
    expect(() => createAddressPolicy([entry], 'network.allow')).toThrow(expect.objectContaining({ code: 'INVALID_OPTION', message: expect.stringContaining('`network.allow`') }));
  });
});
