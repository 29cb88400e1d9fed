import { describe, expect, it } from 'vitest';
import { matchesIfNoneMatch } from './matches-if-none-match.js';

// A wrong match serves a client a stale manifest as 304; a missed one only costs a body. The edges:
// near misses of a tag, malformed headers, and a header a client made huge.

describe('matchesIfNoneMatch', () => {
  it.each<[string | null, boolean]>([
    [null, false],
    ['"a"', true],
    ['W/"a"', true],
    ['"b", "a"', true],
    ['*', true],
    ['"b"', false],
    ['a', false],
    ['', false],
    [',', false],
    ['"a', false],
    ['a"', false],
    ['"a"x', false],
    ['"A"', false],
    ['W/ "a"', false],
    ['w/"a"', false],
    ['"b",,  W/"a" ,', true],
    ['"b", *', true],
  ])('%j against "a" → %s', (header, expected) => {
    expect(matchesIfNoneMatch(header, '"a"')).toBe(expected);
  });

  it.each<[string, readonly string[], boolean]>([
    ['W/"a"', ['W/"a"'], true],
    ['"a"', ['W/"a"'], true],
    ['"b-gzip"', ['"b"', '"b-br"', '"b-gzip"'], true],
    [' "b-br" ', ['"b"', '"b-br"', '"b-gzip"'], true],
    ['"b-zstd"', ['"b"', '"b-br"', '"b-gzip"'], false],
  ])('%j against the tags %j → %s (weak comparison, any representation)', (header, tags, expected) => {
    expect(matchesIfNoneMatch(header, tags)).toBe(expected);
  });

  it('never matches a tag that only shares a prefix with a representation tag', () => {
    const tags = ['"sha256-abc"', '"sha256-abc-br"', '"sha256-abc-gzip"'];
    expect(matchesIfNoneMatch('"sha256-ab"', tags)).toBe(false);
    expect(matchesIfNoneMatch('"sha256-abc-b"', tags)).toBe(false);
    expect(matchesIfNoneMatch('W/"sha256-abc-gzip"', tags)).toBe(true);
  });

  it('answers a header of 20,000 listed tags in well under a second, matching the last one', () => {
    const header = [...Array.from({ length: 20_000 }, (_, index) => `"t${index}"`), '"a"'].join(', ');
    const startedAt = performance.now();
    expect(matchesIfNoneMatch(header, ['"a"', '"a-br"'])).toBe(true);
    expect(matchesIfNoneMatch(header.replace('"a"', '"z"'), ['"a"', '"a-br"'])).toBe(false);
    expect(performance.now() - startedAt).toBeLessThan(1_000);
  });
});
