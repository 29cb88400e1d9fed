import { describe, expect, it } from 'vitest';
import { compareSemver } from './compare-semver.js';

describe('compareSemver', () => {
  it.each([
    ['1.2.3', '1.2.3', 0],
    ['1.2.4', '1.2.3', 1],
    ['1.10.0', '1.9.9', 1],
    ['0.9.0', '1.0.0', -1],
    ['2.0.0-beta.1', '2.0.0', 0],
  ])('%s vs %s → %i (numeric cores, not text)', (left, right, expected) => {
    expect(compareSemver(left, right)).toBe(expected);
  });

  it('is undefined when either side is not a semantic version', () => {
    expect(compareSemver('v1', '1.0.0')).toBeUndefined();
    expect(compareSemver('1.0.0', '2024-01')).toBeUndefined();
  });
});
