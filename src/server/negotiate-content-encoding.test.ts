import { describe, expect, it } from 'vitest';
import { negotiateContentEncoding } from './negotiate-content-encoding.js';

describe('negotiateContentEncoding', () => {
  it.each([
    [null, 'identity'],
    ['', 'identity'],
    ['gzip, deflate', 'gzip'],
    ['gzip, deflate, br', 'br'],
    ['br;q=0.5, gzip', 'gzip'],
    ['BR, GZIP', 'br'],
    ['x-gzip', 'gzip'],
    ['gzip;q=0.5', 'gzip'],
    ['deflate', 'identity'],
    ['*', 'br'],
    ['*;q=0.5, br;q=0', 'gzip'],
    ['identity', 'identity'],
    ['identity;q=1, gzip;q=0.9', 'identity'],
    ['gzip;q=0, br;q=0', 'identity'],
    ['br ; q = 0.8 , gzip;q=0.7', 'br'],
    ['gzip;q=2', 'identity'],
    ['gzip;q=0.0001', 'identity'],
    ['gzip;q=1.000', 'gzip'],
  ] as const)('%j → %s', (header, expected) => {
    expect(negotiateContentEncoding(header)).toBe(expected);
  });

  it.each(['identity;q=0', '*;q=0', 'gzip;q=0, identity;q=0', 'deflate, *;q=0'])('%j accepts nothing the producer has', (header) => {
    expect(negotiateContentEncoding(header)).toBeUndefined();
  });

  it('gives the same answer for a repeated header (remembered) and a different one after it', () => {
    expect(negotiateContentEncoding('gzip')).toBe('gzip');
    expect(negotiateContentEncoding('gzip')).toBe('gzip');
    expect(negotiateContentEncoding('br')).toBe('br');
  });
});
