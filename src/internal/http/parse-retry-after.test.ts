import { describe, expect, it } from 'vitest';
import { parseRetryAfter } from './parse-retry-after.js';

const now = Date.parse('2026-01-01T00:00:00Z');

describe('parseRetryAfter', () => {
  it.each([
    ['2', 2_000],
    ['0', 0],
    [' 86400 ', 86_400_000],
    ['Thu, 01 Jan 2026 00:00:03 GMT', 3_000],
    ['Wed, 31 Dec 2025 23:59:00 GMT', 0],
  ])('reads %j as %i ms', (value, expected) => {
    expect(parseRetryAfter(value, now)).toBe(expected);
  });

  it.each([null, 'abc', '-5', '1.5', '', '2 seconds', '99999999999999999999', 'Someday, never'])('treats %j as absent or invalid', (value) => {
    expect(parseRetryAfter(value, now)).toBeUndefined();
  });
});
